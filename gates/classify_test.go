package gates

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestClassify(t *testing.T) {
	check := Gate{Name: "t", Kind: KindCheck, Timeout: time.Minute, TimeoutFrom: TimeoutFromGate, Severity: SeverityError, OnTimeout: StatusFail}
	warnGate := check
	warnGate.Severity = SeverityWarn
	timeoutIsError := check
	timeoutIsError.OnTimeout = StatusError
	fromFlag := check
	fromFlag.Timeout, fromFlag.TimeoutFrom = 3*time.Second, TimeoutFromFlag
	fromBuiltin := check
	fromBuiltin.Timeout, fromBuiltin.TimeoutFrom = 10*time.Minute, TimeoutFromBuiltin
	warnTimeoutIsError := timeoutIsError
	warnTimeoutIsError.Severity = SeverityWarn
	customInfra := check
	customInfra.InfraExitCodes = []int{3}
	noInfra := check
	noInfra.InfraExitCodes = []int{}
	cause := &Cause{ID: "cargo-registry-unreachable", Summary: "cargo cannot reach its registry", Fix: "check the network"}
	const causeReason = "environment: cargo cannot reach its registry (fix: check the network)"
	review := timeoutIsError
	review.Kind = KindReview
	errLine := &Excerpt{Start: 1, Match: 1, Lines: []string{"--- FAIL: TestX"}}

	tests := []struct {
		name   string
		gate   Gate
		out    Outcome
		status Status
		reason string
	}{
		{"exit 0 passes", check, Outcome{ExitCode: 0}, StatusPass, "exit status 0"},
		{"exit 1 fails", check, Outcome{ExitCode: 1}, StatusFail, "exit status 1"},
		{"warn severity turns failure into warn", warnGate, Outcome{ExitCode: 2}, StatusWarn, "exit status 2"},
		{"127 is infrastructure", check, Outcome{ExitCode: 127}, StatusError, "exit status 127: command not found"},
		{"126 is infrastructure", check, Outcome{ExitCode: 126}, StatusError, "exit status 126: command not executable"},
		// A warn gate that cannot run only warns: it never makes the verdict an error, and the
		// reason says it could not run and why.
		{"127 on a warn gate warns that it could not run", warnGate, Outcome{ExitCode: 127}, StatusWarn, "could not run: exit status 127: command not found"},
		{"a warn gate that could not start warns", warnGate, Outcome{StartErr: errors.New("exec: \"nope\": executable file not found in $PATH"), ExitCode: -1}, StatusWarn, `could not run: could not start: exec: "nope": executable file not found in $PATH`},
		{"a warn gate's environment cause warns", warnGate, Outcome{ExitCode: 1, Cause: cause}, StatusWarn, "could not run: " + causeReason},
		{"a warn gate's on_timeout error warns", warnTimeoutIsError, Outcome{TimedOut: true, ExitCode: -1, Excerpt: errLine}, StatusWarn, "could not run: timed out after 1m (the limit from the gate's timeout:)"},
		{"a warn gate's internal error warns", warnGate, Outcome{Internal: errors.New("log: disk full"), ExitCode: 0}, StatusWarn, "could not run: gauntlet error: log: disk full"},
		{"a warn gate stopped by a cancel stays cancelled", warnGate, Outcome{Cancelled: true, ExitCode: 1}, StatusCancelled, "cancelled"},
		{"custom infra codes replace the defaults", customInfra, Outcome{ExitCode: 3}, StatusError, "exit status 3: listed in infra_exit_codes"},
		{"custom infra codes drop 127", customInfra, Outcome{ExitCode: 127}, StatusFail, "exit status 127"},
		{"empty infra codes list means none", noInfra, Outcome{ExitCode: 126}, StatusFail, "exit status 126"},
		{"infra pattern on failure", check, Outcome{ExitCode: 1, InfraMatch: "  dial tcp: connection refused "}, StatusError, "exit status 1: infrastructure problem: dial tcp: connection refused"},
		{"infra pattern never spoils a pass", check, Outcome{ExitCode: 0, InfraMatch: "connection refused"}, StatusPass, "exit status 0"},
		{"start error", check, Outcome{StartErr: errors.New(`exec: "nope": executable file not found in $PATH`), ExitCode: -1}, StatusError, `could not start: exec: "nope": executable file not found in $PATH`},
		{"timeout fails by default", check, Outcome{TimedOut: true, ExitCode: -1}, StatusFail, "timed out after 1m (the limit from the gate's timeout:); it printed nothing"},
		{"timeout on a warn gate warns", warnGate, Outcome{TimedOut: true, ExitCode: -1}, StatusWarn, "timed out after 1m (the limit from the gate's timeout:); it printed nothing"},
		{"on_timeout error", timeoutIsError, Outcome{TimedOut: true, ExitCode: -1}, StatusError, "timed out after 1m (the limit from the gate's timeout:); it printed nothing"},
		{"cancel outranks the exit code", check, Outcome{Cancelled: true, ExitCode: 1}, StatusCancelled, "cancelled"},
		{"internal error outranks everything", check, Outcome{Internal: errors.New("log: disk full"), ExitCode: 0}, StatusError, "gauntlet error: log: disk full"},
		{"killed by a signal", check, Outcome{ExitCode: -1}, StatusFail, "killed by a signal"},
		{"judged fail", check, Outcome{ExitCode: -1, Judged: &Judgement{Status: StatusFail, Reason: "2 findings"}}, StatusFail, "2 findings"},
		{"judged fail of a warn gate warns", warnGate, Outcome{ExitCode: 0, Judged: &Judgement{Status: StatusFail, Reason: "2 findings"}}, StatusWarn, "2 findings"},
		{"judged error on a warn gate warns", warnGate, Outcome{Judged: &Judgement{Status: StatusError, Reason: "no verdict"}}, StatusWarn, "could not run: no verdict"},
		{"judged error stays error on a required gate", check, Outcome{Judged: &Judgement{Status: StatusError, Reason: "no verdict"}}, StatusError, "no verdict"},
		{"judged pass despite a failing exit code", check, Outcome{ExitCode: 1, Judged: &Judgement{Status: StatusPass, Reason: "no findings"}}, StatusPass, "no findings"},
		{"judged fail is not an infra error by exit code", check, Outcome{ExitCode: 127, Judged: &Judgement{Status: StatusFail, Reason: "1 finding"}}, StatusFail, "1 finding"},
		{"judged fail ignores infra patterns", check, Outcome{InfraMatch: "quota exceeded", Judged: &Judgement{Status: StatusFail, Reason: "1 finding"}}, StatusFail, "1 finding"},
		{"timeout outranks a judgement", check, Outcome{TimedOut: true, ExitCode: -1, Judged: &Judgement{Status: StatusPass}}, StatusFail, "timed out after 1m (the limit from the gate's timeout:); it printed nothing"},
		{"timeout after an error line does not say no result", check, Outcome{TimedOut: true, ExitCode: -1, Excerpt: errLine}, StatusFail, "timed out after 1m (the limit from the gate's timeout:)"},
		{"timeout after a finding does not say no result", check, Outcome{TimedOut: true, ExitCode: -1, Findings: []Finding{{File: "a.go", Line: 1}}}, StatusFail, "timed out after 1m (the limit from the gate's timeout:)"},
		{"timeout names a cause but on_timeout decides", check, Outcome{TimedOut: true, ExitCode: -1, Excerpt: errLine, Cause: cause}, StatusFail, "timed out after 1m (the limit from the gate's timeout:); " + causeReason},
		{"timeout with a cause and on_timeout error", timeoutIsError, Outcome{TimedOut: true, ExitCode: -1, Excerpt: errLine, Cause: cause}, StatusError, "timed out after 1m (the limit from the gate's timeout:); " + causeReason},
		{"a review timing out says what it printed", review, Outcome{TimedOut: true, ExitCode: -1}, StatusError, "timed out after 1m (the limit from the gate's timeout:); it printed nothing"},
		{"a cause turns a failure into an error", check, Outcome{ExitCode: 101, Cause: cause}, StatusError, causeReason},
		{"a cause explains exit 127 better than the code", check, Outcome{ExitCode: 127, Cause: cause}, StatusError, causeReason},
		{"a cause never spoils a pass", check, Outcome{ExitCode: 0, Cause: cause}, StatusPass, "exit status 0"},
		{"a cause outranks an infra pattern", check, Outcome{ExitCode: 1, Cause: cause, InfraMatch: "x"}, StatusError, causeReason},
		{"a cause with a kill by signal", check, Outcome{ExitCode: -1, Cause: cause}, StatusError, causeReason},
		{"a cause does not override a judgement", check, Outcome{ExitCode: 1, Cause: cause, Judged: &Judgement{Status: StatusFail, Reason: "1 finding"}}, StatusFail, "1 finding"},
		{"a timeout quotes the last line it printed", check, Outcome{TimedOut: true, ExitCode: -1, LastLine: "=== RUN   TestSlow"}, StatusFail, `timed out after 1m (the limit from the gate's timeout:); its last line: "=== RUN   TestSlow"`},
		{"a timeout names --timeout", fromFlag, Outcome{TimedOut: true, ExitCode: -1}, StatusFail, "timed out after 3s (the limit from --timeout); it printed nothing"},
		{"a timeout names the built-in default", fromBuiltin, Outcome{TimedOut: true, ExitCode: -1}, StatusFail, "timed out after 10m (the built-in default; set timeout: in the config); it printed nothing"},
		{"cancel outranks a judgement", check, Outcome{Cancelled: true, Judged: &Judgement{Status: StatusFail}}, StatusCancelled, "cancelled"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, reason := Classify(tc.gate, tc.out)
			if status != tc.status || reason != tc.reason {
				t.Errorf("Classify = (%q, %q), want (%q, %q)", status, reason, tc.status, tc.reason)
			}
		})
	}
}

func TestVerdictOf(t *testing.T) {
	tests := []struct {
		statuses []Status
		want     Verdict
	}{
		{nil, VerdictPass},
		{[]Status{StatusPass, StatusSkipped}, VerdictPass},
		{[]Status{StatusSkipped}, VerdictPass},
		{[]Status{StatusPass, StatusWarn}, VerdictWarn},
		{[]Status{StatusWarn, StatusError}, VerdictError},
		{[]Status{StatusError, StatusFail}, VerdictFail},
		{[]Status{StatusFail, StatusError, StatusWarn, StatusPass}, VerdictFail},
		{[]Status{StatusFail, StatusCancelled}, VerdictFail},
		{[]Status{StatusPass, StatusCancelled}, VerdictError},
	}
	for _, tc := range tests {
		results := make([]Result, len(tc.statuses))
		for i, s := range tc.statuses {
			results[i] = Result{Status: s}
		}
		if got := VerdictOf(results); got != tc.want {
			t.Errorf("VerdictOf(%v) = %q, want %q", tc.statuses, got, tc.want)
		}
	}
}

func TestCommand(t *testing.T) {
	tests := []struct {
		gate Gate
		want string
	}{
		{Gate{Run: "go vet ./..."}, "go vet ./..."},
		{Gate{Argv: []string{"go", "test", "-race", "./..."}}, "go test -race ./..."},
		{Gate{Argv: []string{"echo", "it's here", ""}}, `echo 'it'\''s here' ''`},
	}
	for _, tc := range tests {
		if got := tc.gate.Command(); got != tc.want {
			t.Errorf("Command() = %q, want %q", got, tc.want)
		}
	}
}

func TestCaptureProblemNeverHidesAFailure(t *testing.T) {
	g := Gate{Name: "x", Severity: SeverityError, OnTimeout: StatusFail}
	enospc := errors.New("no space left on device")
	for _, tt := range []struct {
		o    Outcome
		want Status
	}{
		{Outcome{ExitCode: 1, CaptureErr: enospc}, StatusFail},
		{Outcome{ExitCode: 0, CaptureErr: enospc}, StatusError},
		{Outcome{ExitCode: 127, CaptureErr: enospc}, StatusError},
		{Outcome{ExitCode: -1, TimedOut: true, CaptureErr: enospc}, StatusFail},
	} {
		got, reason := Classify(g, tt.o)
		if got != tt.want || !strings.Contains(reason, "its log is incomplete: no space left on device") {
			t.Errorf("Classify(%+v) = %s, %q; want %s with the log problem named", tt.o, got, reason, tt.want)
		}
	}
}
