package stophook

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// With new_only, the reason shows the new findings and the output lines that belong to them,
// not the raw output full of errors that were there before the change.
func TestBlockReasonNewOnlyShowsOnlyNewFindings(t *testing.T) {
	var tail strings.Builder
	for i := range 200 {
		tail.WriteString("old.go:" + itoa(i+1) + ":1: pre-existing problem number " + itoa(i) + "\n")
	}
	tail.WriteString("new.go:7:2: undefined: frobnicate\n\tnew.go:7 is where the call is\n")
	r := gates.Result{Name: "lint", Status: gates.StatusFail, ExitCode: 1, Log: ".gauntlet/logs/x/lint.log",
		Reason:   "exit status 1; 200 pre-existing findings on lines the change did not touch ignored " + gates.NewOnlyMark,
		Tail:     tail.String(),
		Lines:    202,
		Findings: []gates.Finding{{File: "new.go", Line: 7, Column: 2, Severity: "error", Message: "undefined: frobnicate"}},
	}
	got := BlockReason([]gates.Result{r}, 1, Attempt{N: 1, Max: 3}, nil)
	if strings.Contains(got, "pre-existing problem") {
		t.Errorf("the reason carries pre-existing output:\n%s", got)
	}
	for _, want := range []string{"new.go:7:2: error: undefined: frobnicate", "new.go:7 is where the call is", "200 pre-existing findings"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q:\n%s", want, got)
		}
	}
}

// Tests sharing an assertion line are listed one by one.
func TestBlockReasonOneLinePerFailingTest(t *testing.T) {
	var fs []gates.Finding
	for _, name := range []string{"TestA", "TestB", "TestC", "TestD"} {
		fs = append(fs, gates.Finding{File: "util_test.go", Line: 12, Severity: "error", Message: "got 1, want 2", Rule: name})
	}
	r := gates.Result{Name: "test", Status: gates.StatusFail, ExitCode: 1, Findings: fs}
	got := BlockReason([]gates.Result{r}, 1, Attempt{N: 1, Max: 3}, nil)
	_, detail, _ := strings.Cut(got, "## test")
	if !strings.Contains(detail, "findings (4):") || strings.Count(detail, "util_test.go:12") != 4 || strings.Count(got, "- test: Test") != 4 {
		t.Errorf("want four findings:\n%s", got)
	}
}

// Gates in error beside a failure are named with their cause, each cause once; and the reason
// ends by saying what to do next.
func TestBlockReasonNamesErrorGatesOncePerCause(t *testing.T) {
	uv := &gates.Cause{ID: "tool-missing", Summary: "uv is not installed", Fix: "install uv"}
	results := []gates.Result{
		{Name: "test", Status: gates.StatusFail, ExitCode: 1, Tail: "FAIL\n"},
		{Name: "lint", Status: gates.StatusError, ExitCode: 127, Cause: uv, Reason: gates.CauseReason(*uv)},
		{Name: "types", Status: gates.StatusError, ExitCode: 127, Cause: uv, Reason: gates.CauseReason(*uv)},
		{Name: "docs", Status: gates.StatusError, ExitCode: 2, Reason: "exit status 2: infrastructure problem: disk full"},
	}
	got := BlockReason(results, 4, Attempt{N: 1, Max: 3}, nil)
	if strings.Count(got, "uv is not installed") != 1 {
		t.Errorf("the cause is not named exactly once:\n%s", got)
	}
	for _, want := range []string{"lint, types", "docs", "disk full", "not the agent's to fix"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "not run") {
		t.Errorf("gates that ran are called not run:\n%s", got)
	}
	lines := strings.Split(got, "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "Next: ") || !strings.Contains(last, "gauntlet run test") {
		t.Errorf("last line %q does not say what to do next", last)
	}
}

func TestErrorNoticeNamesEachCauseOnce(t *testing.T) {
	uv := &gates.Cause{ID: "tool-missing", Summary: "uv is not installed", Fix: "install uv"}
	var results []gates.Result
	for _, n := range []string{"a", "b", "c", "d", "e", "f"} {
		results = append(results, gates.Result{Name: n, Status: gates.StatusError, Cause: uv, Reason: gates.CauseReason(*uv)})
	}
	got := errorNotice(results)
	if strings.Count(got, "uv is not installed") != 1 || !strings.Contains(got, "a, b, c, d, e, f (environment: uv is not installed") {
		t.Errorf("notice: %s", got)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// withoutNext drops the closing "Next: ..." line, for tests about what comes before it.
func withoutNext(reason string) string {
	if i := strings.LastIndex(reason, "\n\nNext: "); i >= 0 {
		return reason[:i]
	}
	return reason
}
