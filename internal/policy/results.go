package policy

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// A gate's result can change what it excuses before the stop is decided: an error a change can
// produce is the change's failure when the base passes the same gate here and now, and a check's
// timeout before it reported anything, when the gate never passed in this checkout, is a cold
// build's error. Each is a pair: whether the evidence is worth gathering (Asks...), and the
// judgement once it is (Judge...), so that the engine asks the base or reads the record of passes
// only when it can change something.

// decisiveCauses are environment causes whose probe reads the machine, never the tree, and
// confirms the cause now: they excuse without asking the base. A cause is decisive only with
// such a probe: a line alone is printed as easily by a gate as by the machine ("System limit for
// number of file watchers reached", whose inotify use per user is not readable cheaply, has no
// probe and is checked at the base). Every other error is one a change can produce (a timeout
// taken for a cold build, an infra_patterns match, a catalogue line the gate printed itself,
// missing node_modules, a setup step that cannot start, a command not found), and is checked
// there.
var decisiveCauses = []string{"disk-full", "oom-killed", "oom-killed-child"}

// ErrorEvidence is what a gate's error is judged on.
type ErrorEvidence struct {
	Result gates.Result
	// Stop: the run judges an agent's stop. `run` keeps its errors: it judges no agent.
	Stop bool
	// Check: the gate is a check, which the base can run (a review without a login, a todos
	// gate: nothing the base can tell).
	Check bool
	// Base is the same gate at the base of the change; the zero value when it was not asked.
	Base BaseAnswer
}

// BaseAnswer is what the base of the change says of a gate, here and now.
type BaseAnswer struct {
	// Differs: there is a base, and the tree differs from it. The tree that is the base has
	// nothing to compare with.
	Differs bool
	// Passes: the gate passed there, in this environment; Source says which base.
	Passes bool
	Source string
}

// AsksBase says whether the base's answer can turn the error into a failure: an error of a check,
// at a stop, with no decisive cause.
func AsksBase(e ErrorEvidence) bool {
	return e.Stop && e.Check && MayBeEarned(e.Result)
}

// MayBeEarned says whether an error may yet be the change's, whatever the gate: a live view holds
// it back until the run has judged it.
func MayBeEarned(r gates.Result) bool {
	return r.Status == gates.StatusError && (r.Cause == nil || !slices.Contains(decisiveCauses, r.Cause.ID))
}

// JudgeError lets an error excuse the agent only when the change could not have caused it: an
// error a change can produce, on a tree that differs from the base, when the same gate passes at
// the base here and now, is the change's failure, saying so.
func JudgeError(e ErrorEvidence) gates.Result {
	r := e.Result
	if !AsksBase(e) || !e.Base.Differs || !e.Base.Passes {
		return r
	}
	why := r.Reason
	if r.Cause != nil {
		why = gates.CauseReason(*r.Cause)
	}
	r.Status = gates.StatusFail
	r.Cause = nil
	r.Reason = fmt.Sprintf("%s (%s) in this environment, so the change caused it: %s", gates.BasePassesMark, e.Base.Source, why)
	return r
}

// ColdBuildID is the cause given to a cold build's timeout.
const ColdBuildID = "cold-build-timeout"

// TimeoutEvidence is what a gate's timeout is judged on.
type TimeoutEvidence struct {
	Result gates.Result
	// Check: the gate is a check (a review's or a todos gate's timeout is its own).
	Check bool
	// Timeout is the gate's; OwnTimeout says it is the gate's own timeout:, which --timeout does
	// not override.
	Timeout    time.Duration
	OwnTimeout bool
	// Building is the line of the gate's output that shows a build fetching or compiling its
	// dependencies ("go: downloading ...", cargo's "Compiling serde v1.0.200"); "" when none does.
	Building string
}

// coldCandidate says whether a timeout says nothing about the agent's work yet: a check that
// timed out before reporting any result (no finding, no error line, no cause).
func coldCandidate(e TimeoutEvidence) bool {
	r := e.Result
	return e.Check && r.Status == gates.StatusFail && r.TimedOut && len(r.Findings) == 0 && r.Excerpt == nil && r.Cause == nil
}

// JudgeTimeout turns into an error, with the cold-build cause, a timeout that said nothing about
// the agent's work yet while its own output shows a build still fetching or compiling
// dependencies, which the agent cannot fix and a longer first run can. Without that evidence a
// timeout is judged as on_timeout says, whatever the gate did before: a timeout has many causes
// (a hang, a slow test, a large folder) and "cold build" is true only of one. At a stop the
// error is still only earned when the gate does not pass at the base (JudgeError).
func JudgeTimeout(e TimeoutEvidence) gates.Result {
	r := e.Result
	if !coldCandidate(e) || e.Building == "" {
		return r
	}
	summary := "most likely a cold first build: its output shows dependencies still being fetched or compiled"
	if line := strings.TrimSpace(e.Building); !strings.Contains(r.Reason, line) {
		summary += fmt.Sprintf(" (%q)", line)
	}
	cause := gates.Cause{ID: ColdBuildID, Summary: summary, Fix: coldFix(e)}
	r.Status, r.Cause = gates.StatusError, &cause
	if r.Reason == "" {
		r.Reason = gates.CauseReason(cause)
	} else {
		r.Reason += "; " + gates.CauseReason(cause)
	}
	return r
}

// coldFix raises the limit where it came from: --timeout does not override a gate's own timeout:.
func coldFix(e TimeoutEvidence) string {
	longer := max(3*e.Timeout, 10*time.Minute).Round(time.Minute)
	if e.OwnTimeout {
		return fmt.Sprintf("run it once with a longer limit so that the caches fill: raise the gate's timeout: to %s, then gauntlet run %s", shortDuration(longer), e.Result.Name)
	}
	return fmt.Sprintf("run it once with a longer limit so that the caches fill: gauntlet run --timeout %s %s", shortDuration(longer), e.Result.Name)
}

// shortDuration is a whole number of minutes as a user types it: 10m, not 10m0s.
func shortDuration(d time.Duration) string {
	s := strings.TrimSuffix(d.String(), "0s")
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
