package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/census"
)

const goEventsSample = `{"Action":"start","Package":"example.com/m"}
{"Action":"run","Package":"example.com/m","Test":"TestB"}
{"Action":"output","Package":"example.com/m","Test":"TestB","Output":"=== RUN   TestB\n"}
{"Action":"output","Package":"example.com/m","Test":"TestB","Output":"    a_test.go:6: boom \u001b[31m\"quoted\"\u001b[0m\n"}
{"Action":"output","Package":"example.com/m","Test":"TestB","Output":"--- FAIL: TestB (0.00s)\n"}
{"Action":"fail","Package":"example.com/m","Test":"TestB","Elapsed":0}
go: downloading example.com/dep v1.0.0
{"Action":"output","Package":"example.com/m","Output":"a long line cut by test2json "}
{"Action":"output","Package":"example.com/m","Output":"ends here\n"}
{"ImportPath":"example.com/m/bad [example.com/m/bad.test]","Action":"build-output","Output":"bad/bad_test.go:3:28: undefined: x\n"}
{"not an event": true}
{"Action":"output","Package":"example.com/m","Output":"FAIL\texample.com/m\t0.007s\n"}
{"Action":"fail","Package":"example.com/m","Elapsed":0.009}
`

const goEventsShown = "=== RUN   TestB\n" +
	"    a_test.go:6: boom \x1b[31m\"quoted\"\x1b[0m\n" +
	"--- FAIL: TestB (0.00s)\n" +
	"go: downloading example.com/dep v1.0.0\n" +
	"a long line cut by test2json ends here\n" +
	"bad/bad_test.go:3:28: undefined: x\n" +
	"{\"not an event\": true}\n" +
	"FAIL\texample.com/m\t0.007s\n"

// The user sees the text of go test's events, whatever the pieces the pipe delivers them in,
// and the census gets every byte as it came.
func TestGoEventsShowTheirOutput(t *testing.T) {
	for _, size := range []int{1, 7, 64, len(goEventsSample)} {
		var shown, raw bytes.Buffer
		f := newGoEventsFilter(&shown, &raw, census.GoShow{Verbose: true})
		for s := goEventsSample; s != ""; {
			n := min(size, len(s))
			f.Write([]byte(s[:n]))
			s = s[n:]
		}
		f.Close()
		if shown.String() != goEventsShown {
			t.Errorf("pieces of %d: shown\n%q\nwant\n%q", size, shown.String(), goEventsShown)
		}
		if raw.String() != goEventsSample {
			t.Errorf("pieces of %d: the census got %q", size, raw.String())
		}
	}
}

func TestGoEventsPassALongLineAndTheLastOneThrough(t *testing.T) {
	long := strings.Repeat("x", 3*maxEventLine+5)
	var shown, raw bytes.Buffer
	f := newGoEventsFilter(&shown, &raw, census.GoShow{Verbose: true})
	f.Write([]byte(long + "\n" + `{"Action":"output","Output":"after\n"}` + "\nno newline at the end"))
	f.Close()
	if want := long + "\nafter\nno newline at the end"; shown.String() != want {
		t.Errorf("shown %d bytes %q..., want the long line whole, then the rest", shown.Len(), shown.String()[max(0, shown.Len()-40):])
	}
	if f.heldBytes() > maxEventLine {
		t.Errorf("the filter holds %d bytes, more than a line it decodes", f.heldBytes())
	}
}

// countingWriter counts what is shown without keeping it.
type countingWriter struct{ n int }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

// 64 MiB of a failing test's log, as go test -json events: what the filter and the census keep
// stays bounded however much the output holds, whether the filter shows it all (-v) or holds the
// test's log until its --- FAIL line.
func TestGoEventsKeepMemoryBounded(t *testing.T) {
	const size = 64 << 20
	text := "    a_test.go:3: " + strings.Repeat("x", 1000)
	event := `{"Action":"output","Package":"p","Test":"T","Output":"` + text + `\n"}` + "\n"
	head := `{"Action":"run","Package":"p","Test":"T"}` + "\n"
	tail := `{"Action":"output","Package":"p","Test":"T","Output":"--- FAIL: T (1.00s)\n"}` + "\n" +
		`{"Action":"fail","Package":"p","Test":"T"}` + "\n" + `{"Action":"output","Package":"p","Output":"FAIL\n"}` + "\n" +
		`{"Action":"fail","Package":"p"}` + "\n"
	for _, tc := range []struct {
		show     census.GoShow
		min, max int // bytes shown
	}{
		{census.GoShow{Verbose: true}, size / 2, 2 * size},
		{census.GoShow{FinalFail: true}, maxHeldPerUnit - 2<<10, maxHeldPerUnit + 1<<10}, // whole lines of the last 256 KiB
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		stream := startCensusStream(census.FormatGo, census.Options{})
		shown := &countingWriter{}
		f := newGoEventsFilter(shown, stream, tc.show)
		f.Write([]byte(head))
		chunk := []byte(strings.Repeat(event, 32<<10/len(event)))
		for written := 0; written < size; written += len(chunk) {
			f.Write(chunk)
		}
		f.Write([]byte(tail))
		f.Close()
		runtime.GC()
		runtime.ReadMemStats(&after)
		c := stream.close()
		if len(c.Tests) != 1 || c.Tests[0].ID != "p::T" || !c.Complete {
			t.Fatalf("census %+v", c)
		}
		if shown.n < tc.min || shown.n > tc.max {
			t.Errorf("%+v: %d bytes shown, want %d to %d", tc.show, shown.n, tc.min, tc.max)
		}
		if held := int64(after.HeapAlloc) - int64(before.HeapAlloc); held > 4<<20 {
			t.Errorf("%+v: %d MiB of output left %d KiB held", tc.show, size>>20, held>>10)
		}
	}
}

// goEvent is one test2json event line; test is "" for the package's own output.
func goEvent(action, test, output string) string {
	e := map[string]string{"Action": action, "Package": "example.com/m"}
	if test != "" {
		e["Test"] = test
	}
	if action == "output" {
		e["Output"] = output
	}
	b, err := json.Marshal(e)
	if err != nil {
		panic(err)
	}
	return string(b) + "\n"
}

// goEvents are the events of a test that runs, prints each of outputs and ends with action.
func goTestEvents(name, action string, outputs ...string) string {
	s := goEvent("run", name, "")
	for _, o := range outputs {
		s += goEvent("output", name, o)
	}
	return s + goEvent(action, name, "")
}

func renderGoEvents(show census.GoShow, events string) string {
	var shown bytes.Buffer
	f := newGoEventsFilter(&shown, io.Discard, show)
	f.Write([]byte(events))
	f.Close()
	return shown.String()
}

// What go test prints without -v, in the cases the captured runs do not hold.
func TestGoEventsShowWhatGoTestPrints(t *testing.T) {
	packages := census.GoShow{FinalFail: true}
	directory := census.GoShow{Streams: true}
	passes := goTestEvents("TestA", "pass", "=== RUN   TestA\n", "    a_test.go:3: a log\n", "printed\n", "--- PASS: TestA (0.00s)\n")
	tests := []struct {
		name   string
		show   census.GoShow
		events string
		want   string
	}{
		{
			name: "packages named: a passing package shows its ok line only",
			show: packages,
			events: goEvent("output", "", "TestMain starts\n") + passes + goEvent("output", "", "PASS\n") +
				goEvent("output", "", "ok  \texample.com/m\t0.01s\n") + goEvent("pass", "", ""),
			want: "ok  \texample.com/m\t0.01s\n",
		},
		{
			name: "no package named: a passing package shows what its tests printed themselves",
			show: directory,
			events: goEvent("output", "", "TestMain starts\n") + passes + goEvent("output", "", "PASS\n") +
				goEvent("output", "", "ok  \texample.com/m\t0.01s\n") + goEvent("pass", "", ""),
			want: "TestMain starts\nprinted\nPASS\nok  \texample.com/m\t0.01s\n",
		},
		{
			// Parallel subtests, as go test -json printed them (go1.26.8): each log goes with its
			// test, each print as it came, the failures nested in the order they ended.
			name: "parallel subtests",
			show: directory,
			events: goEvent("run", "TestPar", "") + goEvent("output", "TestPar", "=== RUN   TestPar\n") +
				goEvent("run", "TestPar/a", "") + goEvent("output", "TestPar/a", "=== RUN   TestPar/a\n") +
				goEvent("output", "TestPar/a", "=== PAUSE TestPar/a\n") + goEvent("pause", "TestPar/a", "") +
				goEvent("run", "TestPar/b", "") + goEvent("output", "TestPar/b", "=== RUN   TestPar/b\n") +
				goEvent("output", "TestPar/b", "=== PAUSE TestPar/b\n") + goEvent("pause", "TestPar/b", "") +
				goEvent("run", "TestPar/c", "") + goEvent("output", "TestPar/c", "=== RUN   TestPar/c\n") +
				goEvent("output", "TestPar/c", "=== PAUSE TestPar/c\n") + goEvent("pause", "TestPar/c", "") +
				goEvent("cont", "TestPar/a", "") + goEvent("output", "TestPar/a", "=== CONT  TestPar/a\n") +
				goEvent("cont", "TestPar/c", "") + goEvent("output", "TestPar/c", "=== CONT  TestPar/c\n") +
				goEvent("output", "TestPar/a", "stdout of a\n") + goEvent("output", "TestPar/c", "stdout of c\n") +
				goEvent("output", "TestPar/c", "    p_test.go:10: log of c\n") + goEvent("output", "TestPar/a", "    p_test.go:10: log of a\n") +
				goEvent("output", "TestPar/a", "    p_test.go:11: fail a\n") + goEvent("output", "TestPar/c", "    p_test.go:11: fail c\n") +
				goEvent("output", "TestPar/c", "--- FAIL: TestPar/c (0.00s)\n") + goEvent("fail", "TestPar/c", "") +
				goEvent("output", "TestPar/a", "--- FAIL: TestPar/a (0.00s)\n") + goEvent("fail", "TestPar/a", "") +
				goEvent("cont", "TestPar/b", "") + goEvent("output", "TestPar/b", "=== CONT  TestPar/b\n") +
				goEvent("output", "TestPar/b", "stdout of b\n") + goEvent("output", "TestPar/b", "    p_test.go:10: log of b\n") +
				goEvent("output", "TestPar/b", "--- PASS: TestPar/b (0.00s)\n") + goEvent("pass", "TestPar/b", "") +
				goEvent("output", "TestPar", "--- FAIL: TestPar (0.00s)\n") + goEvent("fail", "TestPar", "") +
				goEvent("output", "", "FAIL\n") + goEvent("fail", "", ""),
			want: "stdout of a\nstdout of c\nstdout of b\n" +
				"--- FAIL: TestPar (0.00s)\n" +
				"    --- FAIL: TestPar/c (0.00s)\n        p_test.go:10: log of c\n        p_test.go:11: fail c\n" +
				"    --- FAIL: TestPar/a (0.00s)\n        p_test.go:10: log of a\n        p_test.go:11: fail a\n" +
				"FAIL\n",
		},
		{
			// test2json cuts a line longer than 1 KiB into pieces: the first says what it is.
			name: "a long log line in pieces",
			show: directory,
			events: goTestEvents("TestLong", "fail", "=== RUN   TestLong\n", "    a_test.go:3: "+strings.Repeat("x", 10), strings.Repeat("y", 10),
				"z\n", "a print in ", "pieces\n", "--- FAIL: TestLong (0.00s)\n") +
				goTestEvents("TestQuiet", "pass", "=== RUN   TestQuiet\n", "    a_test.go:9: "+strings.Repeat("q", 10), "    not a new line\n",
					"--- PASS: TestQuiet (0.00s)\n"),
			want: "a print in pieces\n--- FAIL: TestLong (0.00s)\n    a_test.go:3: xxxxxxxxxxyyyyyyyyyyz\n",
		},
		{
			name: "the race detector's report, printed as it came",
			show: directory,
			events: goTestEvents("TestRace", "fail", "=== RUN   TestRace\n", "    a_test.go:3: before\n", "==================\n",
				"WARNING: DATA RACE\n", "Write at 0x00c000012345 by goroutine 8:\n", "  example.com/m.TestRace.func1()\n",
				"      /src/a_test.go:10 +0x44\n", "==================\n", "    testing.go:1617: race detected during execution of test\n",
				"--- FAIL: TestRace (0.00s)\n"),
			want: "==================\nWARNING: DATA RACE\nWrite at 0x00c000012345 by goroutine 8:\n  example.com/m.TestRace.func1()\n" +
				"      /src/a_test.go:10 +0x44\n==================\n" +
				"--- FAIL: TestRace (0.00s)\n    a_test.go:3: before\n    testing.go:1617: race detected during execution of test\n",
		},
		{
			name: "a print that only looks like go test's lines",
			show: directory,
			events: goTestEvents("TestLooks", "pass", "=== RUN   TestLooks\n", "=== summary ===\n", "--- PASS: TestOther\n",
				"--- PASS: TestLooks (0.00s)\n"),
			want: "=== summary ===\n--- PASS: TestOther\n",
		},
		{
			name:   "a failure without its --- line is reported with its log",
			show:   directory,
			events: goTestEvents("TestOdd", "fail", "=== RUN   TestOdd\n", "    a_test.go:3: odd\n"),
			want:   "    a_test.go:3: odd\n",
		},
		{
			name: "a package that did not end shows what it held",
			show: packages,
			events: goEvent("output", "", "TestMain starts\n") +
				goEvent("run", "TestHung", "") + goEvent("output", "TestHung", "    a_test.go:3: lost with the binary\n"),
			want: "TestMain starts\n",
		},
		{
			name:   "go test's last FAIL line, only with packages named",
			show:   directory,
			events: goEvent("output", "", "FAIL\texample.com/m [build failed]\n") + goEvent("fail", "", ""),
			want:   "FAIL\texample.com/m [build failed]\n",
		},
		{
			name:   "lines that are no events, as they are",
			show:   packages,
			events: "go: downloading example.com/dep v1.0.0\n{\"not an event\": true}\n",
			want:   "go: downloading example.com/dep v1.0.0\n{\"not an event\": true}\n",
		},
		{
			// go test -v, parallel: the === NAME line test2json leaves out comes back.
			name: "-v names the test whose log follows another's",
			show: census.GoShow{Verbose: true, Streams: true},
			events: goEvent("run", "TestA", "") + goEvent("run", "TestB", "") +
				goEvent("output", "TestA", "=== CONT  TestA\n") + goEvent("output", "TestB", "=== CONT  TestB\n") +
				goEvent("output", "TestA", "    a_test.go:3: from A\n") + goEvent("output", "TestA", "        and on\n") +
				goEvent("output", "TestB", "a print of B\n") + goEvent("output", "TestB", "    a_test.go:9: from B\n") +
				goEvent("output", "TestA", "--- PASS: TestA (0.00s)\n") + goEvent("output", "TestB", "    a_test.go:10: B again\n"),
			want: "=== CONT  TestA\n=== CONT  TestB\n=== NAME  TestA\n    a_test.go:3: from A\n        and on\n" +
				"a print of B\n=== NAME  TestB\n    a_test.go:9: from B\n--- PASS: TestA (0.00s)\n=== NAME  TestB\n    a_test.go:10: B again\n",
		},
		{
			name:   "GOFLAGS=-json: the events as they are",
			show:   census.GoShow{JSON: true, FinalFail: true},
			events: passes,
			want:   passes,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := renderGoEvents(tc.show, tc.events); got != tc.want {
				t.Errorf("shown\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// Beyond the tests it follows, a test's log is dropped as a passing test's, and its --- FAIL line
// still shows.
func TestGoEventsFollowABoundedNumberOfTests(t *testing.T) {
	var b strings.Builder
	for i := range maxTrackedTests + 2 {
		name := fmt.Sprintf("TestWaits/%d", i)
		b.WriteString(goEvent("run", name, ""))
		b.WriteString(goEvent("output", name, "=== PAUSE "+name+"\n"))
	}
	last := fmt.Sprintf("TestWaits/%d", maxTrackedTests+1)
	b.WriteString(goEvent("output", last, "    a_test.go:3: beyond\n"))
	b.WriteString(goEvent("output", last, "--- FAIL: "+last+" (0.00s)\n"))
	var shown bytes.Buffer
	f := newGoEventsFilter(&shown, io.Discard, census.GoShow{Streams: true})
	f.Write([]byte(b.String()))
	if f.tracked != maxTrackedTests {
		t.Errorf("%d tests followed", f.tracked)
	}
	f.Close()
	if want := "--- FAIL: " + last + " (0.00s)\n"; shown.String() != want {
		t.Errorf("shown %q, want %q", shown.String(), want)
	}
}

// A failing test's log is held until its --- FAIL line: the last 256 KiB of it, with a line
// saying how much went before, and never more than 4 MiB for all tests at once; what a test
// held is released when it ends.
func TestGoEventsHoldTheLastOfEachTestsLog(t *testing.T) {
	line := "    a_test.go:3: " + strings.Repeat("x", 1000) + "\n"
	var shown bytes.Buffer
	f := newGoEventsFilter(&shown, io.Discard, census.GoShow{Streams: true})
	// 20 tests log 1 MiB each at once, then each fails.
	const tests, each = 20, 1 << 20
	for i := range tests {
		f.Write([]byte(goEvent("run", fmt.Sprintf("TestBig%d", i), "")))
	}
	for written := 0; written < each; written += len(line) {
		for i := range tests {
			f.Write([]byte(goEvent("output", fmt.Sprintf("TestBig%d", i), line)))
		}
		if f.held > maxHeldInAll {
			t.Fatalf("%d bytes held", f.held)
		}
	}
	for i := range tests {
		name := fmt.Sprintf("TestBig%d", i)
		f.Write([]byte(goEvent("output", name, "--- FAIL: "+name+" (0.00s)\n") + goEvent("fail", name, "")))
	}
	if f.held != 0 {
		t.Errorf("%d bytes still held once every test ended", f.held)
	}
	f.Close()
	reports := strings.Split(shown.String(), "--- FAIL: ")[1:]
	if len(reports) != tests {
		t.Fatalf("%d reports", len(reports))
	}
	for i, r := range reports {
		head, body, _ := strings.Cut(r, "\n")
		marker, kept, _ := strings.Cut(body, "\n")
		if !strings.HasPrefix(marker, "    [gauntlet dropped ") || !strings.Contains(marker, "TestBig") || len(kept) > maxHeldPerUnit {
			t.Errorf("%s: %q, then %d bytes", head, marker, len(kept))
		}
		if strings.Count(kept, "\n") == 0 || strings.Trim(kept, "\n"+line) != "" {
			t.Errorf("report %d: what is kept are whole log lines: %q...", i, kept[:min(len(kept), 80)])
		}
	}
	// One test alone keeps its last 256 KiB: the drop is counted exactly.
	shown.Reset()
	f = newGoEventsFilter(&shown, io.Discard, census.GoShow{Streams: true})
	f.Write([]byte(goEvent("run", "TestOne", "")))
	n := 0
	for ; n*len(line) < 2*maxHeldPerUnit; n++ {
		f.Write([]byte(goEvent("output", "TestOne", line)))
	}
	f.Write([]byte(goEvent("output", "TestOne", "--- FAIL: TestOne (0.00s)\n")))
	kept := maxHeldPerUnit / len(line)
	want := fmt.Sprintf("--- FAIL: TestOne (0.00s)\n    [gauntlet dropped %d bytes of TestOne's output here: it keeps the last 256 KiB of each test until it ends]\n%s",
		(n-kept)*len(line), strings.Repeat(line, kept))
	if shown.String() != want {
		t.Errorf("shown %d bytes, want %d: %q", shown.Len(), len(want), shown.String()[:min(shown.Len(), 200)])
	}
}

// The go test a census asks for -json says how it prints without it: from its flags, the
// packages it names, and GOFLAGS, in the command or the gate's environment.
func TestGoShowOfTheGatesCommand(t *testing.T) {
	list := census.GoShow{FinalFail: true}
	tests := []struct {
		run  string
		env  []string
		want census.GoShow
	}{
		{run: "go test ./...", want: list},
		{run: "go test -race -count=1 ./internal/...", want: list},
		{run: "go test -run TestX -count 1", want: census.GoShow{Streams: true}},
		{run: "go test .", want: list},
		{run: "go test -v ./...", want: census.GoShow{Verbose: true, FinalFail: true}},
		{run: "go test -test.v=true ./...", want: census.GoShow{Verbose: true, FinalFail: true}},
		{run: "go test -v=false ./...", want: list},
		{run: "go test -list . ./...", want: census.GoShow{Verbose: true, FinalFail: true}},
		{run: "go test ./... -args -v", want: list},
		{run: "go test -bench . ./...", want: census.GoShow{Streams: true, FinalFail: true}},
		{run: "go test -fuzz FuzzX ./parse", want: census.GoShow{Streams: true}},
		{run: "GOFLAGS=-v go test ./...", want: census.GoShow{Verbose: true, FinalFail: true}},
		{run: "go test ./...", env: []string{"GOFLAGS=-v"}, want: census.GoShow{Verbose: true, FinalFail: true}},
		{run: "go test ./...", env: []string{"GOFLAGS=-json -count=1"}, want: census.GoShow{FinalFail: true, JSON: true}},
		{run: "go vet ./... && go test ./a/... && go test -v ./b", want: census.GoShow{Verbose: true, FinalFail: true}},
	}
	for _, tc := range tests {
		g := gates.Gate{Name: "unit", Kind: gates.KindCheck, Run: tc.run, Env: tc.env}
		stage := newCensusStage(context.Background(), t.TempDir(), nil, "r", []string{"GOFLAGS=-mod=mod"}, nil, []gates.Gate{g})
		gc := stage.gates["unit"]
		show, ok := gc.goShow(gc.plan.Requests)
		if !ok || show != tc.want {
			t.Errorf("%q %q: %+v %v, want %+v", tc.run, tc.env, show, ok, tc.want)
		}
	}
	// GOFLAGS=-json in the command: it already asks, and is read as it is.
	if p := PlanCensus(gates.Gate{Name: "unit", Kind: gates.KindCheck, Run: "GOFLAGS=-json go test ./..."}); len(p.Requests) != 1 || len(p.Requests[0].Args) != 0 {
		t.Errorf("GOFLAGS=-json: %+v", p.Requests)
	}
}

// originsWriter records, for each line written, the origin set last before it.
type originsWriter struct {
	origin string
	lines  []string
	part   string
}

func (w *originsWriter) SetOrigin(origin string) { w.origin = origin }

func (w *originsWriter) Write(p []byte) (int, error) {
	w.part += string(p)
	for {
		line, rest, ok := strings.Cut(w.part, "\n")
		if !ok {
			break
		}
		w.lines = append(w.lines, w.origin+" | "+line)
		w.part = rest
	}
	return len(p), nil
}

// goPkgEvent is goEvent of another package.
func goPkgEvent(pkg, action, test, output string) string {
	return strings.Replace(goEvent(action, test, output), `"Package":"example.com/m"`, `"Package":"`+pkg+`"`, 1)
}

// The filter says whose each line is: a package that passes ends (its ok line) between the
// lines of another's failing test and that package's FAIL line, as go test's parallel packages
// do, and each line still carries its own package, which the text's order would not tell.
func TestGoEventsSayTheirPackage(t *testing.T) {
	root, sub := "example.com/m", "example.com/m/sub"
	events := goEvent("run", "TestRoot", "") +
		goEvent("output", "TestRoot", "=== RUN   TestRoot\n") +
		goEvent("output", "TestRoot", "    calc_test.go:9: want 5, got 4\n") +
		goEvent("output", "TestRoot", "--- FAIL: TestRoot (0.00s)\n") +
		goEvent("fail", "TestRoot", "") +
		goPkgEvent(sub, "output", "", "ok  \texample.com/m/sub\t0.01s\n") + goPkgEvent(sub, "pass", "", "") +
		goEvent("output", "", "FAIL\n") +
		goEvent("output", "", "FAIL\texample.com/m\t0.02s\n") + goEvent("fail", "", "") +
		"not an event\n"
	w := &originsWriter{}
	f := newGoEventsFilter(w, io.Discard, census.GoShow{FinalFail: true})
	f.Write([]byte(events))
	f.Close()
	want := []string{
		root + " | --- FAIL: TestRoot (0.00s)",
		root + " |     calc_test.go:9: want 5, got 4",
		sub + " | ok  \texample.com/m/sub\t0.01s",
		root + " | FAIL",
		root + " | FAIL\texample.com/m\t0.02s",
		" | not an event",
		" | FAIL",
	}
	if !slices.Equal(w.lines, want) {
		t.Errorf("lines and their packages:\n%s\nwant:\n%s", strings.Join(w.lines, "\n"), strings.Join(want, "\n"))
	}
}
