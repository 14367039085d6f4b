// Package runner executes gates: each in its own process group, at most Jobs at once, with
// output captured into capped log files and a bounded in-memory tail.
package runner

import (
	"context"
	"os"
	"sync"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/proc"
)

const (
	// DefaultGrace is how long a stopped gate gets between SIGTERM and SIGKILL.
	DefaultGrace = 5 * time.Second
	// DefaultMaxLogBytes caps each gate's log file.
	DefaultMaxLogBytes = 16 << 20
	// DefaultStopSignalWindow is how long after a gate died of SIGTERM, SIGINT or SIGHUP the run
	// may still be stopped for that gate to count as stopped with it. A host that ends a hook's
	// whole process tree (Claude Code at its hook timeout) signals the processes one after the
	// other: the gates' deaths were seen a few milliseconds before gauntlet's own signal. Half a
	// second is a hundred times that, room for a loaded machine to deschedule the host between
	// two kill calls; it delays only the verdict of a gate that really died of such a signal on
	// its own, and never past the run's deadline.
	DefaultStopSignalWindow = 500 * time.Millisecond
)

// Observer follows a run as it happens, for live displays. Its methods are called from the
// gates' goroutines, concurrently, and should return quickly: a slow Output slows the gate.
type Observer interface {
	// Started is called when a gate begins, before its process starts.
	Started(g gates.Gate, at time.Time)
	// Output receives one whole output line, without its newline; a line longer than 64 KiB is
	// delivered in 64 KiB pieces. Calls for different gates may overlap; for a given gate lines
	// arrive in order. The slice is only valid during the call.
	Output(gate string, line []byte)
	// Finished is called exactly once per gate, also for one that was cancelled before it started.
	Finished(r gates.Result)
}

// Options configures one run.
type Options struct {
	RunID string
	// Root is the absolute project root; gate.Dir is relative to it.
	Root string
	// Logs is the run's log directory, already created; the log of gate X is "X.log" inside it.
	// nil keeps no log files, unless OpenLogs is set.
	Logs *os.Root
	// OpenLogs, when Logs is nil, creates the run's log directory: called once, when the first
	// gate prints something, so that a run of quiet gates writes no directory. The caller
	// closes the root it returned once Run returns.
	OpenLogs func() (*os.Root, error)
	// LogPrefix is the repo-relative path of Logs; Result.Log = LogPrefix + "/X.log".
	LogPrefix string
	// Jobs is the most gates running at once; below 1 means 1.
	Jobs     int
	FailFast bool
	// FailGrace, with FailFast, is how long the other gates may still finish after the first
	// failure before they are stopped; 0 stops them at once.
	FailGrace time.Duration
	// FinishStarted, with FailFast, names the gates fail-fast lets run to their end once they
	// have started (a test gate: its own failure says more than its silence); they still end
	// with the caller's context, an abort or their own timeout. Gates not started yet never
	// start. nil stops every gate.
	FinishStarted func(gates.Gate) bool
	// Env is the base environment; nil means os.Environ(). Then come gate.Env, GAUNTLET=1,
	// GAUNTLET_RUN_ID, GAUNTLET_GATE, then ExtraEnv; later entries win.
	Env      []string
	ExtraEnv []string
	// Grace is the time between SIGTERM and SIGKILL; 0 means DefaultGrace.
	Grace time.Duration
	// StopSignalWindow: a check gate that died of SIGTERM, SIGINT or SIGHUP (or whose shell
	// exited 128 plus one of them) while the caller's context was cancelled, or that is cancelled
	// within this window after, was stopped together with the run (whoever stopped gauntlet
	// signalled its gates too) and is cancelled rather than failed. 0 means
	// DefaultStopSignalWindow.
	StopSignalWindow time.Duration
	// MaxLogBytes caps each log file; 0 means DefaultMaxLogBytes.
	MaxLogBytes int64
	// Observer may be nil.
	Observer Observer
	// Abort, when closed, SIGKILLs every running gate's process group at once (second Ctrl-C)
	// and cancels the rest.
	Abort <-chan struct{}
	// Executor runs the processes of every gate; nil means process groups (Unix).
	Executor Executor
	// Kinds executes the gates of kinds other than check, which the runner runs itself; a gate
	// of a kind missing here is gauntlet's own error ("not supported by this build").
	Kinds map[gates.Kind]Kind
	// Readers gives each gate the readers of its output (findings parsers, cause catalogue).
	Readers ReadersFunc
	// Invocations may run a check gate's command in another form that checks the same (see
	// Invocation).
	Invocations InvocationsFunc
	// BaseDone, when set, is called once, from the scheduling goroutine, after every gate of the
	// base has finished and before the first gate the change added (Gate.AfterBase) starts: the
	// caller reads there the tree the base's gates judged, which no gate is changing then.
	BaseDone func()
}

// Run executes gs and returns their results in the same order. Gates start in input order, each
// once the gates it needs have finished (see schedule). Cancelling ctx stops every gate (SIGTERM, then SIGKILL after Grace) and reports them
// cancelled; when ctx ends by its deadline, running gates are reported timed out instead.
// Run returns only after every process it started is killed and every goroutine has ended.
func Run(ctx context.Context, gs []gates.Gate, opts Options) []gates.Result {
	r := newRun(ctx, opts)
	defer r.stop()
	return r.schedule(gs)
}

// run is the state shared by the gates of one Run.
type run struct {
	opts   Options
	parent context.Context
	ctx    context.Context // ends on parent end, fail-fast or abort
	cancel context.CancelCauseFunc
	// kept is the context of the gates FinishStarted names: it ends on parent end or abort, not
	// on fail-fast.
	kept       context.Context
	cancelKept context.CancelCauseFunc
	executor   Executor
	observer   Observer

	stopWatch    chan struct{}
	watchStopped chan struct{}
	sweepStopped chan struct{}

	// failOnce arms fail-fast once; failTimer is its grace, stopped with the run.
	failOnce  sync.Once
	failTimer *time.Timer

	// logs is the log directory, opened by the first gate that logs (Options.OpenLogs).
	logs func() (*os.Root, error)
}

// strayReapInterval is how often the zombies of a gate's orphans are collected while gates run.
const strayReapInterval = 500 * time.Millisecond

func newRun(parent context.Context, opts Options) *run {
	opts.Jobs = max(opts.Jobs, 1)
	if opts.Grace <= 0 {
		opts.Grace = DefaultGrace
	}
	if opts.StopSignalWindow <= 0 {
		opts.StopSignalWindow = DefaultStopSignalWindow
	}
	if opts.MaxLogBytes <= 0 {
		opts.MaxLogBytes = DefaultMaxLogBytes
	}
	if opts.Env == nil {
		opts.Env = os.Environ()
	}
	ctx, cancel := context.WithCancelCause(parent)
	kept, cancelKept := context.WithCancelCause(parent)
	r := &run{
		opts:         opts,
		parent:       parent,
		ctx:          ctx,
		cancel:       cancel,
		kept:         kept,
		cancelKept:   cancelKept,
		executor:     opts.Executor,
		observer:     opts.Observer,
		stopWatch:    make(chan struct{}),
		watchStopped: make(chan struct{}),
	}
	if r.executor == nil {
		r.executor = newGroupExecutor(opts.Grace, opts.Abort)
	}
	switch {
	case opts.Logs != nil:
		r.logs = func() (*os.Root, error) { return opts.Logs, nil }
	case opts.OpenLogs != nil:
		r.logs = sync.OnceValues(opts.OpenLogs)
	}
	if r.observer == nil {
		r.observer = silentObserver{}
	}
	select {
	case <-opts.Abort:
		// Already aborted: decide now rather than race the watcher against the first gate.
		cancel(errAborted)
		cancelKept(errAborted)
	default:
	}
	go r.watchAbort()
	r.sweepStopped = make(chan struct{})
	go r.reapStrays()
	return r
}

// reapStrays collects, while the gates run, the zombies of processes they orphaned: gauntlet is
// their subreaper, and nobody else will. No-op where gauntlet is no subreaper.
func (r *run) reapStrays() {
	defer close(r.sweepStopped)
	if !proc.Enabled() {
		return
	}
	tick := time.NewTicker(strayReapInterval)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			proc.ReapStrays()
		case <-r.stopWatch:
			return
		}
	}
}

func (r *run) watchAbort() {
	defer close(r.watchStopped)
	select {
	case <-r.opts.Abort:
		r.cancel(errAborted)
		r.cancelKept(errAborted)
	case <-r.stopWatch:
	}
}

func (r *run) stop() {
	r.failOnce.Do(func() {}) // no timer may be armed from here on
	if r.failTimer != nil {
		r.failTimer.Stop()
	}
	close(r.stopWatch)
	<-r.watchStopped
	<-r.sweepStopped
	r.cancel(nil)
	r.cancelKept(nil)
}

type silentObserver struct{}

func (silentObserver) Started(gates.Gate, time.Time) {}
func (silentObserver) Output(string, []byte)         {}
func (silentObserver) Finished(gates.Result)         {}
