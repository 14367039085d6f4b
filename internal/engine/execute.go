package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/census"
	"github.com/gauntlet-dev/gauntlet/internal/remotecache"
	"github.com/gauntlet-dev/gauntlet/internal/report"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/internal/toolid"
	"github.com/gauntlet-dev/gauntlet/lock"
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
	// State is the state directory to run in, already open (the stop hook's, which may stand in
	// for a .gauntlet the agent made unusable); nil opens the project's own. The caller closes it.
	State *state.Dir
	// Unlocked (with Locked) says the caller judges without the run lock, which something else
	// held past the wait: nothing of the run in progress (its record, its processes) is touched.
	Unlocked bool
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
// happen at all; gate failures are in the Run's verdict.
func Execute(ctx context.Context, req Request) (*Run, error) {
	cfg := req.Config
	snap := req.Snapshot
	if snap == nil {
		snap = NewSnapshot(cfg, req.Scope)
	}
	sel, err := selectGates(ctx, cfg, req.Scope, snap)
	if err != nil {
		return nil, err
	}

	sd, closeState, err := openState(req)
	if err != nil {
		return nil, &StateError{err}
	}
	defer closeState()

	if !req.Locked {
		held, err := lock.Acquire(ctx, sd.Path(), req.LockWait)
		if err != nil {
			return nil, err
		}
		defer held.Release()
	}

	started := time.Now()
	runID := state.NewRunID(started)
	// The run's log directory is made when a gate first prints something: a run of quiet gates
	// (or one answered from the cache) writes none, and has none to prune for.
	logs := &runLogs{sd: sd, runID: runID, keep: cfg.KeepRuns}
	defer logs.close()

	deadRun, leftovers, unclaim, err := claimRun(sd, runID, req.Unlocked)
	if err != nil {
		return nil, &StateError{err}
	}
	defer unclaim()

	toRun, judged := skipAfterJudged(useJudged(req, sel.Run))
	// Setup steps go first: they start first when gates wait for them.
	toRun, hits, cacheErr := consultCache(ctx, req, snap, sd, slices.Concat(sel.Setup, toRun))
	toRun = withoutIdleSetup(toRun)
	if req.Starting != nil {
		req.Starting(runID, toRun)
	}
	env := req.Env
	if env == nil {
		env = os.Environ()
	}
	secrets := cfg.Redactor(slices.Concat(env, req.ExtraEnv))
	env = remotecache.WithoutSigningKey(env) // after the redactor, which must still know its value
	observer := req.Observer
	if observer != nil {
		observer = sanitizingObserver{observer, secrets}
	}
	integrityRes, integrityErr := checkIntegrity(ctx, req, snap)
	var before *treeBefore
	if slices.ContainsFunc(toRun, func(g gates.Gate) bool { return !g.Writes && !g.Setup && isCheck(g) }) {
		before = readTreeBefore(ctx, snap)
	}
	// The live view shows each gate with the status the judgements below give it.
	cold := newColdJudge(sd, gatesByName(cfg))
	live := newLiveView(observer, cold, gatesByName(cfg), before != nil, req.StopHook)
	added := newOnlyChange(ctx, snap, toRun)
	// The base's logs go beside the gates' (under base/).
	judge := &baseJudge{root: cfg.Root, snap: snap, sd: sd, openLogs: logs.open, prefix: sd.RunLogsPrefix(runID),
		env: env, extra: req.ExtraEnv, grace: req.Grace, abort: req.Abort, runID: runID, noCache: req.NoCache, remote: hits.remote,
		sessionEnv: req.SessionEnv}
	defer judge.close()
	tests := newCensusStage(ctx, cfg.Root, sd, runID, env, req.ExtraEnv, toRun)
	defer tests.close()
	ran := runner.Run(ctx, toRun, runner.Options{
		RunID:     runID,
		Root:      cfg.Root,
		OpenLogs:  logs.open,
		LogPrefix: sd.RunLogsPrefix(runID),
		Jobs:      cfg.Jobs,
		FailFast:  cfg.FailFast || req.FailFast,
		FailGrace: failGrace(cfg, req),
		Env:       env,
		ExtraEnv:  req.ExtraEnv,
		Grace:     req.Grace,
		Observer:  live.observer(),
		Abort:     req.Abort,
		Kinds:     kinds(snap),
		// A gate the host signalled with the hook is not the change's failure.
		StopSignalWindow: req.StopSignalWindow,
		// Causes first: their probes settle before new_only compares findings with the base, which
		// a gate failed by its environment does not need.
		Readers: joinReaders(causeReaders(cfg.Root, slices.Concat(env, req.ExtraEnv)),
			findingReaders(cfg.Root, judge, added), tests.readers),
		Invocations: tests.invocations,
	})
	// The base's checkout goes before the worktree is read again for gates that wrote.
	judge.close()

	// The worktree is read again at most once after the gates ran, by the first that needs it:
	// the check for gates that wrote, the cache (which stores passes only for the state they were
	// judged on), and the stop hook, which records a pass on the same condition.
	var (
		afterOnce sync.Once
		treeAfter *snapshot.Tree
		afterErr  error
	)
	afterRun := func() (*snapshot.Tree, error) {
		afterOnce.Do(func() { treeAfter, afterErr = NewSnapshot(cfg, req.Scope).Tree(ctx) })
		return treeAfter, afterErr
	}
	if before != nil {
		// Before the cache records passes: a gate that wrote did not pass.
		ran = blameWrites(cfg.Root, before.changedSince(ctx, afterRun), ran, gatesByName(cfg))
	}
	// An error excuses the agent only when the base fails the same way here: the base's checkout
	// is made again if new_only's was removed above.
	ran = live.settle(earnErrors(ctx, req, judge, cold.all(ran), gatesAndSetupByName(cfg)))
	// Every test that passed at the base still runs and passes (the base's census, from its
	// checkout when it is not stored).
	lost := passToPass(ctx, req, judge, snap, tests, ran, gatesByName(cfg))
	judge.close()
	ran = tests.attach(ran)
	rememberErr := hits.remember(ctx, runID, ran, afterRun)
	cacheErr = errors.Join(cacheErr, rememberErr)
	all := slices.Concat(ran, hits.results, judged)
	run := &Run{
		ID:          runID,
		Started:     started,
		Duration:    time.Since(started),
		Results:     sanitize(merge(cfg, sel, all), secrets),
		Setup:       sanitize(mergeSetup(sel, all), secrets),
		Selection:   sel,
		Leftovers:   leftovers,
		LeftoversOf: deadRun,
		TreeAfter:   treeAfter,
		Executed:    len(toRun),
		censuses:    tests.censuses(),
	}
	run.Integrity = sanitizeIntegrity(withSessionFindings(slices.Concat(integrityRes.Findings, lost), req), secrets)
	run.IntegrityErr = integrityErr
	run.Verdict = gates.VerdictWithIntegrity(gates.VerdictOf(slices.Concat(run.Setup, run.Results)), run.Integrity)
	run.FirstFailure = firstFailure(ran)
	run.Report = report.New(runID, started, run.Duration, run.Results).WithSetup(run.Setup)
	run.Report.Verdict = run.Verdict
	run.Report.Integrity = run.Integrity
	run.Report.IntegritySkipped = integrityRes.Skipped
	run.Report.ConfigDigest = cfg.ContentDigest
	run.Report.LocalOverrides = config.OverrideNames(cfg.Overrides)
	if req.Scope.Shard.N > 0 {
		run.Report.Shard = req.Scope.Shard.String()
	}

	// The callback runs even when the report could not be written: what it records (the stop
	// hook's attempt count) must not be lost with it.
	run.CacheErr = cacheErr
	recordErr := errors.Join(logs.pruneErr, writeLastRun(sd, run.Report))
	if req.Scope.Shard.N == 0 {
		recordErr = errors.Join(recordErr, recordTimings(sd, cfg, run.Results))
	}
	recordErr = errors.Join(recordErr, recordPasses(sd, gatesByName(cfg), run.Results))
	if req.Recorded != nil {
		recordErr = errors.Join(recordErr, req.Recorded(run))
	}
	if recordErr != nil {
		return run, &StateError{recordErr}
	}
	return run, nil
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
