package gates

import (
	"testing"
	"time"
)

func TestClassifyNewOnly(t *testing.T) {
	plain := Gate{Name: "lint", Kind: KindCheck, Timeout: time.Minute, Severity: SeverityError, OnTimeout: StatusFail}
	newOnly := plain
	newOnly.NewOnly = true
	const base = "the merge-base 0123"
	found := []Finding{{File: "a.go", Line: 3, Severity: "error", Message: "new"}}
	tests := []struct {
		name   string
		gate   Gate
		out    Outcome
		status Status
		reason string
	}{
		{"only pre-existing findings pass", newOnly, Outcome{ExitCode: 1, IgnoredFindings: 12, NewOnlyBase: base}, StatusPass,
			"exit status 1, but only pre-existing findings; 12 pre-existing findings (also at the merge-base 0123) ignored (new_only)"},
		{"one new finding fails", newOnly, Outcome{ExitCode: 1, Findings: found, IgnoredFindings: 1, NewOnlyBase: base}, StatusFail,
			"exit status 1; 1 pre-existing finding (also at the merge-base 0123) ignored (new_only)"},
		{"the base could not be compared", newOnly, Outcome{ExitCode: 1, Findings: found, NewOnlyNote: "the gate passes at the merge-base 0123: every finding counts"}, StatusFail,
			"exit status 1; the gate passes at the merge-base 0123: every finding counts"},
		{"nothing attributable: the exit code wins", newOnly, Outcome{ExitCode: 2}, StatusFail, "exit status 2"},
		{"a pass says what it ignored", newOnly, Outcome{ExitCode: 0, IgnoredFindings: 2, NewOnlyBase: base}, StatusPass,
			"exit status 0; 2 pre-existing findings (also at the merge-base 0123) ignored (new_only)"},
		{"without new_only nothing is ignored", plain, Outcome{ExitCode: 1, IgnoredFindings: 3}, StatusFail, "exit status 1"},
		{"infrastructure stays an error", newOnly, Outcome{ExitCode: 127, IgnoredFindings: 3}, StatusError, "exit status 127: command not found"},
		{"a timeout is not excused", newOnly, Outcome{ExitCode: -1, TimedOut: true, IgnoredFindings: 3}, StatusFail, "timed out after 1m; it printed nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, reason := Classify(tt.gate, tt.out)
			if status != tt.status || reason != tt.reason {
				t.Errorf("Classify = %s %q, want %s %q", status, reason, tt.status, tt.reason)
			}
		})
	}
}

// new_only compares with the base only outcomes Classify judges by their exit code.
func TestJudgedByExitCode(t *testing.T) {
	g := Gate{Name: "lint", Kind: KindCheck}
	for _, tt := range []struct {
		o    Outcome
		want bool
	}{
		{Outcome{ExitCode: 1}, true},
		{Outcome{ExitCode: 0}, false},
		{Outcome{ExitCode: -1}, false},
		{Outcome{ExitCode: 127}, false},
		{Outcome{ExitCode: 1, TimedOut: true}, false},
		{Outcome{ExitCode: 1, Cancelled: true}, false},
		{Outcome{ExitCode: 1, Cause: &Cause{ID: "disk-full"}}, false},
		{Outcome{ExitCode: 1, InfraMatch: "quota"}, false},
		{Outcome{ExitCode: 1, Judged: &Judgement{Status: StatusFail}}, false},
	} {
		if got := JudgedByExitCode(g, tt.o); got != tt.want {
			t.Errorf("%+v: %v, want %v", tt.o, got, tt.want)
		}
	}
}
