package findings

import (
	"regexp"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// Outputs of real projects, trimmed: what their findings must say.

// pytest --tb=short names the failing line as "file:line: in test"; -v adds a progress line per
// test. The finding is at that line, with the E lines, not the summary's cut message.
func TestPytestShortTracebackIsLocated(t *testing.T) {
	_, o := feed(t, mustParse(t, "pytest"), Options{},
		"tests/test_basic.py::test_basic_functionality PASSED                     [  1%]",
		"tests/test_basic.py::test_string_option[hello-hello] PASSED              [  2%]",
		"tests/test_basic.py::test_echo_via_pager FAILED                          [  3%]",
		"",
		"=================================== FAILURES ===================================",
		"_____________________________ test_echo_via_pager ______________________________",
		"tests/test_basic.py:354: in test_echo_via_pager",
		"    assert out == expected",
		"E   AssertionError: assert 'hello\\n' == 'hello world\\n'",
		"E     - hello world",
		"E     + hello",
		"=========================== short test summary info ============================",
		"FAILED tests/test_basic.py::test_echo_via_pager - AssertionErro...",
		"========================= 1 failed, 2 passed in 0.31s ==========================",
	)
	if len(o.Findings) != 1 {
		t.Fatalf("findings = %+v, want one", o.Findings)
	}
	f := o.Findings[0]
	if f.File != "tests/test_basic.py" || f.Line != 354 {
		t.Errorf("finding at %s:%d, want tests/test_basic.py:354", f.File, f.Line)
	}
	if !strings.HasPrefix(f.Message, "AssertionError: assert 'hello\\n' == 'hello world\\n'") || strings.Contains(f.Message, "...") {
		t.Errorf("message = %q, want the E lines", f.Message)
	}
}

// golangci-lint prints the compiler's package header as an issue of its own at line 1: it is
// not a finding, the errors under it are.
func TestGolangciPackageHeaderIsNoFinding(t *testing.T) {
	_, o := feed(t, mustParse(t, "golangci-lint"), Options{},
		"encoding.go:1: : # github.com/example/codec [github.com/example/codec.test]",
		"./encoding.go:14:2: undefined: decodeHeader (typecheck)",
		"1 issues:",
		"* typecheck: 1",
	)
	if len(o.Findings) != 1 {
		t.Fatalf("findings = %+v, want one", o.Findings)
	}
	if f := o.Findings[0]; f.File != "encoding.go" || f.Line != 14 || f.Message != "undefined: decodeHeader" || f.Rule != "typecheck" {
		t.Errorf("finding = %+v, want encoding.go:14 undefined: decodeHeader [typecheck]", f)
	}
}

// vitest's failures as a real run printed them: colour codes whose escape byte was lost on the
// way, and two workers' lines run together. Each finding holds one test's message, plain.
func TestVitestNoColourCodesNoSplicedMessages(t *testing.T) {
	_, o := feed(t, mustParse(t, "vitest"), Options{},
		"⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯",
		"",
		" FAIL  tests/tag-tree.test.ts > tag tree > keeps generated parents FAIL  tests/tag-tree.test.ts > tag tree > sorts regions",
		"[31mAssertionError: expected 'singapo[39mAssertionError: expected [ 'b', 'a' ] to deeply equal [ 'a', 'b' ]",
		"",
		"\\u001b[32m- Expected\\u001b[39m",
		" ❯ tests/tag-tree.test.ts:42:19",
		"",
		"⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/2]⎯",
		"",
		" FAIL  tests/geo.test.ts > geo > names the city",
		"\x1b[31mAssertionError: expected 'singapo' to be 'singapore'\x1b[39m",
		" ❯ tests/geo.test.ts:7:5",
	)
	sgr := regexp.MustCompile(`\[[0-9;]*m|u001b|\x1b`)
	var names []string
	for _, f := range o.Findings {
		names = append(names, f.Rule)
		if sgr.MatchString(f.Message) || sgr.MatchString(f.Rule) {
			t.Errorf("colour codes left in %+v", f)
		}
		if strings.Count(f.Message, "Error") > 1 || strings.Count(f.Message, "FAIL") > 0 {
			t.Errorf("two messages spliced into one finding: %q", f.Message)
		}
	}
	want := []string{"tag tree > keeps generated parents", "tag tree > sorts regions", "geo > names the city"}
	if strings.Join(names, "|") != strings.Join(want, "|") {
		t.Errorf("tests = %q, want %q", names, want)
	}
}

// ky's `npm test` runs xo, then tsc: the TypeScript error is a finding, an error, beside xo's
// warnings.
func TestGenericReadsTypeScriptErrors(t *testing.T) {
	_, o := feed(t, For(gates.Gate{Run: "npm test"}), Options{},
		"> ky@1.7.2 test",
		"> xo && npm run build && ava",
		"",
		"  source/core/Ky.ts:120:5",
		"  ⚠  120:5  Unexpected todo comment.  no-warning-comments",
		"",
		"  10 warnings",
		"> ky@1.7.2 build",
		"> del-cli distribution && tsc --project tsconfig.dist.json",
		"",
		"source/core/Ky.ts(213,4): error TS2322: Type 'string' is not assignable to type 'number'.",
		"npm error Lifecycle script `build` failed with error:",
		"npm error code 2",
	)
	var found bool
	for _, f := range o.Findings {
		if f.File == "source/core/Ky.ts" && f.Line == 213 && f.Column == 4 && f.Severity == SeverityError && f.Rule == "TS2322" {
			found = true
		}
	}
	if !found {
		t.Errorf("findings = %+v, want the TS2322 error at source/core/Ky.ts:213:4", o.Findings)
	}
}
