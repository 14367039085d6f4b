package runner

import (
	"context"
	"errors"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// Causes of a gate's context ending, other than the caller's own cancel or deadline.
var (
	errGateTimeout = errors.New("gate timed out")
	errAborted     = errors.New("run aborted")
)

type failFastError struct{ gate string }

func (e *failFastError) Error() string { return "fail-fast after " + e.gate + " failed" }

// stoppedOutcome is the outcome of a gate whose process was interrupted: its own timeout and the
// run's deadline are timeouts; fail-fast, abort and the caller's cancel are cancellations.
func (r *run) stoppedOutcome(ctx context.Context, exitCode int) gates.Outcome {
	o := gates.Outcome{ExitCode: exitCode}
	if r.timedOut(ctx) {
		o.TimedOut = true
	} else {
		o.Cancelled = true
	}
	return o
}

func (r *run) timedOut(ctx context.Context) bool {
	cause := context.Cause(ctx)
	var ff *failFastError
	switch {
	case errors.Is(cause, errGateTimeout):
		return true
	case errors.As(cause, &ff), errors.Is(cause, errAborted):
		return false
	default:
		// Err rather than Cause: a deadline with a cause of its own is still a deadline.
		return errors.Is(r.parent.Err(), context.DeadlineExceeded)
	}
}

// stopReason explains what Classify cannot see: whose failure cancelled a gate, and a timeout
// that came from the run's deadline rather than the gate's own.
func (r *run) stopReason(ctx context.Context, o gates.Outcome) string {
	if o.Internal != nil || o.StopSignal != "" {
		return ""
	}
	cause := context.Cause(ctx)
	var ff *failFastError
	switch {
	case o.Cancelled && errors.As(cause, &ff):
		return "cancelled: " + ff.Error()
	case o.TimedOut && !errors.Is(cause, errGateTimeout):
		return "timed out: the run's deadline was reached"
	}
	return ""
}
