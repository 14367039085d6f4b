package stophook

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/findings"
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

// ky's `npm test`: ten xo warnings (each also in the file:line form a unix reporter prints), npm's
// lines, and the TypeScript error last. The reason leads with the error, in a findings section.
func TestBlockReasonLeadsWithTheTypeScriptError(t *testing.T) {
	out := []string{"> ky@1.7.2 test", "> xo && npm run build && ava", ""}
	for i := range 10 {
		out = append(out, fmt.Sprintf("  source/core/Ky.ts:%d:5", 100+i), fmt.Sprintf("  ⚠  %d:5  Unexpected todo comment.  no-warning-comments", 100+i))
		out = append(out, fmt.Sprintf("source/core/Ky.ts:%d:5: warning: Unexpected todo comment. [no-warning-comments]", 100+i))
	}
	out = append(out, "  10 warnings", "", "> ky@1.7.2 build", "> del-cli distribution && tsc --project tsconfig.dist.json", "",
		"source/core/Ky.ts(213,4): error TS2322: Type 'string' is not assignable to type 'number'.",
		"npm error Lifecycle script `build` failed with error:", "npm error code 2")
	g := gates.Gate{Name: "test", Run: "npm test"}
	r := findings.NewReader(findings.For(g), findings.Options{})
	for _, l := range out {
		r.Line([]byte(l))
	}
	var o gates.Outcome
	r.Finish(&o)
	res := gates.Result{Name: "test", Status: gates.StatusFail, ExitCode: 1, Reason: "exit status 1", Findings: o.Findings,
		Tail: strings.Join(out, "\n") + "\n", Lines: len(out)}
	got := BlockReason([]gates.Result{res}, 1, Attempt{}, nil)
	_, after, ok := strings.Cut(got, "findings (")
	if !ok {
		t.Fatalf("no findings section:\n%s", got)
	}
	_, first, _ := strings.Cut(after, "\n")
	if !strings.HasPrefix(first, "- source/core/Ky.ts:213:4: error: Type 'string' is not assignable to type 'number'. [TS2322]") {
		t.Errorf("first finding = %q, want the TS2322 error:\n%s", first, got)
	}
}

// `gauntlet fix NAME` is offered only for what the fixer rewrites (formatting), and beside the
// gate's hint, never in its place: a type error, ineffassign or a timeout is not the fixer's.
func TestBlockReasonOffersTheFixerOnlyForWhatItMends(t *testing.T) {
	lint := gates.Result{Name: "lint", Status: gates.StatusFail, ExitCode: 1, Reason: "exit status 1",
		Command: "golangci-lint run ./...", Fix: "golangci-lint run --fix ./...", Hint: "Read each finding; golangci-lint --fix mends only formatting.",
		Findings: []gates.Finding{
			{File: "encoding.go", Line: 14, Column: 2, Severity: "error", Message: "ineffectual assignment to err", Rule: "ineffassign"},
			{File: "encoding.go", Line: 20, Column: 1, Severity: "error", Message: "File is not properly formatted", Rule: "gofmt"},
		}}
	types := gates.Result{Name: "types", Status: gates.StatusFail, ExitCode: 2, Reason: "exit status 2",
		Command: "npx tsc --noEmit", Fix: "npx eslint --fix .", Hint: "Fix the types where they are declared.",
		Findings: []gates.Finding{{File: "source/core/Ky.ts", Line: 213, Column: 4, Severity: "error", Message: "Type 'string' is not assignable to type 'number'.", Rule: "TS2322"}}}
	slow := gates.Result{Name: "fmt", Status: gates.StatusFail, ExitCode: -1, TimedOut: true, Reason: "timed out after 1m0s",
		Command: "gofmt -l .", Fix: "gofmt -w .", Hint: "Format with gofmt."}
	fmtGate := gates.Result{Name: "web-fmt", Status: gates.StatusFail, ExitCode: 1, Reason: "exit status 1",
		Command: "npx prettier --check .", Fix: "npx prettier --write .", Hint: "Keep the project's quoting."}
	gofmt := gates.Result{Name: "gofmt", Status: gates.StatusFail, ExitCode: 1, Reason: "exit status 1",
		Command: "test -z \"$(gofmt -l .)\"", Fix: "gofmt -w .", Hint: "Format with gofmt.",
		Findings: []gates.Finding{{File: "encoding.go", Severity: "error", Message: "not formatted", Rule: "format"}}}
	for _, tt := range []struct {
		r     gates.Result
		offer bool
	}{{lint, false}, {types, false}, {slow, false}, {fmtGate, true}, {gofmt, true}} {
		got := BlockReason([]gates.Result{tt.r}, 1, Attempt{}, nil)
		if offered := strings.Contains(got, "gauntlet fix "+tt.r.Name); offered != tt.offer {
			t.Errorf("%s: fixer offered = %v, want %v:\n%s", tt.r.Name, offered, tt.offer, got)
		}
		if !strings.Contains(got, "hint: "+tt.r.Hint) {
			t.Errorf("%s: the hint is gone:\n%s", tt.r.Name, got)
		}
	}
}

// 97 findings of one rule and message fill no reason: they are one line with their count and
// the first places.
func TestBlockReasonGroupsRepeatedFindings(t *testing.T) {
	var fs []gates.Finding
	for i := range 97 {
		fs = append(fs, gates.Finding{File: fmt.Sprintf("src/click/mod%d.py", i%7), Line: 10 + i, Severity: "error",
			Message: "Missing function or method docstring", Rule: "C0116"})
	}
	fs = append(fs, gates.Finding{File: "src/click/core.py", Line: 7, Severity: "error", Message: "Unused import os", Rule: "W0611"})
	r := gates.Result{Name: "lint", Status: gates.StatusFail, ExitCode: 16, Reason: "exit status 16", Findings: fs}
	got := BlockReason([]gates.Result{r}, 1, Attempt{}, nil)
	// Once in the list of failures (by rule, with its count), once in the gate's findings.
	if n := strings.Count(got, "Missing function or method docstring"); n != 2 || !strings.Contains(got, "- lint: C0116 (97 findings) src/click/mod0.py:10: Missing") {
		t.Errorf("the repeated finding shows %d times, want once in the list and once in the detail:\n%s", n, got)
	}
	for _, want := range []string{"findings (98):", "- src/click/mod0.py:10: error: Missing function or method docstring [C0116] (97 times; also src/click/mod1.py:11, src/click/mod2.py:12",
		"- src/click/core.py:7: error: Unused import os [W0611]"} {
		if !strings.Contains(got, want) {
			t.Errorf("reason lacks %q:\n%s", want, got)
		}
	}
}

// Whatever is added to the reason (the fixers' note, the gates not judged, the hook's notes),
// its cap cuts the findings and output, never the first lines or the closing Next: line.
func TestBlockReasonKeepsNextUnderTheCap(t *testing.T) {
	var fs []gates.Finding
	for i := range 97 {
		fs = append(fs, gates.Finding{File: fmt.Sprintf("src/m%d.ts", i), Line: i + 1, Severity: "warning",
			Message: fmt.Sprintf("Unexpected any. Specify a different type (near %s).", strings.Repeat("x", i%40)), Rule: fmt.Sprintf("r%d", i)})
	}
	r := gates.Result{Name: "lint", Status: gates.StatusFail, ExitCode: 1, Reason: "exit status 1", Findings: fs,
		Tail: strings.Repeat("some output line that goes on for a while\n", 200), Lines: 200}
	var stopped []gates.Result
	for i := range 40 {
		stopped = append(stopped, gates.Result{Name: fmt.Sprintf("slow-gate-with-a-long-name-%d", i), Status: gates.StatusCancelled})
	}
	reason := withNotJudged(BlockReason([]gates.Result{r}, 41, Attempt{N: 1, Max: 3}, nil), stopped)
	reason = withOverrides(reason, []string{strings.Repeat("gates.lint.run changed ", 60)}, "honour")
	reason = withNotes(reason, []string{"note: " + strings.Repeat("n", 300)})
	if len(reason) > MaxReasonBytes {
		t.Errorf("reason is %d bytes", len(reason))
	}
	if !strings.HasPrefix(reason, "gauntlet: 1 of 41 gates failed (attempt 1 of 3).") || !strings.Contains(reason, "\nnot judged: slow-gate") {
		t.Errorf("first lines lost:\n%s", reason[:min(len(reason), 600)])
	}
	if !strings.Contains(reason, "\nNext: fix the findings above, check with `gauntlet run lint`, then stop again.") {
		t.Errorf("Next: line cut:\n%s", reason[max(0, len(reason)-800):])
	}
}

// The gates first_failure stopped are named, and whether each was stopped while it ran or never
// started: a test gate stopped mid-run is a failure still to be seen.
func TestNotJudgedSaysHowEachGateWasStopped(t *testing.T) {
	reason := "gauntlet: 1 of 4 gates failed. Fix it, then stop again.\n\n## spell: exit code 65\n\nNext: fix it."
	stopped := []gates.Result{
		{Name: "typecheck", Status: gates.StatusCancelled, Started: time.Unix(1, 0)},
		{Name: "docs", Status: gates.StatusCancelled},
	}
	got := withNotJudged(reason, stopped)
	want := "not judged: typecheck (stopped while running), docs (not started): stopped after the first failure, they run at the next stop"
	if _, rest, _ := strings.Cut(got, "\n"); !strings.HasPrefix(rest, want+"\n") {
		t.Errorf("second line = %q, want %q", strings.SplitN(got, "\n", 3)[1], want)
	}
}
