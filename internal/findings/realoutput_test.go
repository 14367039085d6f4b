package findings

import (
	"strings"
	"testing"
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
