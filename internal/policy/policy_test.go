package policy

import (
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
)

func TestDecide(t *testing.T) {
	failed := []gates.Result{{Name: "test", Status: gates.StatusFail}}
	blockingFinding := []gates.IntegrityFinding{{Rule: "test-removed", Level: gates.IntegrityBlock}}
	warningFinding := []gates.IntegrityFinding{{Rule: "suppression-added", Level: gates.IntegrityWarn}}
	unverifiedLock := &Decision{Action: Notify, Why: WhyLock}
	unverifiedInfra := &Decision{Action: Notify, Why: WhyInfra}
	early := &Signal{After: 3 * time.Second, HostTimeout: 10 * time.Minute}
	atTimeout := &Signal{After: 10*time.Minute - 500*time.Millisecond, HostTimeout: 10 * time.Minute}

	cases := []struct {
		name string
		ev   Evidence
		want Decision
		// notice is a part the decision's notice must hold, when the policy words it.
		notice string
	}{
		{name: "guard", ev: Evidence{Guard: "plan mode", Verdict: gates.VerdictFail},
			want: Decision{Action: Allow, Why: WhyGuard, Guard: "plan mode"}},
		{name: "config error", ev: Evidence{Unjudged: &Unjudged{What: "config error: bad key"}},
			want: Decision{Action: Notify, Why: WhyInfra}, notice: "gates not run: config error: bad key; stop allowed"},
		{name: "state directory unusable", ev: Evidence{Unjudged: &Unjudged{What: "permission denied"}},
			want: Decision{Action: Notify, Why: WhyInfra}, notice: "permission denied"},
		{name: "engine reports the lock busy", ev: Evidence{Unjudged: &Unjudged{What: "a gauntlet run is already in progress", Lock: true}},
			want: Decision{Action: Notify, Why: WhyLock}, notice: "already in progress"},

		// The lock: only the call's own time running out lets the agent go.
		{name: "lock held by a process of the agent", ev: Evidence{Lock: &Lock{Err: "held by flock", Busy: true, Foreign: true}},
			want: Decision{Action: Judge, ReplyNote: "held by flock: the gates were judged without it", KeptNote: "judged without the run lock: held by flock"}},
		{name: "lock held by another gauntlet run", ev: Evidence{Lock: &Lock{Err: "run in progress", Busy: true}},
			want: Decision{Action: Judge, KeptNote: "judged without the run lock: run in progress"}},
		{name: "lock cannot be taken at all", ev: Evidence{Lock: &Lock{Err: "read-only file system"}},
			want: Decision{Action: Judge, ReplyNote: "read-only file system: the gates were judged without it", KeptNote: "judged without the run lock: read-only file system"}},
		{name: "lock awaited for a hook judging this state, whose verdict never came", ev: Evidence{Lock: &Lock{Err: "e", Busy: true, Holder: "a run is in progress", Awaited: true}},
			want: Decision{Action: Notify, Why: WhyLock}, notice: "gates not run: a run is in progress; stop allowed"},
		{name: "lock: the call's time ran out", ev: Evidence{Lock: &Lock{Err: "context deadline exceeded", Expired: true}},
			want: Decision{Action: Notify, Why: WhyLock}, notice: "context deadline exceeded"},

		{name: "passed before on this state", ev: Evidence{PassedBefore: true},
			want: Decision{Action: Allow, Why: WhyCached}},

		// The verdict.
		{name: "pass", ev: Evidence{Verdict: gates.VerdictPass, Attempts: &Attempts{Blocks: 2, Max: 3}},
			want: Decision{Action: Allow, Why: WhyPass, Reset: true}},
		{name: "warn", ev: Evidence{Verdict: gates.VerdictWarn, Integrity: warningFinding, Attempts: &Attempts{Blocks: 1, Max: 3}},
			want: Decision{Action: Notify, Why: WhyWarn, Reset: true}},
		{name: "error: the environment broke, the base did not blame the change", ev: Evidence{Verdict: gates.VerdictError, Attempts: &Attempts{Blocks: 1, Max: 3}},
			want: Decision{Action: Notify, Why: WhyInfra}},
		{name: "fail, attempts left", ev: Evidence{Verdict: gates.VerdictFail, Results: failed, Attempts: &Attempts{Blocks: 1, Max: 3}},
			want: Decision{Action: Block, Why: WhyFail, Attempt: 2, Lead: LeadGates}},
		{name: "fail with a warning finding: the gates lead", ev: Evidence{Verdict: gates.VerdictFail, Results: failed, Integrity: warningFinding, Attempts: &Attempts{Max: 3}},
			want: Decision{Action: Block, Why: WhyFail, Attempt: 1, Lead: LeadGates}},
		{name: "a blocking finding alone", ev: Evidence{Verdict: gates.VerdictFail, Integrity: blockingFinding, Attempts: &Attempts{Max: 3}},
			want: Decision{Action: Block, Why: WhyFail, Attempt: 1, Lead: LeadIntegrity}},
		{name: "a blocking finding and a failed gate", ev: Evidence{Verdict: gates.VerdictFail, Results: failed, Integrity: blockingFinding, Attempts: &Attempts{Max: 3}},
			want: Decision{Action: Block, Why: WhyFail, Attempt: 1, Lead: LeadBoth}},
		{name: "retry limit", ev: Evidence{Verdict: gates.VerdictFail, Results: failed, Attempts: &Attempts{Blocks: 3, Max: 3}},
			want: Decision{Action: Notify, Why: WhyRetryLimit, Reset: true, Attempt: 3}},
		{name: "cannot count attempts", ev: Evidence{Verdict: gates.VerdictFail, Results: failed, Attempts: &Attempts{Blocks: 1, Max: 3, Unsaved: "disk full"}},
			want: Decision{Action: Notify, Why: WhyInfra}, notice: "gates failed, but attempts cannot be counted (disk full); stop allowed"},
		{name: "retry limit, count not saved: the limit lets go anyway", ev: Evidence{Verdict: gates.VerdictFail, Attempts: &Attempts{Blocks: 3, Max: 3, Unsaved: "disk full"}},
			want: Decision{Action: Notify, Why: WhyRetryLimit, Reset: true, Attempt: 3}},
		{name: "fail, attempts not read yet", ev: Evidence{Verdict: gates.VerdictFail, Results: failed},
			want: Decision{Action: Block, Why: WhyFail}},

		// Where a signal came from.
		{name: "signal from elsewhere, before the host's timeout", ev: Evidence{Prior: unverifiedLock, Signal: early, Attempts: &Attempts{Max: 3}},
			want: Decision{Action: Block, Why: WhySignal, Attempt: 1}},
		{name: "signal from elsewhere, attempts not read yet", ev: Evidence{Prior: unverifiedInfra, Signal: early},
			want: Decision{Action: Block, Why: WhySignal}},
		{name: "signal from elsewhere, retry limit", ev: Evidence{Prior: unverifiedInfra, Signal: early, Attempts: &Attempts{Blocks: 3, Max: 3}},
			want: Decision{Action: Notify, Why: WhyRetryLimit, Reset: true, Attempt: 3}},
		{name: "signal from elsewhere, attempt not saved", ev: Evidence{Prior: unverifiedInfra, Signal: early, Attempts: &Attempts{Max: 3, Unsaved: "read-only"}},
			want: Decision{Action: Notify, Why: WhyInfra}, notice: "attempts cannot be counted (read-only)"},
		{name: "signal from the host at its timeout", ev: Evidence{Prior: unverifiedInfra, Signal: atTimeout},
			want: *unverifiedInfra},
		{name: "signal after a verdict was reached", ev: Evidence{Prior: &Decision{Action: Allow, Why: WhyPass}, Signal: early},
			want: Decision{Action: Allow, Why: WhyPass}},
		{name: "signal during a block", ev: Evidence{Prior: &Decision{Action: Block, Why: WhyFail, Attempt: 1}, Signal: early},
			want: Decision{Action: Block, Why: WhyFail, Attempt: 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Decide(tc.ev)
			if tc.notice != "" && !strings.Contains(got.Notice, tc.notice) {
				t.Errorf("notice %q, want it to hold %q", got.Notice, tc.notice)
			}
			got.Notice = ""
			if got != tc.want {
				t.Errorf("Decide = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestSignalFromHost(t *testing.T) {
	cases := []struct {
		after, host time.Duration
		want        bool
	}{
		{after: 9*time.Minute + 59*time.Second, host: 10 * time.Minute, want: true}, // within the host's clock slack
		{after: 9*time.Minute + 58*time.Second, host: 10 * time.Minute, want: false},
		{after: 11 * time.Minute, host: 10 * time.Minute, want: true},
		{after: 4500 * time.Millisecond, host: 5 * time.Second, want: true}, // a tenth of a short timeout
		{after: 4400 * time.Millisecond, host: 5 * time.Second, want: false},
	}
	for _, tc := range cases {
		if got := (Signal{After: tc.after, HostTimeout: tc.host}).FromHost(); got != tc.want {
			t.Errorf("after %s of %s: FromHost = %v, want %v", tc.after, tc.host, got, tc.want)
		}
	}
}

func TestJudgeError(t *testing.T) {
	errored := gates.Result{Name: "build", Status: gates.StatusError, Reason: "exit status 127: command not found"}
	decisive := errored
	decisive.Cause = &gates.Cause{ID: "disk-full", Summary: "the disk is full"}
	catalogued := errored
	catalogued.Cause = &gates.Cause{ID: "node-modules-missing", Summary: "node_modules is missing"}
	passes := BaseAnswer{Differs: true, Passes: true, Source: "base abc123"}

	cases := []struct {
		name      string
		ev        ErrorEvidence
		asks      bool
		want      gates.Status
		wantInWhy string
	}{
		{name: "an error a change can produce, the tree differs, the base passes: the change's failure",
			ev: ErrorEvidence{Result: errored, Stop: true, Check: true, Base: passes}, asks: true, want: gates.StatusFail, wantInWhy: "command not found"},
		{name: "a cause the change can produce, the base passes",
			ev: ErrorEvidence{Result: catalogued, Stop: true, Check: true, Base: passes}, asks: true, want: gates.StatusFail, wantInWhy: "node_modules is missing"},
		{name: "the base fails too: the error excuses",
			ev: ErrorEvidence{Result: errored, Stop: true, Check: true, Base: BaseAnswer{Differs: true}}, asks: true, want: gates.StatusError},
		{name: "the tree is the base: nothing to compare",
			ev: ErrorEvidence{Result: errored, Stop: true, Check: true, Base: BaseAnswer{Passes: true}}, asks: true, want: gates.StatusError},
		{name: "a decisive cause excuses without asking the base",
			ev: ErrorEvidence{Result: decisive, Stop: true, Check: true, Base: passes}, asks: false, want: gates.StatusError},
		{name: "run keeps its errors",
			ev: ErrorEvidence{Result: errored, Check: true, Base: passes}, asks: false, want: gates.StatusError},
		{name: "a review or todos gate: nothing the base can tell",
			ev: ErrorEvidence{Result: errored, Stop: true, Base: passes}, asks: false, want: gates.StatusError},
		{name: "a failure stays one",
			ev: ErrorEvidence{Result: gates.Result{Name: "lint", Status: gates.StatusFail}, Stop: true, Check: true, Base: passes}, asks: false, want: gates.StatusFail},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := AsksBase(tc.ev); got != tc.asks {
				t.Errorf("AsksBase = %v, want %v", got, tc.asks)
			}
			got := JudgeError(tc.ev)
			if got.Status != tc.want {
				t.Fatalf("status %s, want %s", got.Status, tc.want)
			}
			if tc.want == gates.StatusFail && tc.ev.Result.Status == gates.StatusError {
				if got.Cause != nil || !strings.Contains(got.Reason, gates.BasePassesMark) ||
					!strings.Contains(got.Reason, tc.ev.Base.Source) || !strings.Contains(got.Reason, tc.wantInWhy) {
					t.Errorf("earned failure: cause %v, reason %q", got.Cause, got.Reason)
				}
			}
		})
	}
}

func TestJudgeTimeout(t *testing.T) {
	timedOut := gates.Result{Name: "build", Status: gates.StatusFail, TimedOut: true, Reason: "timed out after 1m0s (the limit from --timeout); its last line: \"go: downloading golang.org/x/tools v0.30.0\""}
	withFinding := timedOut
	withFinding.Findings = []gates.Finding{{File: "a.go", Line: 1, Message: "x"}}
	withCause := timedOut
	withCause.Cause = &gates.Cause{ID: "oom-killed"}
	exited := gates.Result{Name: "build", Status: gates.StatusFail, ExitCode: 1}
	const building = "go: downloading golang.org/x/tools v0.30.0"

	cases := []struct {
		name string
		ev   TimeoutEvidence
		want gates.Status
	}{
		{name: "a check whose output shows a build in progress: a cold build",
			ev: TimeoutEvidence{Result: timedOut, Check: true, Timeout: time.Minute, Building: building}, want: gates.StatusError},
		{name: "the honest twin: a check that printed nothing of a build is the change's timeout",
			ev: TimeoutEvidence{Result: timedOut, Check: true}, want: gates.StatusFail},
		{name: "it reported a finding first",
			ev: TimeoutEvidence{Result: withFinding, Check: true, Building: building}, want: gates.StatusFail},
		{name: "it has a cause already",
			ev: TimeoutEvidence{Result: withCause, Check: true, Building: building}, want: gates.StatusFail},
		{name: "not a timeout",
			ev: TimeoutEvidence{Result: exited, Check: true, Building: building}, want: gates.StatusFail},
		{name: "a review's timeout is its own",
			ev: TimeoutEvidence{Result: timedOut, Building: building}, want: gates.StatusFail},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := JudgeTimeout(tc.ev)
			if got.Status != tc.want {
				t.Fatalf("status %s, want %s", got.Status, tc.want)
			}
			if got.Status != gates.StatusError {
				if got.Reason != tc.ev.Result.Reason {
					t.Errorf("reason %q changed", got.Reason)
				}
				return
			}
			// The cause says what shows the build, once, after what the timeout said.
			want := tc.ev.Result.Reason + "; environment: most likely a cold first build: its output shows dependencies still being fetched or compiled (fix: run it once with a longer limit so that the caches fill: gauntlet run --timeout 10m build)"
			if got.Cause == nil || got.Cause.ID != ColdBuildID || got.Reason != want {
				t.Errorf("cold build: cause %v, reason\n%q\nwant\n%q", got.Cause, got.Reason, want)
			}
		})
	}
}

// The cold build's evidence is quoted unless the timeout's reason already shows it, and its fix
// raises the limit where the limit came from: --timeout does not override a gate's own timeout:.
func TestColdBuildCauseWords(t *testing.T) {
	r := gates.Result{Name: "test", Status: gates.StatusFail, TimedOut: true, Reason: `timed out after 5m (the limit from the gate's timeout:); its last line: "ok  	pkg/a	0.1s"`}
	got := JudgeTimeout(TimeoutEvidence{Result: r, Check: true, Timeout: 5 * time.Minute, OwnTimeout: true, Building: "   Compiling serde v1.0.200"})
	want := r.Reason + `; environment: most likely a cold first build: its output shows dependencies still being fetched or compiled ("Compiling serde v1.0.200") (fix: run it once with a longer limit so that the caches fill: raise the gate's timeout: to 15m, then gauntlet run test)`
	if got.Reason != want {
		t.Errorf("reason\n%q\nwant\n%q", got.Reason, want)
	}
}
