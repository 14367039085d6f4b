package gates

import (
	"testing"
	"time"
)

func TestClassifyNewOnly(t *testing.T) {
	plain := Gate{Name: "lint", Kind: KindCheck, Timeout: time.Minute, Severity: SeverityError, OnTimeout: StatusFail}
	newOnly := plain
	newOnly.NewOnly = true
	found := []Finding{{File: "a.go", Line: 3, Severity: "error", Message: "new"}}
	tests := []struct {
		name   string
		gate   Gate
		out    Outcome
		status Status
		reason string
	}{
		{"only pre-existing findings pass", newOnly, Outcome{ExitCode: 1, IgnoredFindings: 12}, StatusPass,
			"exit status 1, but only pre-existing findings; 12 pre-existing findings on lines the change did not touch ignored (new_only)"},
		{"one new finding fails", newOnly, Outcome{ExitCode: 1, Findings: found, IgnoredFindings: 1}, StatusFail,
			"exit status 1; 1 pre-existing finding on lines the change did not touch ignored (new_only)"},
		{"nothing attributable: the exit code wins", newOnly, Outcome{ExitCode: 2}, StatusFail, "exit status 2"},
		{"a pass says what it ignored", newOnly, Outcome{ExitCode: 0, IgnoredFindings: 2}, StatusPass,
			"exit status 0; 2 pre-existing findings on lines the change did not touch ignored (new_only)"},
		{"without new_only nothing is ignored", plain, Outcome{ExitCode: 1, IgnoredFindings: 3}, StatusFail, "exit status 1"},
		{"infrastructure stays an error", newOnly, Outcome{ExitCode: 127, IgnoredFindings: 3}, StatusError, "exit status 127: command not found"},
		{"a timeout is not excused", newOnly, Outcome{ExitCode: -1, TimedOut: true, IgnoredFindings: 3}, StatusFail, "timed out after 1m0s before reporting any result; a cold first build may need a longer timeout"},
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
