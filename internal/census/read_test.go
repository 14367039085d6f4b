package census

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// wantCensus is a census as a test states it: every test by ID, the files where given.
type wantCensus struct {
	tests    map[string]Outcome
	files    map[string]string // ID to file, for the tests that say one
	failed   []Unit
	complete bool
	notes    []string // substrings the notes must hold, in order
}

func checkCensus(t *testing.T, got Census, want wantCensus) {
	t.Helper()
	var gotLines, wantLines []string
	for _, tt := range got.Tests {
		if tt.ID != joinID(tt.Suite, tt.Name) {
			t.Errorf("ID %q is not suite %q and name %q", tt.ID, tt.Suite, tt.Name)
		}
		gotLines = append(gotLines, fmt.Sprintf("%s = %s", tt.ID, tt.Outcome))
		if f, ok := want.files[tt.ID]; ok && f != tt.File {
			t.Errorf("%s: file %q, want %q", tt.ID, tt.File, f)
		}
	}
	for id, o := range want.tests {
		wantLines = append(wantLines, fmt.Sprintf("%s = %s", id, o))
	}
	slices.Sort(gotLines)
	slices.Sort(wantLines)
	if g, w := strings.Join(gotLines, "\n"), strings.Join(wantLines, "\n"); g != w {
		t.Errorf("tests:\n%s\nwant:\n%s", g, w)
	}
	if fmt.Sprint(got.Failed) != fmt.Sprint(want.failed) {
		t.Errorf("failed units:\n%q\nwant:\n%q", got.Failed, want.failed)
	}
	if got.Complete != want.complete {
		t.Errorf("complete = %v, want %v (notes %q)", got.Complete, want.complete, got.Notes)
	}
	for i, n := range want.notes {
		if i >= len(got.Notes) || !strings.Contains(got.Notes[i], n) {
			t.Errorf("notes %q, want %q", got.Notes, want.notes)
			break
		}
	}
}

func readSample(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

const shop = "example.com/shop/"

func TestReadGo(t *testing.T) {
	tests := []struct {
		sample string
		want   wantCensus
	}{
		{"go-test.json", wantCensus{
			tests: map[string]Outcome{
				shop + "cart::TestTotal": Pass, shop + "cart::TestTotal/empty": Pass, shop + "cart::TestTotal/one": Pass,
				shop + "cart::TestTotal/many_items": Pass, shop + "cart::TestSkipped": Skip,
				shop + "cart::TestFails": Fail, shop + "cart::TestFails/inner": Fail, shop + "cart::TestFails/fine": Pass,
				shop + "cart::TestNested": Pass, shop + "cart::TestNested/a": Pass, shop + "cart::TestNested/a/b": Pass,
				shop + "mainexit::TestRuns": Pass,
				shop + "panics::TestOK":     Pass, shop + "panics::TestPanics": Fail, // TestAfter never ran
				shop + "tax::TestRate": Pass, shop + "tax::TestParallel": Pass,
			},
			failed: []Unit{
				{Suite: shop + "broken", Reason: "build failed"},
				{Suite: shop + "mainexit", Reason: "the test binary failed after its tests passed (TestMain or os.Exit)"},
				{Suite: shop + "panics", Reason: "the test binary ended before reporting every test (a panic, a timeout or os.Exit)"},
			},
			complete: true,
		}},
		{"go-timeout.json", wantCensus{
			tests: map[string]Outcome{shop + "slow::TestQuick": Pass, shop + "slow::TestSlow": Fail},
			failed: []Unit{
				{Suite: shop + "slow", Reason: "the test binary ended before reporting every test (a panic, a timeout or os.Exit)"},
			},
			complete: true,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.sample, func(t *testing.T) {
			checkCensus(t, ReadGo(readSample(t, tt.sample), Options{}), tt.want)
		})
	}
}

func TestReadGoHostile(t *testing.T) {
	ev := func(action, test string) string {
		return fmt.Sprintf(`{"Action":%q,"Package":"example.com/x","Test":%q}`, action, test)
	}
	tests := []struct {
		name  string
		input string
		want  wantCensus
	}{
		{
			name:  "cut in the middle of a package",
			input: ev("run", "TestA") + "\n" + ev("pass", "TestA") + "\n" + ev("run", "TestB") + "\n" + `{"Action":"pa`,
			want: wantCensus{tests: map[string]Outcome{"example.com/x::TestA": Pass},
				notes: []string{"event did not parse", "ended before example.com/x finished"}},
		},
		{
			name:  "not go test -json at all",
			input: "ok  \texample.com/x\t0.01s\n",
			want:  wantCensus{notes: []string{"no go test -json events"}},
		},
		{
			name:  "build failure as text, before Go 1.24",
			input: "# example.com/x\nx.go:3:1: syntax error\nFAIL\texample.com/x [build failed]\n",
			want:  wantCensus{failed: []Unit{{Suite: "example.com/x", Reason: "build failed"}}, notes: []string{"no go test -json events"}},
		},
		{
			name:  "a line far longer than any event",
			input: `{"Action":"output","Package":"example.com/x","Output":"` + strings.Repeat("y", 3*maxLine) + "\"}\n" + ev("pass", "TestA") + "\n" + `{"Action":"pass","Package":"example.com/x"}` + "\n",
			want:  wantCensus{tests: map[string]Outcome{"example.com/x::TestA": Pass}, notes: []string{"longer than 64 KiB"}},
		},
		{
			name:  "the same test twice keeps the worse end",
			input: ev("pass", "TestA") + "\n" + ev("skip", "TestA") + "\n" + `{"Action":"pass","Package":"example.com/x"}` + "\n",
			want:  wantCensus{tests: map[string]Outcome{"example.com/x::TestA": Skip}, complete: true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkCensus(t, ReadGo(strings.NewReader(tt.input), Options{}), tt.want)
		})
	}
}

func TestReadBounds(t *testing.T) {
	var b strings.Builder
	for i := range 50 {
		fmt.Fprintf(&b, `{"Action":"pass","Package":"example.com/x","Test":"Test%d"}`+"\n", i)
	}
	long := "Test" + strings.Repeat("é", 400)
	fmt.Fprintf(&b, `{"Action":"pass","Package":"example.com/y","Test":%q}`+"\n", long)
	b.WriteString(`{"Action":"pass","Package":"example.com/x"}` + "\n")
	got := ReadGo(strings.NewReader(b.String()), Options{MaxTests: 10})
	if len(got.Tests) != 10 || got.Complete {
		t.Fatalf("kept %d tests, complete %v: want 10, incomplete", len(got.Tests), got.Complete)
	}
	got = ReadGo(strings.NewReader(b.String()), Options{})
	last := got.Tests[len(got.Tests)-1]
	if len(last.Name) > maxPart || !strings.HasPrefix(long, strings.Split(last.Name, "…#")[0]) {
		t.Errorf("a long name is kept as %q (%d bytes)", last.Name, len(last.Name))
	}
	again := ReadGo(strings.NewReader(b.String()), Options{})
	if again.Tests[len(again.Tests)-1].ID != last.ID {
		t.Error("a long name's ID is not the same from one reading to the next")
	}
}

func TestReadJUnit(t *testing.T) {
	tests := []struct {
		sample string
		want   wantCensus
	}{
		{"node-junit.xml", wantCensus{ // node's describe blocks are testsuites; its classname is always "test"
			tests: map[string]Outcome{
				"add > adds two numbers": Pass, "add > handles negatives": Fail, "add > big numbers": Skip,
				"add > floats": Skip, "add > nested > deep": Pass, "top level": Pass,
				"with subtests > sub one": Pass, "with subtests > sub two": Pass, "upper": Pass, "skipped with reason": Skip,
			},
			complete: true,
		}},
		{"vitest-junit.xml", wantCensus{
			tests: map[string]Outcome{
				"math.test.ts::add > adds two numbers": Pass, "math.test.ts::add > handles negatives": Fail,
				"math.test.ts::add > big numbers": Skip, "math.test.ts::add > floats": Skip,
				"math.test.ts::add > nested > deep": Pass, "math.test.ts::top level": Pass,
				"math.test.ts::case 1": Pass, "math.test.ts::case 2": Pass, "str.test.ts::upper": Pass,
			},
			files:    map[string]string{"math.test.ts::top level": "math.test.ts", "str.test.ts::upper": "str.test.ts"},
			complete: true,
		}},
		{"jest-junit.xml", wantCensus{ // jest-junit's defaults: the title is the classname, todo passes
			tests: map[string]Outcome{
				"add::add adds two numbers": Pass, "add::add handles negatives": Fail, "add::add big numbers": Skip,
				"add::add floats": Pass, "add::add nested deep": Pass, "add::top level": Pass, "undefined::upper": Pass,
			},
			files:    map[string]string{"add::top level": ""},
			complete: true,
		}},
		{"pytest-junit.xml", wantCensus{
			tests: map[string]Outcome{
				"tests.test_calc::test_add": Pass, "tests.test_calc::test_sub": Fail,
				"tests.test_calc.TestDiv::test_by_zero": Skip, "tests.test_calc::test_param[1-2]": Pass,
				"tests.test_calc::test_param[3-4]": Pass, "tests.test_calc::test_known_bug": Skip,
				"tests.test_db::test_conn": Fail, "tests.test_db::test_close": Fail, // failed in call, then in teardown: two testcases
				"pytest::tests.test_broken": Fail, // a module that did not collect
			},
			complete: true,
		}},
		{"pytest-xunit1.xml", wantCensus{
			tests:    map[string]Outcome{"tests.test_calc::test_add": Pass, "tests.test_calc.TestDiv::test_by_zero": Skip},
			files:    map[string]string{"tests.test_calc::test_add": "tests/test_calc.py"},
			complete: true,
		}},
		{"surefire-TEST-com.example.CalcTest.xml", wantCensus{
			tests: map[string]Outcome{
				"com.example.CalcTest::adds": Pass, "com.example.CalcTest::subtracts": Fail, "com.example.CalcTest::divides": Skip,
				"com.example.CalcTest::connects": Fail, "com.example.CalcTest::retried": Pass, // flaky: passed on a rerun
			},
			complete: true,
		}},
		{"nextest-junit.xml", wantCensus{
			tests: map[string]Outcome{
				"calc::tests::adds": Pass, "calc::tests::fails": Fail, "calc::tests::nested::deep": Pass, "calc::tests::flaky": Pass,
				"calc::integration::adds": Pass, "calc::integration::subtracts": Pass,
			},
			complete: true,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.sample, func(t *testing.T) {
			checkCensus(t, ReadJUnit(readSample(t, tt.sample), Options{}), tt.want)
		})
	}
}

func TestReadJUnitFiles(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "TEST-a.xml")
	b := filepath.Join(dir, "TEST-b.xml")
	os.WriteFile(a, []byte(`<testsuite name="A"><testcase classname="A" name="x"/><testcase classname="A" name="y"><skipped/></testcase></testsuite>`), 0o644)
	os.WriteFile(b, []byte(`<testsuite name="A"><testcase classname="A" name="y"/><testcase classname="B" name="z"/></testsuite>`), 0o644)
	got := ReadJUnitFiles([]string{a, b}, time.Now().Add(time.Minute), Options{})
	checkCensus(t, got, wantCensus{tests: map[string]Outcome{"A::x": Pass, "A::y": Skip, "B::z": Pass}, complete: true})

	got = ReadJUnitFiles([]string{a, filepath.Join(dir, "missing.xml"), dir}, time.Time{}, Options{})
	checkCensus(t, got, wantCensus{tests: map[string]Outcome{"A::x": Pass, "A::y": Skip},
		notes: []string{"missing.xml", "not a regular file"}})

	checkCensus(t, ReadJUnitFiles(nil, time.Time{}, Options{}), wantCensus{notes: []string{"no JUnit report"}})
}

func TestReadJUnitHostile(t *testing.T) {
	huge := strings.Repeat("x", 10<<20)
	tests := []struct {
		name  string
		input string
		want  wantCensus
	}{
		{
			name: "entity expansion (billion laughs) is not done",
			input: `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">` +
				`<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>` +
				`<testsuites><testsuite name="s"><testcase classname="c" name="&lol3;"/></testsuite></testsuites>`,
			want: wantCensus{tests: map[string]Outcome{"c::&lol3;": Pass}, complete: true},
		},
		{
			name:  "an external entity is not fetched",
			input: `<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><testsuite><testcase classname="c" name="&xxe;"/></testsuite>`,
			want:  wantCensus{tests: map[string]Outcome{"c::&xxe;": Pass}, complete: true},
		},
		{
			name:  "nesting without end",
			input: strings.Repeat("<testsuite>", 100000),
			want:  wantCensus{notes: []string{"did not parse: XML nested deeper than 256"}},
		},
		{
			name:  "cut inside a testcase",
			input: `<testsuites><testsuite name="s"><testcase classname="c" name="a"/><testcase classname="c" name="b"><fail`,
			want:  wantCensus{tests: map[string]Outcome{"c::a": Pass}, notes: []string{"did not parse"}},
		},
		{
			name:  "megabytes of output and message kept out of memory",
			input: `<testsuite><testcase classname="c" name="a"><failure message="` + huge + `">` + huge + `</failure><system-out><![CDATA[` + huge + `]]></system-out></testcase></testsuite>`,
			want:  wantCensus{tests: map[string]Outcome{"c::a": Fail}, complete: true},
		},
		{
			name:  "a huge name is kept short",
			input: `<testsuite><testcase classname="c" name="` + huge + `"/></testsuite>`,
			want:  wantCensus{tests: map[string]Outcome{"c::" + strings.Repeat("x", maxPart-20) + "…#" + hashOf(strings.Repeat("x", xmlMaxValue)): Pass}, complete: true},
		},
		{
			name:  "mismatched tags",
			input: `<testsuite><testcase classname="c" name="a"></testsuite>`,
			want:  wantCensus{notes: []string{"did not parse: </testsuite> closes no open element"}},
		},
		{
			name:  "not XML",
			input: "PASS all tests\n",
			want:  wantCensus{notes: []string{"no JUnit testsuite or testcase"}},
		},
		{
			name:  "an empty report is a report of no tests",
			input: `<?xml version="1.0"?><testsuites/>`,
			want:  wantCensus{complete: true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkCensus(t, ReadJUnit(strings.NewReader(tt.input), Options{}), tt.want)
		})
	}
}

func hashOf(s string) string {
	b := newBuilder("", Options{})
	long := b.bound(s)
	_, h, _ := strings.Cut(long, "…#")
	return h
}

func TestReadTAP(t *testing.T) {
	checkCensus(t, ReadTAP(readSample(t, "node-tap.txt"), Options{Root: "/home/dev/shop"}), wantCensus{
		tests: map[string]Outcome{
			"test/broken.test.js":    Fail, // did not load
			"add > adds two numbers": Pass, "add > handles negatives": Fail, "add > big numbers": Skip,
			"add > floats": Skip, "add > nested > deep": Pass, "top level": Pass, "with subtests": Pass,
			"with subtests > sub one": Pass, "with subtests > sub two": Pass, "upper": Pass, "skipped with reason": Skip,
		},
		files:    map[string]string{"add > handles negatives": "test/math.test.js", "top level": ""},
		complete: true,
	})
}

func TestReadTAPHostile(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  wantCensus
	}{
		{
			name:  "cut before the plan",
			input: "TAP version 13\n# Subtest: a\nok 1 - a\n  ---\n  duration_ms: 1\n  ...\n# Subtest: b\n",
			want:  wantCensus{tests: map[string]Outcome{"a": Pass}, notes: []string{"ended before its plan"}},
		},
		{
			name:  "fewer tests than planned",
			input: "TAP version 13\n1..3\nok 1 - a\nnot ok 2 - b # TODO not yet\n",
			want:  wantCensus{tests: map[string]Outcome{"a": Pass, "b": Skip}, notes: []string{"plan counts 3 tests, 2 were reported"}},
		},
		{
			name:  "an escaped # in a name is not a directive",
			input: "TAP version 13\nok 1 - issue \\#12 fixed\nok 2 - c # skip\n1..2\n",
			want:  wantCensus{tests: map[string]Outcome{"issue #12 fixed": Pass, "c": Skip}, complete: true},
		},
		{
			name:  "a YAML block holding what looks like test points",
			input: "TAP version 13\nnot ok 1 - a\n  ---\n  error: |-\n    ok 7 - fake\n    not ok 8 - fake\n  ...\n1..1\n",
			want:  wantCensus{tests: map[string]Outcome{"a": Fail}, complete: true},
		},
		{
			name:  "nesting beyond any real suite",
			input: "TAP version 13\n" + strings.Repeat(" ", 4*(maxTAPDepth+1)) + "ok 1 - deep\nok 1 - top\n1..1\n",
			want:  wantCensus{tests: map[string]Outcome{"top": Pass}, notes: []string{"nested deeper than 64"}},
		},
		{
			name:  "not TAP",
			input: "all good\n",
			want:  wantCensus{notes: []string{"no TAP test points"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkCensus(t, ReadTAP(strings.NewReader(tt.input), Options{}), tt.want)
		})
	}
}

func TestReadLibtest(t *testing.T) {
	tests := []struct {
		sample string
		want   wantCensus
	}{
		{"libtest-cargo-test.txt", wantCensus{
			tests: map[string]Outcome{
				"src/lib.rs::tests::adds": Pass, "src/lib.rs::tests::nested::deep": Pass, "src/lib.rs::tests::net": Skip,
				"src/lib.rs::tests::panics": Pass, "src/lib.rs::tests::slow": Skip, "src/lib.rs::tests::fails": Fail,
				"tests/integration.rs::adds": Pass, "tests/integration.rs::subtracts": Pass,
				"Doc-tests calc::src/lib.rs - add": Pass, "Doc-tests calc::src/lib.rs - sub": Fail,
			},
			complete: true,
		}},
		{"libtest-cargo-abort.txt", wantCensus{
			tests: map[string]Outcome{"tests/abort.rs::fine": Pass, "tests/integration.rs::adds": Pass, "tests/integration.rs::subtracts": Pass},
			failed: []Unit{{Suite: "tests/abort.rs",
				Reason: "the test binary ended before reporting every test (signal: 6, SIGABRT: process abort signal)"}},
			complete: true,
		}},
		{"libtest-cargo-build-fail.txt", wantCensus{
			failed:   []Unit{{Reason: "could not compile `calc` (test \"integration\")"}},
			complete: true,
		}},
		{"libtest-cargo-q.txt", wantCensus{
			tests:  map[string]Outcome{"tests::fails": Fail}, // -q prints no "Running" lines either
			failed: []Unit{{Reason: "cargo stopped at the first target that failed: the targets after it did not run (no --no-fail-fast)"}},
			notes:  []string{"summary of the run counts 6 tests, 1 were named (terse output"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.sample, func(t *testing.T) {
			checkCensus(t, ReadLibtest(readSample(t, tt.sample), Options{}), tt.want)
		})
	}
}

func TestReadLibtestHostile(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  wantCensus
	}{
		{
			name:  "cut inside a target",
			input: "     Running unittests src/lib.rs (target/debug/deps/calc-0123456789abcdef)\n\nrunning 3 tests\ntest a ... ok\n",
			want:  wantCensus{tests: map[string]Outcome{"src/lib.rs::a": Pass}, notes: []string{"ended inside src/lib.rs"}},
		},
		{
			name: "serial output around a test's own output (--test-threads=1 --nocapture)",
			input: "     Running target/debug/deps/calc-0123456789abcdef\n\nrunning 2 tests\ntest a ... hello from a\nok\ntest b ... ok\n\n" +
				"test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n",
			want: wantCensus{tests: map[string]Outcome{"calc::b": Pass}, notes: []string{"counts 2 tests, 1 were named"}},
		},
		{
			name:  "a test that only opened its line",
			input: "running 1 test\ntest a ... \nok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n",
			want:  wantCensus{tests: map[string]Outcome{"a": Pass}, complete: true},
		},
		{
			name:  "not cargo",
			input: "PASS\n",
			want:  wantCensus{notes: []string{"no cargo test output"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkCensus(t, ReadLibtest(strings.NewReader(tt.input), Options{}), tt.want)
		})
	}
}

func TestReadJest(t *testing.T) {
	checkCensus(t, ReadJest(readSample(t, "jest.json"), Options{Root: "/home/dev/shop"}), wantCensus{
		tests: map[string]Outcome{
			"jt/math.test.js::add > adds two numbers": Pass, "jt/math.test.js::add > handles negatives": Fail,
			"jt/math.test.js::add > big numbers": Skip, "jt/math.test.js::add > floats": Skip,
			"jt/math.test.js::add > nested > deep": Pass, "jt/math.test.js::top level": Pass,
			"jt/str.test.js::upper": Pass,
		},
		files:    map[string]string{"jt/str.test.js::upper": "jt/str.test.js"},
		failed:   []Unit{{Suite: "jt/broken.test.js", Reason: "the test file failed to run"}},
		complete: true,
	})
}

func TestReadJestHugeStrings(t *testing.T) {
	huge := strings.Repeat(`\"x\u00e9`, 2<<20)
	input := `{"numTotalTests":1,"testResults":[{"assertionResults":[{"ancestorTitles":["a"],"failureMessages":["` + huge +
		`"],"status":"failed","title":"` + huge + `"}],"message":"` + huge + `","name":"/x/a.test.js","status":"failed"}]}`
	got := ReadJest(strings.NewReader(input), Options{})
	checkInvariants(t, got, DefaultMaxTests)
	if len(got.Tests) != 1 || got.Tests[0].Outcome != Fail || !got.Complete {
		t.Fatalf("got %+v", got)
	}
	if name := got.Tests[0].Name; !strings.HasPrefix(name, `a > "xé"xé`) || !strings.Contains(name, "…#") {
		t.Errorf("the name is kept as %q", name)
	}
}

func TestReadJestHostile(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  wantCensus
	}{
		{
			name:  "cut short",
			input: `{"testResults":[{"assertionResults":[{"ancestorTitles":[],"status":"passed","title":"a"}],"name":"/x/a.test.js"`,
			want:  wantCensus{notes: []string{"ended early"}},
		},
		{
			name:  "a number without end",
			input: `{"numTotalTests":` + strings.Repeat("9", 1<<20) + `}`,
			want:  wantCensus{notes: []string{"longer than 1024 bytes"}},
		},
		{
			name:  "not a jest report",
			input: `{"results":[]}`,
			want:  wantCensus{notes: []string{"no testResults"}},
		},
		{
			name:  "the wrong shapes",
			input: `{"testResults":[{"assertionResults":{"title":"a"}}]}`,
			want:  wantCensus{notes: []string{"did not parse"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkCensus(t, ReadJest(strings.NewReader(tt.input), Options{}), tt.want)
		})
	}
}
