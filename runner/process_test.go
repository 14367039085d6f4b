package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/testos"
)

func TestTimeoutKillsGrandchildIgnoringSigterm(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	pidFile := filepath.Join(opts.Root, "pid")
	g := shellGate("slow", `echo '=== RUN   TestSlow'; (trap '' TERM; exec sleep 1000) & echo $! > `+pidFile+`; wait`)
	g.Timeout = 500 * time.Millisecond
	res := runWithin(t, 20*time.Second, func() []gates.Result {
		return Run(context.Background(), []gates.Gate{g}, opts)
	})[0]
	assertGone(t, readPid(t, pidFile))
	if !res.TimedOut || res.Status != gates.StatusFail || res.Reason != `timed out after 500ms; its last line: "=== RUN TestSlow"` {
		t.Errorf("got %s timed_out=%v reason %q, want a fail by timeout", res.Status, res.TimedOut, res.Reason)
	}
}

func TestBackgroundChildOfPassingGateIsKilled(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	pidFile := filepath.Join(opts.Root, "pid")
	g := shellGate("leaves-child", `sleep 1000 & echo $! > `+pidFile+`; echo done`)
	res := runWithin(t, 20*time.Second, func() []gates.Result {
		return Run(context.Background(), []gates.Gate{g}, opts)
	})[0]
	assertGone(t, readPid(t, pidFile))
	if res.Status != gates.StatusPass || res.Tail != "done" {
		t.Errorf("got %s tail %q, want pass with its output", res.Status, res.Tail)
	}
}

func TestEscapedChildHoldingPipeDoesNotHang(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	pidFile := filepath.Join(opts.Root, "pid")
	// The gate waits until its child has left the group, or the group kill could win the race.
	g := shellGate("escapes", `setsid sh -c 'echo $$ > `+pidFile+`; exec sleep 60' & `+
		`while [ ! -s `+pidFile+` ]; do sleep 0.05; done; echo before`)
	res := runWithin(t, 30*time.Second, func() []gates.Result {
		return Run(context.Background(), []gates.Gate{g}, opts)
	})[0]
	// It left the group, so gauntlet cannot reach it; the test cleans up after itself.
	testos.Kill(readPid(t, pidFile))
	if res.Status != gates.StatusPass || res.Tail != "before" {
		t.Errorf("got %s tail %q, want pass with the output written before", res.Status, res.Tail)
	}
}

// startedThen runs f once the gate has printed "ready", so that its shell has set its traps.
func startedThen(f func()) *recorder {
	return &recorder{onLine: func(_, line string) {
		if line == "ready" {
			f()
		}
	}}
}

func TestCancelStopsRunningAndPendingGates(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	opts.Jobs = 1
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts.Observer = startedThen(cancel)
	pidFile := filepath.Join(opts.Root, "pid")
	running := shellGate("running", `sleep 1000 & echo $! > `+pidFile+`; echo ready; wait`)
	pending := shellGate("pending", "true")
	results := runWithin(t, 20*time.Second, func() []gates.Result {
		return Run(ctx, []gates.Gate{running, pending}, opts)
	})
	assertGone(t, readPid(t, pidFile))
	for _, res := range results {
		if res.Status != gates.StatusCancelled || res.Reason != "cancelled" || res.TimedOut {
			t.Errorf("%s: got %s %q timed_out=%v, want cancelled", res.Name, res.Status, res.Reason, res.TimedOut)
		}
	}
	if !results[1].Started.IsZero() || results[1].Log != "" {
		t.Errorf("pending gate was started: %+v", results[1])
	}
}

func TestRunDeadlineReportsRunningGatesTimedOut(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	opts.Jobs = 1
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	results := runWithin(t, 20*time.Second, func() []gates.Result {
		return Run(ctx, []gates.Gate{shellGate("long", "sleep 1000"), shellGate("pending", "true")}, opts)
	})
	long, pending := results[0], results[1]
	if !long.TimedOut || long.Status != gates.StatusFail || long.Reason != "timed out: the run's deadline was reached" {
		t.Errorf("long: got %s timed_out=%v %q, want a timeout by the run's deadline", long.Status, long.TimedOut, long.Reason)
	}
	if pending.Status != gates.StatusCancelled || pending.TimedOut {
		t.Errorf("pending: got %s timed_out=%v, want cancelled", pending.Status, pending.TimedOut)
	}
}

func TestAbortKillsAtOnceDespiteIgnoredSigterm(t *testing.T) {
	t.Parallel()
	for _, alsoCancel := range []bool{true, false} {
		opts := testOptions(t)
		opts.Grace = time.Hour // only the abort can end this run in time
		abort := make(chan struct{})
		opts.Abort = abort
		ctx, cancel := context.WithCancel(context.Background())
		opts.Observer = startedThen(func() {
			if alsoCancel {
				cancel()
			}
			close(abort)
		})
		pidFile := filepath.Join(opts.Root, "pid")
		g := shellGate("stubborn", `trap '' TERM; sleep 1000 & echo $! > `+pidFile+`; echo ready; wait`)
		res := runWithin(t, 20*time.Second, func() []gates.Result {
			return Run(ctx, []gates.Gate{g}, opts)
		})[0]
		cancel()
		assertGone(t, readPid(t, pidFile))
		if res.Status != gates.StatusCancelled {
			t.Errorf("cancel=%v: got %s %q, want cancelled", alsoCancel, res.Status, res.Reason)
		}
	}
}

func TestAbortBeforeRunStartsNothing(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	abort := make(chan struct{})
	close(abort)
	opts.Abort = abort
	rec := &recorder{}
	opts.Observer = rec
	res := Run(context.Background(), []gates.Gate{shellGate("g", "true")}, opts)[0]
	if res.Status != gates.StatusCancelled || len(rec.started) != 0 || len(rec.finished) != 1 {
		t.Errorf("got %s, started %v, finished %d; want cancelled, nothing started, one Finished", res.Status, rec.started, len(rec.finished))
	}
}

func TestFailFastCancelsOthers(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	opts.Jobs = 2
	opts.FailFast = true
	pidFile := filepath.Join(opts.Root, "pid")
	gs := []gates.Gate{
		shellGate("slow", `sleep 1000 & echo $! > `+pidFile+`; wait`),
		shellGate("bad", `sleep 0.2; exit 1`),
		shellGate("later", "true"),
	}
	results := runWithin(t, 20*time.Second, func() []gates.Result {
		return Run(context.Background(), gs, opts)
	})
	assertGone(t, readPid(t, pidFile))
	r := byName(results)
	if r["bad"].Status != gates.StatusFail {
		t.Errorf("bad: got %s, want fail", r["bad"].Status)
	}
	for _, name := range []string{"slow", "later"} {
		if r[name].Status != gates.StatusCancelled || r[name].Reason != "cancelled: fail-fast after bad failed" {
			t.Errorf("%s: got %s %q, want cancelled by fail-fast", name, r[name].Status, r[name].Reason)
		}
	}
	if !r["later"].Started.IsZero() {
		t.Errorf("later was started after the failure")
	}
}

func TestFailFastIgnoresWarnings(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	opts.Jobs = 2
	opts.FailFast = true
	warn := shellGate("warn", "exit 1")
	warn.Severity = gates.SeverityWarn
	results := Run(context.Background(), []gates.Gate{warn, shellGate("slow", "sleep 0.5")}, opts)
	if results[0].Status != gates.StatusWarn || results[1].Status != gates.StatusPass {
		t.Errorf("got %s and %s, want warn and pass", results[0].Status, results[1].Status)
	}
}

// With FinishStarted, fail-fast stops the other gates but lets a started one it names run to its
// end: a test gate's own failure is worth more than its silence.
func TestFailFastLetsStartedTestsFinish(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	opts.Jobs = 3
	opts.FailFast = true
	opts.FailGrace = 10 * time.Millisecond
	opts.FinishStarted = func(g gates.Gate) bool { return strings.HasPrefix(g.Name, "test") }
	gs := []gates.Gate{
		shellGate("test", `sleep 0.6; echo "FAILED tests/test_basic.py::test_echo"; exit 1`),
		shellGate("spell", `sleep 1000`),
		shellGate("bad", `sleep 0.1; exit 1`),
	}
	results := runWithin(t, 20*time.Second, func() []gates.Result {
		return Run(context.Background(), gs, opts)
	})
	r := byName(results)
	if r["test"].Status != gates.StatusFail || r["test"].ExitCode != 1 {
		t.Errorf("test: got %s %q, want its own failure", r["test"].Status, r["test"].Reason)
	}
	if r["spell"].Status != gates.StatusCancelled {
		t.Errorf("spell: got %s %q, want cancelled by fail-fast", r["spell"].Status, r["spell"].Reason)
	}
}
