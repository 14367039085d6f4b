package runner

import (
	"context"
	"io"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// signalledExecutor is a gate's process that died of a signal nobody in the runner sent: its
// death is what Execute returns. before runs first (the caller's stop arriving as the gate dies).
type signalledExecutor struct {
	exit   Exit
	before func(ctx context.Context)
}

func (e signalledExecutor) Execute(ctx context.Context, _ Process, _ io.Writer) (Exit, error) {
	if e.before != nil {
		e.before(ctx)
	}
	return e.exit, nil
}

func TestGateKilledWithTheRunIsCancelled(t *testing.T) {
	t.Parallel()
	term := Exit{Code: -1, Signal: syscall.SIGTERM}
	tests := []struct {
		name string
		exit Exit
		// stop is when the caller's context ends: "after" the gate's death was seen (a host that
		// signals the gates first), "before" it, "deadline" (the run's own), or "never".
		stop   string
		window time.Duration
		status gates.Status
		reason string
	}{
		{"host signals the gate, then gauntlet", term, "after", time.Hour, gates.StatusCancelled, "cancelled: ended by SIGTERM as gauntlet itself was being stopped"},
		{"gauntlet already stopping", term, "before", time.Hour, gates.StatusCancelled, "cancelled: ended by SIGTERM as gauntlet itself was being stopped"},
		{"shell reports its child's SIGINT", Exit{Code: 130}, "after", time.Hour, gates.StatusCancelled, "cancelled: ended by SIGINT as gauntlet itself was being stopped"},
		{"SIGHUP", Exit{Code: -1, Signal: syscall.SIGHUP}, "after", time.Hour, gates.StatusCancelled, "cancelled: ended by SIGHUP as gauntlet itself was being stopped"},
		{"gate killed itself, nobody stops gauntlet", term, "never", time.Millisecond, gates.StatusFail, "killed by a signal"},
		{"shell's child killed itself", Exit{Code: 143}, "never", time.Millisecond, gates.StatusFail, "exit status 143"},
		{"a crash is no stop signal", Exit{Code: -1, Signal: syscall.SIGSEGV}, "before", time.Hour, gates.StatusFail, "killed by a signal"},
		{"the run's deadline is nobody's stop", term, "deadline", time.Hour, gates.StatusFail, "killed by a signal"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			e := signalledExecutor{exit: tc.exit}
			switch tc.stop {
			case "after":
				e.before = func(context.Context) { go cancel() }
			case "before":
				e.before = func(ctx context.Context) { cancel(); <-ctx.Done() }
			case "deadline":
				// The deadline passes while the gate runs, never before it starts, however slow
				// the machine: the test says when it has passed.
				d := &passedDeadline{Context: ctx, done: make(chan struct{})}
				ctx = d
				e.before = func(ctx context.Context) { d.pass(); <-ctx.Done() }
			}
			opts := testOptions(t)
			opts.Executor = e
			opts.StopSignalWindow = tc.window
			res := runWithin(t, hangGuard(30*time.Second), func() []gates.Result {
				return Run(ctx, []gates.Gate{shellGate("g", "true")}, opts)
			})[0]
			if res.Status != tc.status || res.Reason != tc.reason {
				t.Errorf("status %s reason %q, want %s %q", res.Status, res.Reason, tc.status, tc.reason)
			}
		})
	}
}

// passedDeadline is a context whose deadline passes when the test says so.
type passedDeadline struct {
	context.Context
	done chan struct{}
	once sync.Once
}

func (d *passedDeadline) pass()                 { d.once.Do(func() { close(d.done) }) }
func (d *passedDeadline) Done() <-chan struct{} { return d.done }
func (d *passedDeadline) Err() error {
	select {
	case <-d.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}
