package gates

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Classify turns a raw process outcome into a status and a one-line reason. The order of the
// checks is the policy: gauntlet's own failures and outside cancellation first, because the gate's
// exit code means nothing then; timeouts next, because the kill produced the exit code; then a
// self-judging gate's own verdict, which its exit code and output must not second-guess; then the
// infrastructure signals, which only ever turn a failure into an error, never a pass.
//
// A problem capturing the output (CaptureErr) never hides a failure: fail wins over error, so a
// failing gate stays failing with the problem named beside it; only a pass becomes an error,
// because nobody has seen all of what it printed.
//
// A severity: warn gate never makes the verdict an error: what it would not block on when it
// fails, it does not block on when it cannot run either, so its error is a warning that says it
// could not run and why.
func Classify(g Gate, o Outcome) (Status, string) {
	status, reason := classifyCaptured(g, o)
	if status == StatusError && g.Severity == SeverityWarn {
		return StatusWarn, CouldNotRun + reason
	}
	return status, reason
}

// CouldNotRun starts the reason of a severity: warn gate whose error became a warning.
const CouldNotRun = "could not run: "

func classifyCaptured(g Gate, o Outcome) (Status, string) {
	status, reason := classify(g, o)
	if o.CaptureErr == nil {
		return status, reason
	}
	note := "its log is incomplete: " + o.CaptureErr.Error()
	if status == StatusPass {
		return StatusError, "gauntlet error: " + note
	}
	return status, reason + "; " + note
}

func classify(g Gate, o Outcome) (Status, string) {
	if status, reason, ok := classifyUnexited(g, o); ok {
		return status, reason
	}
	return classifyExit(g, o)
}

// classifyUnexited judges what decides before the exit code does: gauntlet's own error, a stop,
// a start that failed, a timeout, or the gate's own judgement; ok is false when none did.
func classifyUnexited(g Gate, o Outcome) (status Status, reason string, ok bool) {
	switch {
	case o.Internal != nil:
		return StatusError, "gauntlet error: " + o.Internal.Error(), true
	case o.Cancelled && o.StopSignal != "":
		return StatusCancelled, "cancelled: ended by " + o.StopSignal + " as gauntlet itself was being stopped", true
	case o.Cancelled:
		return StatusCancelled, "cancelled", true
	case o.StartErr != nil:
		return StatusError, "could not start: " + o.StartErr.Error(), true
	case o.TimedOut:
		reason := timeoutReason(g, o)
		if g.OnTimeout == StatusError {
			return StatusError, reason, true
		}
		return failing(g), reason, true
	case o.Judged != nil:
		if o.Judged.Status == StatusFail {
			return failing(g), o.Judged.Reason, true
		}
		return o.Judged.Status, o.Judged.Reason, true
	}
	return "", "", false
}

// classifyExit judges a gate by how its command exited.
func classifyExit(g Gate, o Outcome) (Status, string) {
	switch {
	case o.ExitCode == 0:
		return StatusPass, "exit status 0" + ignoredNote(g, o)
	case o.Cause != nil:
		// Before the exit codes: "command not found" is true of a missing node_modules too, but
		// only the cause says what to do about it.
		return StatusError, CauseReason(*o.Cause)
	case slices.Contains(infraCodes(g), o.ExitCode):
		return StatusError, fmt.Sprintf("exit status %d: %s", o.ExitCode, infraCodeMeaning(o.ExitCode)) + rejectedNote(o)
	case o.InfraMatch != "":
		return StatusError, fmt.Sprintf("exit status %d: infrastructure problem: %s", o.ExitCode, strings.TrimSpace(o.InfraMatch))
	case o.ExitCode < 0:
		return failing(g), "killed by a signal" + rejectedNote(o)
	case onlyPreexisting(g, o):
		// Everything the tool reported was there before the change: not this change's failure.
		return StatusPass, fmt.Sprintf("exit status %d, but only pre-existing findings%s", o.ExitCode, ignoredNote(g, o)) + rejectedNote(o)
	default:
		return failing(g), fmt.Sprintf("exit status %d", o.ExitCode) + ignoredNote(g, o) + rejectedNote(o)
	}
}

// onlyPreexisting reports a new_only gate whose findings were all there before the change. A
// failure with nothing to attribute (no finding at all) is not one: it fails.
func onlyPreexisting(g Gate, o Outcome) bool {
	return g.NewOnly && len(o.Findings) == 0 && o.IgnoredFindings > 0
}

// rejectedNote says why an environment cause the output named did not excuse the failure, so
// that nobody reading "fail" wonders why "no space left on device" did not make it an error.
func rejectedNote(o Outcome) string {
	if o.CauseRejected == "" {
		return ""
	}
	return "; " + o.CauseRejected
}

// NewOnlyMark ends the note of a gate that set pre-existing findings aside, so that reports can
// show it even on a pass, whose reason they otherwise leave out.
const NewOnlyMark = "(new_only)"

// BasePassesMark is in the reason of an error turned into a failure because the gate passes at
// the base of the change, here and now: the change caused it.
const BasePassesMark = "the gate passes at the base"

// ignoredNote says how many findings new_only set aside and what it compared them with, so that
// a pass is never silent about problems it chose not to count, or why it could not compare.
func ignoredNote(g Gate, o Outcome) string {
	if !g.NewOnly {
		return ""
	}
	note := ""
	if o.NewOnlyNote != "" {
		note = "; " + o.NewOnlyNote
	}
	if o.IgnoredFindings == 0 {
		return note
	}
	return fmt.Sprintf("; %s (also at %s) ignored %s", countOf(o.IgnoredFindings, "pre-existing finding"), o.NewOnlyBase, NewOnlyMark) + note
}

func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// JudgedByExitCode says whether Classify decides o by the gate's exit code and findings alone:
// the process ran to a failing exit and nothing takes precedence (gauntlet's own error, a
// cancel, a timeout, a self-judged verdict, an environment cause, an infrastructure exit code or
// pattern). Only then does new_only compare findings with the base.
func JudgedByExitCode(g Gate, o Outcome) bool {
	return o.Internal == nil && !o.Cancelled && o.StartErr == nil && !o.TimedOut && o.Judged == nil &&
		o.ExitCode > 0 && o.Cause == nil && !slices.Contains(infraCodes(g), o.ExitCode) && o.InfraMatch == ""
}

// CauseReason is the one-line reason of a gate failed by its environment: what is wrong and how
// to fix it.
func CauseReason(c Cause) string {
	return fmt.Sprintf("environment: %s (fix: %s)", c.Summary, c.Fix)
}

// PrintedNothing ends the reason of a timeout whose gate printed nothing: a report that shows
// the reason need not add that the output is empty.
const PrintedNothing = "it printed nothing"

// timeoutReason says when a gate was stopped, where that limit came from, and what the gate
// printed last: a timeout has many causes (a cold build, a hang, a slow test, a large folder), and
// only what the gate was doing tells them apart. An environment cause found in the output is
// named. on_timeout alone decides the status; the verdict policy may name a cold build after.
func timeoutReason(g Gate, o Outcome) string {
	reason := fmt.Sprintf("timed out after %s%s", ShortDuration(g.Timeout), timeoutFromNote(g.TimeoutFrom))
	switch {
	case o.LastLine != "":
		reason += fmt.Sprintf("; its last line: %q", o.LastLine)
	case o.Lines == 0 && o.Excerpt == nil && len(o.Findings) == 0:
		reason += "; " + PrintedNothing
	}
	if o.Cause != nil {
		reason += "; " + CauseReason(*o.Cause)
	}
	return reason
}

// Where a gate's timeout came from, for the reason of a timeout.
const (
	TimeoutFromFlag    = "--timeout"
	TimeoutFromGate    = "the gate's timeout:"
	TimeoutFromConfig  = "the config's timeout:"
	TimeoutFromBuiltin = "the built-in default"
)

func timeoutFromNote(from string) string {
	switch from {
	case "":
		return ""
	case TimeoutFromBuiltin:
		return " (the built-in default; set timeout: in the config)"
	default:
		return " (the limit from " + from + ")"
	}
}

// ShortDuration is a duration as a user types it: 10m and 1h30m, not 10m0s and 1h30m0s.
func ShortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

func failing(g Gate) Status {
	if g.Severity == SeverityWarn {
		return StatusWarn
	}
	return StatusFail
}

func infraCodes(g Gate) []int {
	if g.InfraExitCodes == nil {
		return DefaultInfraExitCodes
	}
	return g.InfraExitCodes
}

func infraCodeMeaning(code int) string {
	switch code {
	case 126:
		return "command not executable"
	case 127:
		return "command not found"
	default:
		return "listed in infra_exit_codes"
	}
}

// VerdictOf folds gate statuses into the run's verdict. A failure outranks an error: the agent
// can fix a failure, and hiding it behind an environment problem would let it stop too early.
// A cancelled gate only exists beside a failure or an interrupt, and alone counts as not run.
func VerdictOf(results []Result) Verdict {
	var failed, errored, warned bool
	for _, r := range results {
		switch r.Status {
		case StatusFail:
			failed = true
		case StatusError, StatusCancelled:
			errored = true
		case StatusWarn:
			warned = true
		}
	}
	switch {
	case failed:
		return VerdictFail
	case errored:
		return VerdictError
	case warned:
		return VerdictWarn
	default:
		return VerdictPass
	}
}

// shellJoin quotes argv for display so that a user can paste it into a shell.
func shellJoin(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		parts[i] = ShellQuote(a)
	}
	return strings.Join(parts, " ")
}

// ShellQuote leaves a word alone when sh would read it as it is, and single-quotes it otherwise.
func ShellQuote(s string) string {
	if s != "" && !strings.ContainsFunc(s, needsQuote) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func needsQuote(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
}
