package census

import (
	"fmt"
	"strings"
	"testing"
)

// goDigests reads Go test files, path then source, as the caller reads a change's test files.
func goDigests(files ...string) Digests {
	d := Digests{}
	for i := 0; i+1 < len(files); i += 2 {
		d.AddGo(files[i], []byte(files[i+1]))
	}
	return d
}

func jsDigests(files ...string) Digests {
	d := Digests{}
	for i := 0; i+1 < len(files); i += 2 {
		d.AddJS(files[i], []byte(files[i+1]))
	}
	return d
}

const goHeader = "package calc\n\nimport \"testing\"\n\n"

// The classes of honest rewrites seen replaying real history, each with the source the runner
// does not give: a rename by the body, a table's case by its fields, a describe renamed with its
// test, a split under another describe. Each must stay quiet.
func TestCompareFollowsHonestRewritesBySource(t *testing.T) {
	tests := []struct {
		name     string
		base     Census
		now      Census
		baseSrc  Digests
		nowSrc   Digests
		modified []string
	}{
		{
			name: "a Go test renamed with the same body (comments, layout and its own name aside)",
			base: run(tc(pkg+"::TestSub", Pass), tc(pkg+"::TestAdd", Pass)),
			now:  run(tc(pkg+"::TestSubtract", Pass), tc(pkg+"::TestAdd", Pass)),
			baseSrc: goDigests("cart/calc_test.go", goHeader+`func TestSub(t *testing.T) {
	if Sub(3, 1) != 2 { t.Fatal("TestSub: 3-1") }
}
func TestAdd(t *testing.T) { if Add(1, 1) != 2 { t.Fatal("add") } }
`),
			nowSrc: goDigests("cart/calc_test.go", goHeader+`// TestSubtract checks subtraction.
func TestSubtract(t *testing.T) {
	// the simplest case
	if Sub(3, 1) != 2 {
		t.Fatal("TestSubtract: 3-1")
	}
}
func TestAdd(t *testing.T) { if Add(1, 1) != 2 { t.Fatal("add") } }
`),
			modified: []string{"cart/calc_test.go"},
		},
		{
			name: "a Go test renamed and moved to another package's file",
			base: run(tc(pkg+"::TestSub", Pass)),
			now:  run(tc("example.com/shop/calc::TestSubtraction", Pass)),
			baseSrc: goDigests("cart/calc_test.go", goHeader+`func TestSub(t *testing.T) {
	if Sub(3, 1) != 2 { t.Fatal("3-1") }
}`),
			nowSrc: goDigests("calc/sub_test.go", goHeader+`func TestSubtraction(t *testing.T) {
	if Sub(3, 1) != 2 { t.Fatal("3-1") }
}`),
		},
		{
			name: "a table case's title reworded, its inputs and expectations kept",
			base: run(tc(pkg+"::TestEscape", Pass), tc(pkg+"::TestEscape/quotes_html", Pass), tc(pkg+"::TestEscape/plain", Pass)),
			now:  run(tc(pkg+"::TestEscape", Pass), tc(pkg+"::TestEscape/escapes_quotes_in_attributes", Pass), tc(pkg+"::TestEscape/plain", Pass)),
			baseSrc: goDigests("cart/esc_test.go", goHeader+`func TestEscape(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{name: "quotes html", in: "\"", want: "&quot;"},
		{name: "plain", in: "a", want: "a"},
	} {
		t.Run(c.name, func(t *testing.T) { if Escape(c.in) != c.want { t.Fatal(c.in) } })
	}
}`),
			nowSrc: goDigests("cart/esc_test.go", goHeader+`func TestEscape(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{name: "escapes quotes in attributes", in: "\"", want: "&quot;"},
		{name: "plain", in: "a", want: "a"},
	} {
		t.Run(c.name, func(t *testing.T) { if Escape(c.in) != c.want { t.Fatal(c.in) } })
	}
}`),
			modified: []string{"cart/esc_test.go"},
		},
		{
			name: "untitled table cases (#00, #01) given titles, their fields kept",
			base: run(tc(pkg+"::TestSum", Pass), tc(pkg+"::TestSum/#00", Pass), tc(pkg+"::TestSum/#01", Pass)),
			now:  run(tc(pkg+"::TestSum", Pass), tc(pkg+"::TestSum/empty", Pass), tc(pkg+"::TestSum/two_items", Pass)),
			baseSrc: goDigests("cart/sum_test.go", goHeader+`func TestSum(t *testing.T) {
	cases := []struct{ name string; in []int; want int }{
		{"", nil, 0},
		{"", []int{1, 2}, 3},
	}
	for _, c := range cases { t.Run(c.name, func(t *testing.T) { _ = c }) }
}`),
			nowSrc: goDigests("cart/sum_test.go", goHeader+`func TestSum(t *testing.T) {
	cases := []struct{ name string; in []int; want int }{
		{"empty", nil, 0},
		{"two items", []int{1, 2}, 3},
	}
	for _, c := range cases { t.Run(c.name, func(t *testing.T) { _ = c }) }
}`),
			modified: []string{"cart/sum_test.go"},
		},
		{
			name: "a describe and a test title renamed together, the body and its snapshot kept",
			base: run(tc("test/methods.test.ts::methods > normalizes the method", Pass, in("test/methods.test.ts"))),
			now:  run(tc("test/methods.test.ts::HTTP methods > upper-cases the method", Pass, in("test/methods.test.ts"))),
			baseSrc: jsDigests("test/methods.test.ts", `describe("methods", () => {
  it("normalizes the method", async () => {
    expect(normalize("get")).toMatchInlineSnapshot('"GET"');
  });
});`),
			nowSrc: jsDigests("test/methods.test.ts", `describe("HTTP methods", () => {
  // upper case is what servers expect
  it('upper-cases the method', async () => {
    expect(normalize("get")).toMatchInlineSnapshot('"GET"')
  })
})`),
			modified: []string{"test/methods.test.ts"},
		},
		{
			name: "a test split in two under a describe named after another import",
			base: run(tc("test/url.test.ts::withQuery > keeps the hash", Pass, in("test/url.test.ts"))),
			now: run(tc("test/url.test.ts::parseURL > keeps the hash of a path", Pass, in("test/url.test.ts")),
				tc("test/url.test.ts::parseURL > keeps the hash of a full URL", Pass, in("test/url.test.ts"))),
			modified: []string{"test/url.test.ts"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Compare(tt.base, tt.now, ChangeInfo{ModifiedTests: tt.modified, BaseDigests: tt.baseSrc, NowDigests: tt.nowSrc})
			if len(got) != 0 {
				t.Errorf("findings on an honest rewrite:\n%s", show(got))
			}
		})
	}
}

// The twins: a rename or a reworded case whose body or expectation changed too is not the same
// test, and is reported as before.
func TestCompareRewriteThatChangesTheBodyIsNamed(t *testing.T) {
	tests := []struct {
		name    string
		base    Census
		now     Census
		baseSrc Digests
		nowSrc  Digests
		want    string
	}{
		{
			name: "renamed with its check removed",
			base: run(tc(pkg+"::TestSub", Pass)),
			now:  run(tc(pkg+"::TestSubtract", Pass)),
			baseSrc: goDigests("cart/calc_test.go", goHeader+`func TestSub(t *testing.T) {
	if Sub(3, 1) != 2 { t.Fatal("3-1") }
}`),
			nowSrc: goDigests("cart/calc_test.go", goHeader+`func TestSubtract(t *testing.T) {
	_ = Sub(3, 1)
}`),
			want: "TestSub passed at the base and did not run here",
		},
		{
			name: "a case's title reworded and its expectation changed",
			base: run(tc(pkg+"::TestEscape", Pass), tc(pkg+"::TestEscape/quotes", Pass)),
			now:  run(tc(pkg+"::TestEscape", Pass), tc(pkg+"::TestEscape/quotes_kept", Pass)),
			baseSrc: goDigests("cart/esc_test.go", goHeader+`func TestEscape(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{{name: "quotes", in: "\"", want: "&quot;"}} { _ = c }
}`),
			nowSrc: goDigests("cart/esc_test.go", goHeader+`func TestEscape(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{{name: "quotes kept", in: "\"", want: "\""}} { _ = c }
}`),
			want: "TestEscape/quotes passed at the base and did not run here",
		},
		{
			name:    "a JS test retitled with an assertion removed",
			base:    run(tc("test/a.test.ts::a > adds", Pass, in("test/a.test.ts"))),
			now:     run(tc("test/a.test.ts::b > sums", Pass, in("test/a.test.ts"))),
			baseSrc: jsDigests("test/a.test.ts", `describe("a", () => { it("adds", () => { expect(add(1, 1)).toBe(2) }) })`),
			nowSrc:  jsDigests("test/a.test.ts", `describe("b", () => { it("sums", () => { add(1, 1) }) })`),
			want:    "a > adds passed at the base and did not run here",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := show(Compare(tt.base, tt.now, ChangeInfo{BaseDigests: tt.baseSrc, NowDigests: tt.nowSrc}))
			if !strings.Contains(got, tt.want) {
				t.Errorf("want %q in:\n%s", tt.want, got)
			}
		})
	}
}

// A title two tests of a file share has no digest: neither can be told from the other.
func TestDigestsOfSharedTitlesAreDropped(t *testing.T) {
	d := jsDigests("test/a.test.ts", `describe("x", () => { it("works", () => { a() }) })
describe("y", () => { it("works", () => { b() }) })
it('single', () => { c() })`)
	tt := tc("test/a.test.ts::x > works", Pass, in("test/a.test.ts"))
	if got := d.digestOf(&tt, nil); got != "" {
		t.Errorf("a shared title has digest %q", got)
	}
	single := tc("test/a.test.ts::single", Pass, in("test/a.test.ts"))
	if d.digestOf(&single, nil) == "" {
		t.Error("a title of its own has no digest")
	}
}

// A Go test is looked up in the directory its import path ends with, the root's otherwise.
func TestGoDigestsFindThePackageDirectory(t *testing.T) {
	d := goDigests("calc_test.go", goHeader+"func TestA(t *testing.T) { a() }",
		"sub/calc_test.go", goHeader+"func TestA(t *testing.T) { b() }")
	root := tc("example.com/m::TestA", Pass)
	sub := tc("example.com/m/sub::TestA", Pass)
	dirs := d.goDirs()
	if d.digestOf(&root, dirs) == "" || d.digestOf(&sub, dirs) == "" || d.digestOf(&root, dirs) == d.digestOf(&sub, dirs) {
		t.Errorf("root %q, sub %q", d.digestOf(&root, dirs), d.digestOf(&sub, dirs))
	}
}

// A subtest named from data outside its test (a map of shells in the code under test, "ps"
// renamed "pwsh"): its test is unchanged (its file untouched, or its digest the same), its
// parent runs as many subtests as before, one name gone and one new: the same case renamed.
func TestCompareFollowsCasesRenamedByTheirData(t *testing.T) {
	base := run(tc(pkg+"::TestCompletionShell", Pass), tc(pkg+"::TestCompletionShell/bash", Pass), tc(pkg+"::TestCompletionShell/ps", Pass))
	now := run(tc(pkg+"::TestCompletionShell", Pass), tc(pkg+"::TestCompletionShell/bash", Pass), tc(pkg+"::TestCompletionShell/pwsh", Pass))
	src := goHeader + "func TestCompletionShell(t *testing.T) {\n\tfor k := range shells { t.Run(k, func(t *testing.T) { check(t, k) }) }\n}\n"
	if got := Compare(base, now, ChangeInfo{Digested: true}); len(got) != 0 {
		t.Errorf("untouched test, a case renamed:\n%s", show(got))
	}
	same := ChangeInfo{Digested: true, BaseDigests: goDigests("cart/c_test.go", src), NowDigests: goDigests("cart/c_test.go", src+"\nfunc TestOther(t *testing.T) {}\n")}
	if got := Compare(base, now, same); len(got) != 0 {
		t.Errorf("test unchanged in an edited file, a case renamed:\n%s", show(got))
	}
	// The twins: the test itself changed, or a case gone without another in its place.
	changed := ChangeInfo{Digested: true, BaseDigests: goDigests("cart/c_test.go", src),
		NowDigests: goDigests("cart/c_test.go", strings.Replace(src, "check(t, k)", "_ = k", 1))}
	if got := show(Compare(base, now, changed)); !strings.Contains(got, "TestCompletionShell/ps passed at the base and did not run here") {
		t.Errorf("a case renamed in a test that changed is not named:\n%s", got)
	}
	fewer := run(tc(pkg+"::TestCompletionShell", Pass), tc(pkg+"::TestCompletionShell/bash", Pass))
	if got := show(Compare(base, fewer, ChangeInfo{Digested: true})); !strings.Contains(got, "TestCompletionShell/ps passed at the base and did not run here") {
		t.Errorf("a case dropped is not named:\n%s", got)
	}
}

// Calls that never close would each be read to the end of the file: the reading stops within a
// bound of the file's size, the tests before it keeping their digests.
func TestJSDigestsAreBoundedOnUnclosedCalls(t *testing.T) {
	var b strings.Builder
	b.WriteString("it('first', () => { a() })\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "it('x%d', (\n", i)
	}
	src := b.String()
	d := jsDigests("test/a.test.ts", src)
	first := tc("test/a.test.ts::first", Pass, in("test/a.test.ts"))
	if d.digestOf(&first, nil) == "" {
		t.Error("the test before the unclosed calls has no digest")
	}
	if len(d) > 100 {
		t.Errorf("%d digests read past the bound", len(d))
	}
}

// A title shortened or lengthened in place, its body changed with it (pathe: "delimiter should
// equal :" became "delimiter", its expectation made platform-aware): the one new test of its
// describe and file whose last name starts its own, or extends it, at a word's end.
func TestCompareFollowsATitleShortenedOrLengthened(t *testing.T) {
	f := in("test/index.spec.ts")
	base := run(tc("test/index.spec.ts::constants > delimiter should equal :", Pass, f), tc("test/index.spec.ts::constants > sep should equal /", Pass, f))
	now := run(tc("test/index.spec.ts::constants > delimiter", Pass, f), tc("test/index.spec.ts::constants > sep should equal /", Pass, f))
	if got := Compare(base, now, ChangeInfo{}); len(got) != 0 {
		t.Errorf("a title shortened:\n%s", show(got))
	}
	if got := Compare(now, base, ChangeInfo{}); len(got) != 0 {
		t.Errorf("a title lengthened:\n%s", show(got))
	}
	// The twins: not at a word's end, or two candidates.
	part := run(tc("test/index.spec.ts::constants > delim", Pass, f), tc("test/index.spec.ts::constants > sep should equal /", Pass, f))
	if got := show(Compare(base, part, ChangeInfo{})); !strings.Contains(got, "did not run here") {
		t.Errorf("a title cut within a word is followed:\n%s", got)
	}
	two := run(tc("test/index.spec.ts::constants > delimiter", Pass, f), tc("test/index.spec.ts::constants > delimiter should", Pass, f),
		tc("test/index.spec.ts::constants > sep should equal /", Pass, f))
	if got := show(Compare(base, two, ChangeInfo{})); !strings.Contains(got, "did not run here") {
		t.Errorf("two candidates, one picked:\n%s", got)
	}
}

// A Go test's file, which go test does not name, is known from the base's source: a test file
// deleted together with its code file of the same stem (context_test.go with context.go) takes
// its tests with it.
func TestCompareGoTestDeletedWithItsCodeByItsSource(t *testing.T) {
	base := run(tc(pkg+"::TestNativeContextMiddleware", Pass), tc(pkg+"::TestRoute", Pass))
	now := run(tc(pkg+"::TestRoute", Pass))
	src := goDigests("cart/context_test.go", goHeader+"func TestNativeContextMiddleware(t *testing.T) { check(t) }\n")
	change := ChangeInfo{DeletedTests: []string{"cart/context_test.go"}, DeletedCode: []string{"cart/context.go"}, BaseDigests: src}
	if got := Compare(base, now, change); len(got) != 0 {
		t.Errorf("a test deleted with its code:\n%s", show(got))
	}
	// The twin: its code stays.
	change.DeletedCode = nil
	if got := show(Compare(base, now, change)); !strings.Contains(got, "TestNativeContextMiddleware passed at the base and did not run here: cart/context_test.go (deleted)") {
		t.Errorf("a test deleted without its code is not named with its file:\n%s", got)
	}
}

// A table of one case folded into its test (mapstructure: the loop removed, the one case's
// check written in the test itself): the test, which runs now without subtests, is the case.
func TestCompareFollowsAOneCaseTableFoldedIntoItsTest(t *testing.T) {
	base := run(tc(pkg+"::TestDecode", Pass), tc(pkg+"::TestDecode/input_is_array", Pass))
	now := run(tc(pkg+"::TestDecode", Pass))
	if got := Compare(base, now, ChangeInfo{}); len(got) != 0 {
		t.Errorf("a one-case table folded:\n%s", show(got))
	}
	// The twins: a table of two cases emptied; the test failing now.
	two := run(tc(pkg+"::TestDecode", Pass), tc(pkg+"::TestDecode/a", Pass), tc(pkg+"::TestDecode/b", Pass))
	if got := show(Compare(two, now, ChangeInfo{})); !strings.Contains(got, "TestDecode/a passed at the base and did not run here") {
		t.Errorf("two cases gone are not named:\n%s", got)
	}
	failing := run(tc(pkg+"::TestDecode", Fail))
	if got := show(Compare(base, failing, ChangeInfo{})); !strings.Contains(got, "TestDecode/input_is_array passed at the base and fails here as TestDecode") {
		t.Errorf("a folded case that fails is not named:\n%s", got)
	}
}

// A describe block of one test made the test's title under a new describe (pathe:
// "normalizeAliases > should work" became "alias > normalizeAliases", its snapshot kept).
func TestCompareFollowsADescribeMadeTheTitle(t *testing.T) {
	f := in("test/utils.spec.ts")
	base := run(tc("test/utils.spec.ts::normalizeAliases > should work", Pass, f), tc("test/utils.spec.ts::filename > works", Pass, f))
	now := run(tc("test/utils.spec.ts::alias > normalizeAliases", Pass, f), tc("test/utils.spec.ts::alias > resolveAlias > @", Pass, f),
		tc("test/utils.spec.ts::filename > works", Pass, f))
	if got := Compare(base, now, ChangeInfo{}); len(got) != 0 {
		t.Errorf("a describe made the title:\n%s", show(got))
	}
	// The twin: the describe held two tests; both cannot become one.
	two := run(tc("test/utils.spec.ts::normalizeAliases > should work", Pass, f), tc("test/utils.spec.ts::normalizeAliases > keeps others", Pass, f))
	if got := show(Compare(two, now, ChangeInfo{})); !strings.Contains(got, "did not run here") {
		t.Errorf("a describe of two tests made one title:\n%s", got)
	}
}
