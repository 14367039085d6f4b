package census

import (
	"fmt"
	"strings"
	"testing"
)

// tc builds a test: "suite::name" or "name", then options.
func tc(id string, o Outcome, opts ...func(*Test)) Test {
	suite, name, ok := strings.Cut(id, "::")
	if !ok {
		suite, name = "", id
	}
	t := Test{ID: joinID(suite, name), Suite: suite, Name: name, Outcome: o}
	for _, opt := range opts {
		opt(&t)
	}
	return t
}

func in(file string) func(*Test)     { return func(t *Test) { t.File = file } }
func digest(d string) func(*Test)    { return func(t *Test) { t.Digest = d } }
func run(tests ...Test) Census       { return Census{Runner: "go", Tests: tests, Complete: true} }
func failed(c Census, u Unit) Census { c.Failed = append(c.Failed, u); return c }

const pkg = "example.com/shop/cart"

// The changes an honest agent makes: none of them may raise a finding.
func TestCompareHonestChangesStayQuiet(t *testing.T) {
	tests := []struct {
		name   string
		base   Census
		now    Census
		change ChangeInfo
	}{
		{
			name: "nothing changed",
			base: run(tc(pkg+"::TestTotal", Pass), tc(pkg+"::TestTotal/empty", Pass)),
			now:  run(tc(pkg+"::TestTotal", Pass), tc(pkg+"::TestTotal/empty", Pass)),
		},
		{
			name: "new tests",
			base: run(tc(pkg+"::TestTotal", Pass)),
			now:  run(tc(pkg+"::TestTotal", Pass), tc(pkg+"::TestTax", Pass), tc(pkg+"::TestTax/zero", Pass)),
		},
		{
			name:   "moved to another file of its package: a Go ID does not name the file",
			base:   run(tc(pkg+"::TestTotal", Pass, in("cart/cart_test.go"))),
			now:    run(tc(pkg+"::TestTotal", Pass, in("cart/total_test.go"))),
			change: ChangeInfo{ModifiedTests: []string{"cart/cart_test.go"}},
		},
		{
			name: "renamed with its body: the caller's digest recognises it",
			base: run(tc(pkg+"::TestSum", Pass, digest("d1")), tc(pkg+"::TestOther", Pass, digest("d2"))),
			now:  run(tc(pkg+"::TestTotalOfItems", Pass, digest("d1")), tc(pkg+"::TestOther", Pass, digest("d2"))),
		},
		{
			name: "moved to another module (pytest): the same name, now in another class path",
			base: run(tc("pytest > tests.test_calc::test_divides", Pass, in("tests/test_calc.py"))),
			now:  run(tc("pytest > tests.test_div::test_divides", Pass, in("tests/test_div.py"))),
		},
		{
			name: "test file renamed: the name found in the file it became, among others of that name",
			base: run(tc("pytest > tests.test_a::test_x", Pass, in("tests/test_a.py")), tc("pytest > tests.test_c::test_x", Pass, in("tests/test_c.py"))),
			now: run(tc("pytest > tests.test_b::test_x", Pass, in("tests/test_b.py")), tc("pytest > tests.test_c::test_x", Pass, in("tests/test_c.py")),
				tc("pytest > tests.test_d::test_x", Pass, in("tests/test_d.py"))),
			change: ChangeInfo{RenamedTests: map[string]string{"tests/test_a.py": "tests/test_b.py"}},
		},
		{
			name: "split in two, the old name a prefix of the new ones",
			base: run(tc(pkg+"::TestParse", Pass, in("parse_test.go"))),
			now:  run(tc(pkg+"::TestParseEmpty", Pass, in("parse_test.go")), tc(pkg+"::TestParseLong", Pass, in("parse_test.go"))),
		},
		{
			name: "table-driven rewrite keeping its cases",
			base: run(tc(pkg+"::TestParseEmpty", Pass), tc(pkg+"::TestParseLongInput", Pass)),
			now:  run(tc(pkg+"::TestParse", Pass), tc(pkg+"::TestParse/empty", Pass), tc(pkg+"::TestParse/long_input", Pass)),
		},
		{
			// spf13/cobra 60d056d: TestManPrintFlagsHidesShortDeperecated, a typo fixed.
			name: "renamed to fix a typo in its name: no body needed",
			base: run(tc(pkg+"::TestHidesShortDeperecated", Pass, in("doc/man_test.go")), tc(pkg+"::TestOther", Pass, in("doc/man_test.go"))),
			now:  run(tc(pkg+"::TestHidesShortDeprecated", Pass, in("doc/man_test.go")), tc(pkg+"::TestOther", Pass, in("doc/man_test.go"))),
		},
		{
			name: "subtests made separate tests again",
			base: run(tc(pkg+"::TestParse", Pass), tc(pkg+"::TestParse/empty", Pass), tc(pkg+"::TestParse/long", Pass)),
			now:  run(tc(pkg+"::TestParseEmpty", Pass), tc(pkg+"::TestParseLong", Pass)),
		},
		{
			name: "pytest parametrized cases replacing separate tests",
			base: run(tc("pytest > tests.test_calc::test_add_small", Pass), tc("pytest > tests.test_calc::test_add_large", Pass)),
			now:  run(tc("pytest > tests.test_calc::test_add[small]", Pass), tc("pytest > tests.test_calc::test_add[large]", Pass)),
		},
		{
			name: "describe block renamed: the tests keep their own names in the same file",
			base: run(tc("math.test.ts::add > adds two numbers", Pass, in("math.test.ts")), tc("math.test.ts::add > handles negatives", Pass, in("math.test.ts"))),
			now:  run(tc("math.test.ts::sum > adds two numbers", Pass, in("math.test.ts")), tc("math.test.ts::sum > handles negatives", Pass, in("math.test.ts"))),
		},
		{
			name: "subtests follow their parent's rename",
			base: run(tc(pkg+"::TestSum", Pass, digest("d1")), tc(pkg+"::TestSum/empty", Pass), tc(pkg+"::TestSum/one", Pass)),
			now:  run(tc(pkg+"::TestTotal", Pass, digest("d1")), tc(pkg+"::TestTotal/empty", Pass), tc(pkg+"::TestTotal/one", Pass)),
		},
		{
			name:   "test file deleted with the file it tests",
			base:   run(tc(pkg+"::TestTotal", Pass, in("cart/total_test.go")), tc(pkg+"::TestTax", Pass, in("cart/tax_test.go"))),
			now:    run(tc(pkg+"::TestTax", Pass, in("cart/tax_test.go"))),
			change: ChangeInfo{DeletedTests: []string{"cart/total_test.go"}, DeletedCode: []string{"cart/total.go"}},
		},
		{
			name: "a Go package deleted: its tests carry no file, the package path names the directory",
			base: run(tc(pkg+"::TestTotal", Pass), tc(pkg+"::TestTotal/empty", Pass), tc("example.com/shop/tax::TestRate", Pass)),
			now:  run(tc("example.com/shop/tax::TestRate", Pass)),
			change: ChangeInfo{DeletedTests: []string{"cart/cart_test.go", "cart/total_test.go"},
				DeletedCode: []string{"cart/cart.go"}, DeletedDirs: []string{"cart"}},
		},
		{
			name:   "a Rust module deleted: its unit tests are named by its module path",
			base:   run(tc("src/lib.rs::parser::tests::parses", Pass), tc("src/lib.rs::tests::adds", Pass)),
			now:    run(tc("src/lib.rs::tests::adds", Pass)),
			change: ChangeInfo{DeletedCode: []string{"src/parser.rs"}},
		},
		{
			name: "a jest test file deleted with its module",
			base: run(tc("src/lib.test.ts::lib > parses", Pass, in("src/lib.test.ts")), tc("src/app.test.ts::app > runs", Pass, in("src/app.test.ts"))),
			now:  run(tc("src/app.test.ts::app > runs", Pass, in("src/app.test.ts"))),
			change: ChangeInfo{DeletedTests: []string{"src/lib.test.ts"},
				DeletedCode: []string{"src/lib.ts"}},
		},
		{
			name: "a pytest file deleted with the module it tests, elsewhere in the tree",
			base: run(tc("pytest > tests.test_parser::test_parses", Pass, in("tests/test_parser.py"))),
			now:  run(tc("pytest > tests.test_other::test_other", Pass, in("tests/test_other.py"))),
			change: ChangeInfo{DeletedTests: []string{"tests/test_parser.py"},
				DeletedCode: []string{"src/shop/parser.py"}},
		},
		{
			name: "a test removed from its file with the function it tests",
			base: run(tc(pkg+"::TestParse", Pass, in("cart/parse_test.go")), tc(pkg+"::TestParseLegacy", Pass, in("cart/parse_test.go")),
				tc(pkg+"::TestParseLegacy/empty", Pass)),
			now:    run(tc(pkg+"::TestParse", Pass, in("cart/parse_test.go"))),
			change: ChangeInfo{ModifiedTests: []string{"cart/parse_test.go"}, RemovedNames: []string{"ParseLegacy"}},
		},
		{
			name: "a test that failed at the base is not owed",
			base: run(tc(pkg+"::TestBroken", Fail), tc(pkg+"::TestOK", Pass)),
			now:  run(tc(pkg+"::TestOK", Pass)),
		},
		{
			name: "a test skipped at the base is not owed",
			base: run(tc(pkg+"::TestSlow", Skip), tc(pkg+"::TestOK", Pass)),
			now:  run(tc(pkg+"::TestOK", Pass)),
		},
		{
			name: "no tests at the base nor now",
			base: run(),
			now:  run(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Compare(tt.base, tt.now, tt.change); len(got) != 0 {
				t.Errorf("an honest change raised findings:\n%s", show(got))
			}
		})
	}
}

// The changes that weaken the tests: each is named, test by test.
func TestCompareWeakeningIsNamed(t *testing.T) {
	base := run(tc(pkg+"::TestTotal", Pass, in("cart/lib_test.go")), tc(pkg+"::TestSub", Pass, in("cart/lib_test.go")),
		tc(pkg+"::TestTax", Pass, in("cart/tax_test.go")))
	tests := []struct {
		name   string
		base   Census
		now    Census
		change ChangeInfo
		want   []Finding // Kind, Test, Now and Message are compared
	}{
		{
			name:   "skipped with t.Skip",
			now:    run(tc(pkg+"::TestTotal", Pass), tc(pkg+"::TestSub", Skip), tc(pkg+"::TestTax", Pass)),
			change: ChangeInfo{ModifiedTests: []string{"cart/lib_test.go"}},
			want: []Finding{{Kind: KindSkipped, Test: pkg + "::TestSub", File: "cart/lib_test.go",
				Message: "TestSub passed at the base and is skipped here: cart/lib_test.go"}},
		},
		{
			name:   "its file excluded from the build (//go:build ignore)",
			now:    run(tc(pkg+"::TestTax", Pass)),
			change: ChangeInfo{ModifiedTests: []string{"cart/lib_test.go"}},
			want: []Finding{
				{Kind: KindMissing, Test: pkg + "::TestSub", File: "cart/lib_test.go", Message: "TestSub passed at the base and did not run here: cart/lib_test.go"},
				{Kind: KindMissing, Test: pkg + "::TestTotal", File: "cart/lib_test.go", Message: "TestTotal passed at the base and did not run here: cart/lib_test.go"},
			},
		},
		{
			name:   "its file moved where the runner does not look (_attic/)",
			now:    run(tc(pkg+"::TestTotal", Pass), tc(pkg+"::TestTax", Pass)),
			change: ChangeInfo{RenamedTests: map[string]string{"cart/lib_test.go": "_attic/lib_test.go"}},
			want: []Finding{{Kind: KindMissing, Test: pkg + "::TestSub", File: "cart/lib_test.go",
				Message: "TestSub passed at the base and did not run here: cart/lib_test.go (moved to _attic/lib_test.go)"}},
		},
		{
			name:   "its file deleted, the code it tests kept",
			now:    run(tc(pkg+"::TestTax", Pass)),
			change: ChangeInfo{DeletedTests: []string{"cart/lib_test.go"}, DeletedCode: []string{"cart/helpers.go", "other/lib.go"}},
			want: []Finding{
				{Kind: KindMissing, Test: pkg + "::TestSub", File: "cart/lib_test.go", Message: "TestSub passed at the base and did not run here: cart/lib_test.go (deleted)"},
				{Kind: KindMissing, Test: pkg + "::TestTotal", File: "cart/lib_test.go", Message: "TestTotal passed at the base and did not run here: cart/lib_test.go (deleted)"},
			},
		},
		{
			name:   "removed from its file though the code it tests remains",
			now:    run(tc(pkg+"::TestTotal", Pass), tc(pkg+"::TestTax", Pass)),
			change: ChangeInfo{ModifiedTests: []string{"cart/lib_test.go"}, RemovedNames: []string{"Total"}},
			want: []Finding{{Kind: KindMissing, Test: pkg + "::TestSub", File: "cart/lib_test.go",
				Message: "TestSub passed at the base and did not run here: cart/lib_test.go"}},
		},
		{
			name: "failing now",
			now:  run(tc(pkg+"::TestTotal", Pass), tc(pkg+"::TestSub", Fail), tc(pkg+"::TestTax", Pass)),
			want: []Finding{{Kind: KindFailing, Test: pkg + "::TestSub", File: "cart/lib_test.go",
				Message: "TestSub passed at the base and fails here: cart/lib_test.go"}},
		},
		{
			name: "its package no longer builds",
			now:  failed(run(tc("example.com/shop/tax::TestRate", Pass), tc(pkg+"::TestTax", Pass)), Unit{Suite: pkg, Reason: "build failed"}),
			base: run(tc(pkg+"::TestTotal", Pass, in("cart/lib_test.go")), tc(pkg+"::TestTax", Pass)),
			want: []Finding{{Kind: KindFailing, Test: pkg + "::TestTotal", File: "cart/lib_test.go",
				Message: "TestTotal passed at the base and did not run here: cart/lib_test.go (" + pkg + ": build failed)"}},
		},
		{
			name: "renamed with its body, and skipped",
			base: run(tc(pkg+"::TestSum", Pass, digest("d1"), in("cart/lib_test.go"))),
			now:  run(tc(pkg+"::TestTotal", Skip, digest("d1"), in("cart/lib_test.go"))),
			want: []Finding{{Kind: KindSkipped, Test: pkg + "::TestSum", Now: pkg + "::TestTotal", File: "cart/lib_test.go",
				Message: "TestSum passed at the base and is skipped here as TestTotal: cart/lib_test.go"}},
		},
		{
			name: "split, and one half skipped",
			base: run(tc(pkg+"::TestParse", Pass, in("parse_test.go"))),
			now:  run(tc(pkg+"::TestParseEmpty", Pass, in("parse_test.go")), tc(pkg+"::TestParseLong", Skip, in("parse_test.go"))),
			want: []Finding{{Kind: KindSkipped, Test: pkg + "::TestParse", Now: pkg + "::TestParseLong", File: "parse_test.go",
				Message: "TestParse passed at the base and is skipped here as TestParseLong: parse_test.go"}},
		},
		{
			name: "a test of a runner that names neither suite nor file (node's JUnit): named alone",
			base: run(tc("adds", Pass), tc("subtracts", Pass)),
			now:  run(tc("adds", Skip), tc("subtracts", Pass)),
			want: []Finding{{Kind: KindSkipped, Test: "adds", Message: "adds passed at the base and is skipped here"}},
		},
		{
			name: "a table that dropped a case",
			base: run(tc(pkg+"::TestParseEmpty", Pass, in("p_test.go")), tc(pkg+"::TestParseLong", Pass, in("p_test.go"))),
			now:  run(tc(pkg+"::TestParse", Pass, in("p_test.go")), tc(pkg+"::TestParse/empty", Pass, in("p_test.go"))),
			want: []Finding{{Kind: KindMissing, Test: pkg + "::TestParseLong", File: "p_test.go",
				Message: "TestParseLong passed at the base and did not run here: p_test.go"}},
		},
		{
			name: "a rename without its body is not recognised: the caller gave no digests",
			base: run(tc(pkg+"::TestSum", Pass, in("cart/lib_test.go"))),
			now:  run(tc(pkg+"::TestTotal", Pass, in("cart/lib_test.go"))),
			want: []Finding{{Kind: KindMissing, Test: pkg + "::TestSum", File: "cart/lib_test.go",
				Message: "TestSum passed at the base and did not run here: cart/lib_test.go"}},
		},
		{
			name: "a table case replaced by another one letter apart: a case's name is data, no typo",
			base: run(tc(pkg+"::TestParse", Pass, in("p_test.go")), tc(pkg+"::TestParse/case_1", Pass, in("p_test.go"))),
			now:  run(tc(pkg+"::TestParse", Pass, in("p_test.go")), tc(pkg+"::TestParse/case_2", Pass, in("p_test.go"))),
			want: []Finding{{Kind: KindMissing, Test: pkg + "::TestParse/case_1", File: "p_test.go",
				Message: "TestParse/case_1 passed at the base and did not run here: p_test.go"}},
		},
		{
			name: "renamed to fix a typo, and skipped",
			base: run(tc(pkg+"::TestHidesDeperecated", Pass, in("m_test.go"))),
			now:  run(tc(pkg+"::TestHidesDeprecated", Skip, in("m_test.go"))),
			want: []Finding{{Kind: KindSkipped, Test: pkg + "::TestHidesDeperecated", Now: pkg + "::TestHidesDeprecated", File: "m_test.go",
				Message: "TestHidesDeperecated passed at the base and is skipped here as TestHidesDeprecated: m_test.go"}},
		},
		{
			name: "three tests merged into the two of a split: the count falls",
			base: run(tc(pkg+"::TestP", Pass), tc(pkg+"::TestPa", Pass), tc(pkg+"::TestPab", Pass)),
			now:  run(tc(pkg+"::TestPab1", Pass), tc(pkg+"::TestPab2", Pass)),
			want: []Finding{{Kind: KindFewer, Message: "1 fewer test passes here than at the base (3 then, 2 now)"}},
		},
		{
			name: "the runner reported no tests at all",
			now:  run(),
			want: []Finding{{Kind: KindEmpty, Message: "the runner reported no tests; 3 passed at the base (TestSub, TestTax, TestTotal)"}},
		},
		{
			name: "no census could be read: said so",
			now:  Census{Runner: "go", Notes: []string{"no go test -json events in the output"}},
			want: []Finding{{Kind: KindEmpty, Message: "the runner reported no tests; 3 passed at the base (TestSub, TestTax, TestTotal)" +
				" (the census is incomplete: no go test -json events in the output)"}},
		},
		{
			name: "nothing built: one failure, not one per test",
			now:  failed(run(), Unit{Reason: "could not compile `calc` (lib test)"}),
			want: []Finding{{Kind: KindFailing, Message: "no test ran: could not compile `calc` (lib test); 3 passed at the base (TestSub, TestTax, TestTotal)"}},
		},
		{
			name: "the output was cut short: the missing tests are named and the cut said",
			now:  Census{Runner: "go", Tests: []Test{tc(pkg+"::TestTotal", Pass), tc(pkg+"::TestSub", Pass)}, Notes: []string{"the output ended inside a package"}},
			want: []Finding{{Kind: KindMissing, Test: pkg + "::TestTax", File: "cart/tax_test.go",
				Message: "TestTax passed at the base and did not run here: cart/tax_test.go (the census is incomplete: the output ended inside a package)"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.base
			if b.Tests == nil {
				b = base
			}
			got := Compare(b, tt.now, tt.change)
			if show(got) != show(tt.want) {
				t.Errorf("got\n%s\nwant\n%s", show(got), show(tt.want))
			}
		})
	}
}

func TestTypo(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"testmanprintflagshidesshortdeperecated", "testmanprintflagshidesshortdeprecated", true},
		{"testhidesdeprecated", "testhidesdeprecatde", true}, // two letters swapped: two edits
		{"testparsea", "testparseb", true},
		{"testparse", "testparse", false},
		{"testsum", "testtotal", false},
		{"testab", "testac", false},                       // under eight letters: no typo allowed
		{"testparsea", "testparseab", true},               // one inserted
		{"testparseabc", "testparse", false},              // three removed
		{"testparsexx", "testparseyy", false},             // two edits in eleven letters: one allowed
		{"abcdefghijklmnop", "abcdefghijklmnopqr", true},  // two at the end
		{"xxcdefghijklmnop", "abcdefghijklmnopqr", false}, // four
		{"testnoosargswhentesting", "testnoosargswhenrunning", false},
	} {
		if got := typo(tt.a, tt.b); got != tt.want {
			t.Errorf("typo(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := typo(tt.b, tt.a); got != tt.want {
			t.Errorf("typo(%q, %q) = %v, want %v", tt.b, tt.a, got, tt.want)
		}
	}
	// The banded distance agrees with the whole one on names of two letters.
	levenshtein := func(a, b string) int {
		d := make([][]int, len(a)+1)
		for i := range d {
			d[i] = make([]int, len(b)+1)
			d[i][0] = i
		}
		for j := range d[0] {
			d[0][j] = j
		}
		for i := 1; i <= len(a); i++ {
			for j := 1; j <= len(b); j++ {
				cost := 1
				if a[i-1] == b[j-1] {
					cost = 0
				}
				d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			}
		}
		return d[len(a)][len(b)]
	}
	name := func(n, bits int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = 'a' + byte(bits>>i&1)
		}
		return string(b)
	}
	for la := 8; la <= 17; la++ {
		for lb := la; lb <= la+3; lb++ {
			for k := 0; k < 300; k++ {
				a, b := name(la, k*7919), name(lb, k*104729+la)
				want := a != b && levenshtein(a, b) <= min(2, la/8)
				if got := typo(a, b); got != want {
					t.Fatalf("typo(%q, %q) = %v, the whole distance is %d", a, b, got, levenshtein(a, b))
				}
			}
		}
	}
}

func TestCompareNamesAreBounded(t *testing.T) {
	var base, now Census
	for i := range 1000 {
		base.Tests = append(base.Tests, tc(fmt.Sprintf("%s::TestN%04d", pkg, i), Pass))
	}
	now.Tests = []Test{tc(pkg+"::TestOther", Pass)}
	now.Complete = true
	got := Compare(base, now, ChangeInfo{})
	if len(got) != maxNamed+1 {
		t.Fatalf("got %d findings, want %d named and one for the rest", len(got), maxNamed)
	}
	if rest := got[maxNamed]; rest.Kind != KindMissing || rest.Test != "" || !strings.Contains(rest.Message, fmt.Sprint(1000-maxNamed)) {
		t.Errorf("the rest: %+v", rest)
	}
}

func TestFindingKinds(t *testing.T) {
	for k, want := range map[Kind]bool{KindFailing: false, KindSkipped: true, KindMissing: true, KindFewer: true, KindEmpty: true} {
		if got := (Finding{Kind: k}).Integrity(); got != want {
			t.Errorf("%s: Integrity() = %v", k, got)
		}
	}
}

func show(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "  %s %q now=%q file=%q: %s\n", f.Kind, f.Test, f.Now, f.File, f.Message)
	}
	return b.String()
}

// Real go test -json output of a base and of a change to it that the gate passes: TestSub
// skipped, other_test.go excluded by //go:build ignore, parse_test.go moved to _attic/ (which
// go test does not read); and two honest edits, a table-driven rewrite of TestFmtShort and
// TestFmtLong into TestFmt/short and TestFmt/long, and a new test.
func TestCompareRealGoChange(t *testing.T) {
	base := ReadGo(readSample(t, "go-compare-base.json"), Options{})
	now := ReadGo(readSample(t, "go-compare-now.json"), Options{})
	// Go names no file: the caller says where each base test is declared.
	files := map[string]string{"TestTotal": "cart/lib_test.go", "TestSub": "cart/lib_test.go", "TestOther": "cart/other_test.go",
		"TestParseX": "cart/parse_test.go", "TestFmtShort": "cart/fmt_test.go", "TestFmtLong": "cart/fmt_test.go"}
	for i := range base.Tests {
		base.Tests[i].File = files[base.Tests[i].Name]
	}
	got := Compare(base, now, ChangeInfo{
		ModifiedTests: []string{"cart/lib_test.go", "cart/other_test.go", "cart/fmt_test.go"},
		RenamedTests:  map[string]string{"cart/parse_test.go": "cart/_attic/parse_test.go"},
	})
	cart := "example.com/shop/cart::"
	want := []Finding{
		{Kind: KindMissing, Test: cart + "TestOther", File: "cart/other_test.go",
			Message: "TestOther passed at the base and did not run here: cart/other_test.go"},
		{Kind: KindMissing, Test: cart + "TestParseX", File: "cart/parse_test.go",
			Message: "TestParseX passed at the base and did not run here: cart/parse_test.go (moved to cart/_attic/parse_test.go)"},
		{Kind: KindSkipped, Test: cart + "TestSub", File: "cart/lib_test.go",
			Message: "TestSub passed at the base and is skipped here: cart/lib_test.go"},
	}
	if show(got) != show(want) {
		t.Errorf("got\n%s\nwant\n%s", show(got), show(want))
	}
}

// What the census cannot see, pinned so that a change to it is deliberate (docs/census.md).
func TestCompareHonestLimits(t *testing.T) {
	tests := []struct {
		name      string
		base, now Census
	}{
		{
			name: "a vacuous test still passes: coverage's to judge",
			base: run(tc(pkg+"::TestTotal", Pass, digest("checks-everything"))),
			now:  run(tc(pkg+"::TestTotal", Pass, digest("checks-nothing"))),
		},
		{
			name: "renamed and weakened at once: found by its name elsewhere, judged by its outcome",
			base: run(tc("pytest > tests.test_a::test_divides", Pass, digest("d1"))),
			now:  run(tc("pytest > tests.test_b::test_divides", Pass, digest("d2"))),
		},
		{
			name: "a split whose halves check less",
			base: run(tc(pkg+"::TestParse", Pass, digest("thorough"))),
			now:  run(tc(pkg+"::TestParseA", Pass, digest("trivial")), tc(pkg+"::TestParseB", Pass, digest("trivial"))),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Compare(tt.base, tt.now, ChangeInfo{}); len(got) != 0 {
				t.Errorf("the limit moved: %s", show(got))
			}
		})
	}
}
