package stophook

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// Reasons as real projects' failures made them, trimmed: what the agent must be able to act on.

// A long message is cut at a word, with an ellipsis: a word cut in two reads as another word.
func TestBlockReasonCutsFindingsAtAWord(t *testing.T) {
	msg := "AssertionError: assert 'Usage: cli [OPTIONS] COMMAND [ARGS]...\\n\\nOptions:\\n  --help  Show this message and exit.\\n' == " +
		strings.Repeat("'Usage: cli [OPTIONS] COMMAND [ARGS]...\\n\\n  A group with a long help text that wraps. ", 8)
	r := gates.Result{Name: "test", Status: gates.StatusFail, ExitCode: 1, Reason: "exit status 1",
		Findings: []gates.Finding{{File: "tests/test_basic.py", Line: 354, Severity: "error", Message: msg, Rule: "test_echo_via_pager"}}}
	got := BlockReason([]gates.Result{r}, 1, Attempt{}, nil)
	var line string
	for l := range strings.SplitSeq(got, "\n") {
		if strings.HasPrefix(l, "- tests/test_basic.py:354: error: ") {
			line = l
		}
	}
	if line == "" {
		t.Fatalf("no finding line in:\n%s", got)
	}
	shown, ok := strings.CutSuffix(line, "…")
	if !ok {
		t.Fatalf("a cut finding ends with an ellipsis: %q", line)
	}
	text := strings.TrimPrefix(shown, "- tests/test_basic.py:354: error: ")
	msg = strings.Join(strings.Fields(msg), " ") // as a finding line shows it
	if !strings.HasPrefix(msg, text) || msg[len(text)] != ' ' {
		t.Errorf("cut mid-word: %q (next: %q)", text[max(0, len(text)-20):], msg[len(text):min(len(msg), len(text)+10)])
	}
}

// pytest -v prints a line per passing test; they are not what the agent has to read.
func TestBlockReasonLeavesOutPassingTestLines(t *testing.T) {
	var all []string
	all = append(all, "============================= test session starts ==============================")
	for i := range 120 {
		all = append(all, fmt.Sprintf("tests/test_basic.py::test_option_%d PASSED                       [%3d%%]", i, i*100/140))
	}
	all = append(all, "tests/test_basic.py::test_echo_via_pager FAILED                          [ 86%]")
	for i := range 19 {
		all = append(all, fmt.Sprintf("tests/test_utils.py::test_echo_%d PASSED                       [%3d%%]", i, 87+i/2))
	}
	all = append(all,
		"",
		"=================================== FAILURES ===================================",
		"_____________________________ test_echo_via_pager ______________________________",
		"tests/test_basic.py:354: in test_echo_via_pager",
		"    assert out == expected",
		"E   AssertionError: assert 'hello\\n' == 'hello world\\n'",
		"=========================== short test summary info ============================",
		"FAILED tests/test_basic.py::test_echo_via_pager - AssertionError: assert 'hel...",
		"======================== 1 failed, 139 passed in 2.31s =========================",
	)
	match := 122 // the FAILED line, 1-based
	r := gates.Result{Name: "test", Status: gates.StatusFail, ExitCode: 1, Reason: "exit status 1",
		Tail: strings.Join(all[len(all)-80:], "\n") + "\n", Lines: len(all),
		Excerpt: &gates.Excerpt{Start: match - 8, Match: match, Lines: all[match-9 : match+40]}}
	got := BlockReason([]gates.Result{r}, 1, Attempt{}, nil)
	if n := strings.Count(got, " PASSED "); n > 0 {
		t.Errorf("%d passing-test lines in the reason:\n%s", n, got)
	}
	for _, want := range []string{"test_echo_via_pager FAILED", "E   AssertionError: assert 'hello\\n' == 'hello world\\n'", "passing tests left out"} {
		if !strings.Contains(got, want) {
			t.Errorf("reason lacks %q:\n%s", want, got)
		}
	}
}
