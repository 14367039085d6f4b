package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/census"
	"github.com/gauntlet-dev/gauntlet/internal/filesarg"
	"github.com/gauntlet-dev/gauntlet/internal/report"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/internal/toolid"
	"github.com/gauntlet-dev/gauntlet/runner"
)

// LastRunFile is where every run's JSON report is kept, relative to the state dir.
const LastRunFile = "last-run.json"

// Request is one run of the pipeline.
type Request struct {
	Config   *config.Config
	Scope    Scope
	LockWait time.Duration // 0: fail at once when another run holds the lock
	Env      []string      // base environment of every gate (normally os.Environ())
	ExtraEnv []string      // added after the gate's own env (the stop hook's context)
	// Observer is told each gate's final result (see liveView); one with a Settling method is
	// also told of a gate whose process ended while its status waits for the check of writes.
	Observer runner.Observer
	Abort    <-chan struct{}
	Grace    time.Duration
	// StopSignalWindow is runner.Options.StopSignalWindow; 0 is the runner's default.
	StopSignalWindow time.Duration
	// Starting is called once the lock is held and the run id is known, before any gate starts.
	Starting func(runID string, toRun []gates.Gate)
	// Recorded is called after the run is recorded, still under the lock, so that what a caller
	// keeps about runs (the stop hook's ledger) is updated by one process at a time.
	Recorded func(run *Run) error
	// FailFast stops the other gates after the first required failure, FailGrace later (the stop
	// hook's first_failure); the config's fail_fast still applies without it, at once.
	FailFast  bool
	FailGrace time.Duration
	// Judged are results a background judge found on this very state (the caller checked its
	// fingerprint): those gates are not run again.
	Judged []gates.Result
	// NoCache runs every gate even when the per-gate cache holds its pass (--no-cache).
	NoCache bool
	// Session is the agent's session id in the stop hook, "" in `run`: a gate whose result
	// depends on the session is answered from the cache only within its own session.
	Session string
	// SessionInputs is what else of the session decides a todos gate (its todo list).
	SessionInputs []byte
	// Snapshot is the run's one reading of the repository, which the caller may already have
	// read from (the stop hook's fingerprint), so that nothing asks git twice; nil makes one
	// (NewSnapshot), read only as far as the gates need it.
	Snapshot *snapshot.Snapshot
	// Tools names the gates' programs and toolchains for the cache keys; nil makes a new one. The
	// stop hook shares its own, so that `go env` runs once per call.
	Tools *toolid.Resolver
	// Locked says the caller already holds the run lock (the stop hook, which decides how long
	// to wait for it): Execute neither takes nor releases it.
	Locked bool
	// StopHook says the run judges an agent's stop: integrity findings default to block there,
	// to warn in `run`.
	StopHook bool
	// BaseJudged says Config is the one at the agent session's base, combined with the gates the
	// change adds (internal/baseconfig): integrity's own reading of the config file would repeat
	// what the stop hook found about it. SessionFindings are what the stop hook found about the
	// session: the change's alterations of the base's config, an environment that differs from
	// the session's start. They come first among the run's integrity findings.
	BaseJudged      bool
	SessionFindings []gates.IntegrityFinding
	// SessionEnv is what steered the tools at the agent session's start (envid.Steering), from
	// its record; nil outside a session. The base's test census and coverage stored under it
	// are compared with when none is stored under the environment of this run: a change of
	// environment that runs fewer tests (go env -w GOFLAGS=-run=^$) would run fewer at the base
	// too.
	SessionEnv map[string]string
	// StartInputs are the project's ignored inputs (a .env) as the agent session's start had
	// them (IgnoredInputs), from its record: the base's checkout is lent these, so that one broken
	// during the session breaks the base no more. nil lends them as they are.
	StartInputs map[string][]byte
	// SessionPinned is when the agent session's base was pinned, from its record; zero outside a
	// session. Measures of the base taken from a run in the work tree after it are not the base's
	// (worktreebase.go). StateAt is when the state the run judges was asked for (a background
	// judge's request); zero means the run's own time.
	SessionPinned, StateAt time.Time
	// State is the state directory to run in, already open (the stop hook's, which may stand in
	// for a .gauntlet the agent made unusable); nil opens the project's own. The caller closes it.
	State *state.Dir
	// Unlocked (with Locked) says the caller judges without the run lock, which something else
	// held past the wait: nothing of the run in progress (its record, its processes) is touched.
	Unlocked bool
	// Blame decides whose each failure is (gates.Blame): against the base's stored measures, and
	// by running the base and failing tests again alone where StopHook or NewOnly allow it.
	Blame bool
	// NewOnly (`run --new-only`) runs the base to blame failures as the stop hook does.
	NewOnly bool
	// Counts says which failures count in the verdict, by their blame; nil counts every one (a
	// plain `run`: a red main stays red). A failure that does not count is a warning.
	Counts func(gates.Blame) bool
	// NotTheChange are root-relative files the caller itself has just written (init's config and
	// .gitignore before its first run): a tree that differs from its commit by these alone is the
	// commit's, so the run keeps its test census and coverage as the base's.
	NotTheChange []string
}

// Run is what one pipeline run produced.
type Run struct {
	ID       string
	Started  time.Time
	Duration time.Duration
	Results  []gates.Result // every reported gate in config order, skipped ones included
	// Setup are the setup steps the selected gates need, in config order: run, cached, or
	// skipped when no gate that ran needed them. Their failures count in the verdict.
	Setup     []gates.Result
	Verdict   gates.Verdict
	Report    report.Report
	Selection *Selection
	// FirstFailure is the gate whose failure finished first: with fail-fast, the root cause.
	FirstFailure string
	// CacheErr is a problem with the per-gate cache; it never changes the verdict (the gates it
	// could not answer ran), so callers only mention it.
	CacheErr error
	// Leftovers is how many processes of a previous run, killed before it could stop its gates,
	// this run found still running and killed; LeftoversOf names that run.
	Leftovers   int
	LeftoversOf string
	// Integrity are the ways the change weakens the gates, each at its level; they count in
	// Verdict. IntegrityErr is a failure to judge them (git failing), which never changes the
	// verdict: callers only mention it.
	Integrity    []gates.IntegrityFinding
	IntegrityErr error
	// TreeAfter is the work tree as read once the gates had run (to find gates that wrote, or for
	// the cache to check that the state its passes are about is still the state); nil when nothing
	// read it.
	TreeAfter *snapshot.Tree
	// Executed is how many gates (and setup steps) this run started; the others were answered
	// from the cache or a background judge's results, which are about the state read before.
	Executed int
	// censuses are the test censuses of the gates this run ran, whole (see Census).
	censuses map[string]census.Census
}

// StateError means the state dir could not be used; the run could not even start.
type StateError struct{ Err error }

func (e *StateError) Error() string { return e.Err.Error() }
func (e *StateError) Unwrap() error { return e.Err }

// Execute selects, locks, runs and records. It returns an error only when the run could not
// happen at all; gate failures are in the Run's verdict. Each stage is a method of the run in
// progress (stages.go) and hands on what it decided; docs/architecture.md shows what each reads
// and writes.
func Execute(ctx context.Context, req Request) (*Run, error) {
	// Which base and which config judge are the request's (the stop hook decides them for a
	// session); begin reads the repository with them and selects the gates.
	e, err := begin(ctx, req)
	if err != nil {
		return nil, err
	}
	defer e.end()
	e.consult(ctx)     // a background judge's results and the cache answer what they can
	e.environment()    // which environment the gates run in, its secrets redacted
	e.checkChange(ctx) // the change's integrity, and the tree before the gates
	ran, lost := e.judgeResults(ctx, e.runGates(ctx))
	run := e.assemble(ran, lost)
	return run, e.record(run)
}

// finishStarted lets, under the stop hook's first_failure, a test gate that had started before
// the grace ran out run to its end: a test's own failure tells the agent more than the first
// findings of a linter, and stopping it would leave the change's real failure for a later stop.
// A config's own fail_fast stops everything at once.
func finishStarted(cfg *config.Config, req Request) func(gates.Gate) bool {
	if failGrace(cfg, req) <= 0 {
		return nil
	}
	return func(g gates.Gate) bool { return PlanCensus(g).TestGate }
}

// failGrace is the grace of the stop hook's first_failure; a config's own fail_fast means at once.
func failGrace(cfg *config.Config, req Request) time.Duration {
	if cfg.FailFast || !req.FailFast {
		return 0
	}
	return req.FailGrace
}

func writeLastRun(sd *state.Dir, r report.Report) error {
	var buf bytes.Buffer
	if err := report.WriteJSON(&buf, r); err != nil {
		return fmt.Errorf("encode %s: %w", LastRunFile, err)
	}
	return sd.WriteFileAtomic(LastRunFile, buf.Bytes())
}

// merge puts run and skipped gates back into config order, so every report reads the same way.
func merge(cfg *config.Config, sel *Selection, ran []gates.Result) []gates.Result {
	byName := make(map[string]gates.Result, len(ran))
	for _, r := range ran {
		byName[r.Name] = r
	}
	gateByName := make(map[string]gates.Gate, len(cfg.Gates))
	for _, g := range cfg.Gates {
		gateByName[g.Name] = g
	}
	out := make([]gates.Result, 0, len(sel.Order))
	for _, name := range sel.Order {
		g := gateByName[name]
		r, ok := byName[name]
		if !ok {
			r = gates.Result{
				Name:     name,
				Kind:     g.Kind,
				Status:   gates.StatusSkipped,
				ExitCode: -1,
				Reason:   sel.Skipped[name],
				Hint:     g.Hint,
				Command:  g.Command(),
			}
		}
		r.Needs, r.Fix = g.Needs, g.Fix
		r.RerunAll = sel.All && filesarg.Uses(g)
		out = append(out, r)
	}
	return out
}

// mergeSetup reports each setup step the selection needs: its result when it ran or was cached,
// else skipped, since every gate that needs it was answered from the cache.
func mergeSetup(sel *Selection, all []gates.Result) []gates.Result {
	byName := make(map[string]gates.Result, len(all))
	for _, r := range all {
		byName[r.Name] = r
	}
	out := make([]gates.Result, 0, len(sel.Setup))
	for _, g := range sel.Setup {
		r, ok := byName[g.Name]
		if !ok {
			r = gates.Result{
				Name:     g.Name,
				Kind:     g.Kind,
				Status:   gates.StatusSkipped,
				ExitCode: -1,
				Reason:   "not needed: every gate that needs it was answered from the cache",
				Hint:     g.Hint,
				Command:  g.Command(),
			}
		}
		r.Setup = true
		r.NeededBy = sel.NeededBy[g.Name]
		out = append(out, r)
	}
	return out
}

// withoutIdleSetup drops the setup steps no gate left to run needs: a step runs only for a gate
// that runs.
func withoutIdleSetup(toRun []gates.Gate) []gates.Gate {
	needed := map[string]bool{}
	for _, g := range toRun {
		if !g.Setup {
			for _, n := range g.Needs {
				needed[n] = true
			}
		}
	}
	return slices.DeleteFunc(toRun, func(g gates.Gate) bool { return g.Setup && !needed[g.Name] })
}

func firstFailure(results []gates.Result) string {
	var first string
	var at time.Time
	for _, r := range results {
		if r.Status != gates.StatusFail {
			continue
		}
		end := r.Started.Add(r.Duration)
		if first == "" || end.Before(at) {
			first, at = r.Name, end
		}
	}
	return first
}

func gatesByName(cfg *config.Config) map[string]gates.Gate {
	out := make(map[string]gates.Gate, len(cfg.Gates))
	for _, g := range cfg.Gates {
		out[g.Name] = g
	}
	return out
}

func gatesAndSetupByName(cfg *config.Config) map[string]gates.Gate {
	out := gatesByName(cfg)
	for _, g := range cfg.Setup {
		out[g.Name] = g
	}
	return out
}

// runLogs makes the run's log directory when the first gate logs, and prunes the directories of
// older runs then: keep_runs bounds the directories there are, and a run that makes none adds
// none.
type runLogs struct {
	mu    sync.Mutex // the runner and the base's judge may both open it
	sd    *state.Dir
	runID string
	keep  int
	root  *os.Root
	// pruneErr is a failure to remove older runs' logs: the run's own logs are still written,
	// and the error is reported with the run's record.
	pruneErr error
}

func (l *runLogs) open() (*os.Root, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.root != nil {
		return l.root, nil
	}
	root, _, err := l.sd.NewRunLogs(l.runID)
	if err != nil {
		return nil, err
	}
	l.root = root
	l.pruneErr = l.sd.PruneRuns(l.keep, l.runID)
	return root, nil
}

// close closes the directory if a gate opened it; runner.Run has returned by then.
func (l *runLogs) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.root != nil {
		l.root.Close()
	}
}
