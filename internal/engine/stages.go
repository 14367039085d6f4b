package engine

import (
	"context"
	"errors"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/census"
	"github.com/gauntlet-dev/gauntlet/internal/integrity"
	"github.com/gauntlet-dev/gauntlet/internal/redact"
	"github.com/gauntlet-dev/gauntlet/internal/remotecache"
	"github.com/gauntlet-dev/gauntlet/internal/report"
	"github.com/gauntlet-dev/gauntlet/internal/runlog"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/lock"
	"github.com/gauntlet-dev/gauntlet/runner"
)

// execution is one run in progress, as Execute's stages hand it on: what each stage decided, for
// the stages after it.
type execution struct {
	req  Request
	cfg  *config.Config
	snap *snapshot.Snapshot
	sel  *Selection
	sd   *state.Dir

	started time.Time
	runID   string
	logs    *runLogs
	// deadRun and leftovers are the run before this one that was killed, and how many of its
	// processes this one found and killed.
	deadRun   string
	leftovers int
	// cleanup is undone in reverse order when the run ends.
	cleanup []func()

	// consult's: the gates left to run, the results of a background judge, the cache.
	toRun    []gates.Gate
	judged   []gates.Result
	hits     *cached
	cacheErr error

	// environment's: the gates' environment, the redactor of its secrets, the observer.
	env      []string
	secrets  *redact.Redactor
	observer runner.Observer

	// checkChange's: the integrity of the change, the tree before the gates.
	integrity    integrity.Result
	integrityErr error
	before       *treeBefore

	// runGates': the judgements after the run read what the stages of the run saw.
	cold  *coldJudge
	live  *liveView
	judge *baseJudge
	tests *censusStage
	added *addedWatch
	// addedWrote is the attempt the gates the change added made on the tree, if any.
	addedWrote []gates.IntegrityFinding

	// judgeResults': the gates whose census and coverage were both compared with the base's.
	vouching map[string]census.Census
	// vouchedByBaseTests are the gates whose base tests passed against the change's code
	// (expectationChanged's clean): they outweigh assertions-dropped where coverage is not read.
	vouchedByBaseTests map[string]census.Census

	afterOnce sync.Once
	treeAfter *snapshot.Tree
	afterErr  error
}

// begin is the first stage: the run's reading of the repository (the request's, or one of its
// own), the selection of gates, the state directory and the lock, the run's id and logs, and the
// claim on the state that reaps a killed run's leftovers. An error means the run cannot happen.
func begin(ctx context.Context, req Request) (*execution, error) {
	req.Scope = resolvePushed(ctx, req.Config.Root, req.Scope)
	e := &execution{req: req, cfg: req.Config, snap: req.Snapshot}
	if e.snap == nil {
		e.snap = NewSnapshot(e.cfg, req.Scope)
	}
	sel, err := selectGates(ctx, e.cfg, req.Scope, e.snap)
	if err != nil {
		return nil, err
	}
	e.sel = sel
	sd, closeState, err := openState(req)
	if err != nil {
		return nil, &StateError{err}
	}
	e.sd = sd
	e.cleanup = append(e.cleanup, closeState)
	if !req.Locked {
		held, err := lock.AcquireFor(ctx, sd.Path(), req.LockWait, lockPurpose(req, sel))
		if err != nil {
			e.end()
			return nil, err
		}
		e.cleanup = append(e.cleanup, func() { held.Release() })
	}
	e.started = time.Now()
	e.runID = state.NewRunID(e.started)
	// The run's log directory is made when a gate first prints something: a run of quiet gates
	// (or one answered from the cache) writes none, and has none to prune for.
	e.logs = &runLogs{sd: sd, runID: e.runID, keep: e.cfg.KeepRuns}
	e.cleanup = append(e.cleanup, e.logs.close)
	deadRun, leftovers, unclaim, err := claimRun(sd, e.runID, req.Unlocked)
	if err != nil {
		e.end()
		return nil, &StateError{err}
	}
	e.deadRun, e.leftovers = deadRun, leftovers
	e.cleanup = append(e.cleanup, unclaim)
	return e, nil
}

// lockPurpose is what the run records with the lock, for `gauntlet status` to show.
func lockPurpose(req Request, sel *Selection) lock.Purpose {
	p := lock.Purpose{Kind: lock.KindRun}
	if req.StopHook {
		p.Kind = lock.KindStopHook
	}
	for _, g := range sel.Run {
		p.Gates = append(p.Gates, g.Name)
	}
	return p
}

// end undoes what the stages set up, the last first.
func (e *execution) end() {
	for i := len(e.cleanup) - 1; i >= 0; i-- {
		e.cleanup[i]()
	}
	e.cleanup = nil
}

// consult takes what is already known: a background judge's results on this state, then the
// cache; the gates left are the ones to run (setup steps first, since they start first).
func (e *execution) consult(ctx context.Context) {
	toRun, judged := skipAfterJudged(useJudged(e.req, e.sel.Run))
	e.toRun, e.hits, e.cacheErr = consultCache(ctx, e.req, e.snap, e.sd, slices.Concat(e.sel.Setup, toRun))
	e.toRun, e.judged = withoutIdleSetup(e.toRun), judged
	if e.req.Starting != nil {
		e.req.Starting(e.runID, e.toRun)
	}
}

// environment decides which environment the gates run in (the request's, else gauntlet's own,
// without the remote cache's signing key), and redacts its secrets from everything shown.
func (e *execution) environment() {
	env := e.req.Env
	if env == nil {
		env = os.Environ()
	}
	e.secrets = e.cfg.Redactor(slices.Concat(env, e.req.ExtraEnv))
	e.env = remotecache.WithoutSigningKey(env) // after the redactor, which must still know its value
	if e.req.Observer != nil {
		e.observer = sanitizingObserver{e.req.Observer, e.secrets}
	}
}

// checkChange judges the change's integrity, and reads the tree before the gates when a gate
// that must not write runs (to blame the one that does).
func (e *execution) checkChange(ctx context.Context) {
	e.integrity, e.integrityErr = checkIntegrity(ctx, e.req, e.snap)
	if slices.ContainsFunc(e.toRun, func(g gates.Gate) bool { return !g.Writes && !g.Setup && isCheck(g) }) {
		e.before = readTreeBefore(ctx, e.snap)
	}
}

// runGates runs the gates, with the stages that read each gate's output as it runs: causes,
// findings (new_only's base), the test census; the live view shows each gate with the status the
// judgements after the run give it.
func (e *execution) runGates(ctx context.Context) []gates.Result {
	cfg, req := e.cfg, e.req
	e.cold = newColdJudge(gatesByName(cfg))
	e.live = newLiveView(e.observer, e.cold, gatesByName(cfg), e.before != nil, req.StopHook)
	e.live.answered(slices.Concat(e.hits.results, e.judged))
	added := newOnlyChange(ctx, e.snap, e.toRun)
	// The base's logs go beside the gates' (under base/).
	e.judge = &baseJudge{root: cfg.Root, snap: e.snap, sd: e.sd, openLogs: e.logs.open, prefix: e.sd.RunLogsPrefix(e.runID),
		env: e.env, extra: req.ExtraEnv, grace: req.Grace, abort: req.Abort, runID: e.runID, noCache: req.NoCache, remote: e.hits.remote,
		sessionEnv: req.SessionEnv, startInputs: req.StartInputs, notChange: req.NotTheChange, sessionPinned: req.SessionPinned, stateAt: req.StateAt}
	e.tests = newCensusStage(ctx, cfg.Root, e.sd, e.runID, e.env, req.ExtraEnv, e.toRun)
	e.cleanup = append(e.cleanup, e.judge.close, e.tests.close)
	e.added = newAddedWatch(ctx, e)
	ran := runner.Run(ctx, e.toRun, runner.Options{
		RunID: e.runID, Root: cfg.Root, OpenLogs: e.logs.open, LogPrefix: e.sd.RunLogsPrefix(e.runID),
		Jobs: cfg.Jobs, FailFast: cfg.FailFast || req.FailFast, FailGrace: failGrace(cfg, req), FinishStarted: finishStarted(cfg, req),
		Env: e.env, ExtraEnv: req.ExtraEnv, Grace: req.Grace, Observer: e.live.observer(), Abort: req.Abort,
		Kinds: kinds(e.snap, e.secrets, req.StopHook, e.judge.projectRoot),
		// A gate the host signalled with the hook is not the change's failure.
		StopSignalWindow: req.StopSignalWindow,
		// Causes first: their probes settle before new_only compares findings with the base, which
		// a gate failed by its environment does not need.
		Readers: joinReaders(causeReaders(cfg.Root, slices.Concat(e.env, req.ExtraEnv)),
			findingReaders(cfg.Root, e.judge, added), e.tests.readers),
		Invocations: e.tests.invocations,
		BaseDone:    e.added.baseDoneFunc(ctx),
	})
	// The base's checkout goes before the worktree is read again for gates that wrote.
	e.judge.close()
	if f, ok := e.added.finding(ctx, ran, gatesByName(cfg), ConfigFile(cfg)); ok {
		e.addedWrote = append(e.addedWrote, f)
	}
	return ran
}

// treeAfterRun reads the worktree again, at most once after the gates ran, for the first that
// needs it: the check for gates that wrote, the cache (which stores passes only for the state
// they were judged on), and the stop hook, which records a pass on the same condition.
func (e *execution) treeAfterRun(ctx context.Context) func() (*snapshot.Tree, error) {
	return func() (*snapshot.Tree, error) {
		e.afterOnce.Do(func() { e.treeAfter, e.afterErr = NewSnapshot(e.cfg, e.req.Scope).Tree(ctx) })
		return e.treeAfter, e.afterErr
	}
}

// judgeResults judges what the runner cannot: a check that wrote to the tree fails; an error
// excuses the agent only when the base fails the same way here; every test that passed at the
// base still runs and passes, and untouched code stays covered (lost: the findings). Passes are
// remembered once they are final.
func (e *execution) judgeResults(ctx context.Context, ran []gates.Result) (final []gates.Result, lost []gates.IntegrityFinding) {
	afterRun := e.treeAfterRun(ctx)
	if e.before != nil {
		// Before the cache records passes: a gate that wrote did not pass.
		ran = blameWrites(e.cfg.Root, e.before.changedSince(ctx, afterRun), ran, gatesByName(e.cfg))
	}
	// The base's checkout is made again if new_only's was removed above.
	ran = e.unexcused(ran)
	ran = e.live.settle(earnErrors(ctx, e.req, e.judge, e.cold.all(ran), gatesAndSetupByName(e.cfg)))
	change := &changeReading{snap: e.snap}
	lost, e.vouching = passToPass(ctx, e.req, e.judge, change, e.tests, ran, gatesByName(e.cfg))
	changed, clean := e.expectationChanged(ctx, ran, change)
	lost = append(lost, changed...)
	e.vouchedByBaseTests = clean
	ran = e.blame(ctx, ran)
	e.judge.close()
	ran = e.tests.attach(ran)
	e.cacheErr = errors.Join(e.cacheErr, e.hits.remember(ctx, e.runID, ran, afterRun))
	return ran, lost
}

// assemble makes the run's record and report: every gate in config order, the integrity
// findings first as the reason shows them, the verdict.
func (e *execution) assemble(ran []gates.Result, lost []gates.IntegrityFinding) *Run {
	cfg, req := e.cfg, e.req
	all := slices.Concat(ran, e.hits.results, e.judged)
	run := &Run{
		ID: e.runID, Started: e.started, Duration: time.Since(e.started),
		Results:   sanitize(merge(cfg, e.sel, all), e.secrets),
		Setup:     sanitize(mergeSetup(e.sel, all), e.secrets),
		Selection: e.sel, Leftovers: e.leftovers, LeftoversOf: e.deadRun,
		TreeAfter: e.treeAfter, Executed: len(e.toRun), censuses: e.tests.censuses(),
		CacheErr: e.cacheErr,
	}
	shapes := measuredOutweighShapes(e.integrity.Findings, lost, e.vouching, e.vouchedByBaseTests)
	run.Integrity = sanitizeIntegrity(withSessionFindings(slices.Concat(e.addedWrote, shapes, lost), req), e.secrets)
	run.IntegrityErr = e.integrityErr
	run.Verdict = gates.VerdictWithIntegrity(gates.CountedVerdict(slices.Concat(run.Setup, run.Results), req.Counts), run.Integrity)
	run.FirstFailure = firstFailure(ran)
	run.Report = report.New(e.runID, e.started, run.Duration, run.Results).WithSetup(e.started, run.Setup)
	run.Report.Verdict = run.Verdict
	run.Report.Integrity = run.Integrity
	run.Report.NotCounted = notCounted(req.Counts)
	run.Report.IntegritySkipped = e.integrity.Skipped
	run.Report.ConfigDigest = cfg.ContentDigest
	run.Report.LocalOverrides = config.OverrideNames(cfg.Overrides)
	run.Report.AllGatesBecause = e.sel.AllBecause
	run.Report.ScopedTo = e.sel.ScopedTo
	placeGates(&run.Report, cfg)
	if req.Scope.Shard.N > 0 {
		run.Report.Shard = req.Scope.Shard.String()
	}
	return run
}

// appendRunLog adds the run to the run history, marked as a stop's when it was one.
func appendRunLog(sd *state.Dir, r report.Report, stop bool) error {
	rec := runlog.Of(r)
	rec.Stop = stop
	return runlog.Append(sd, rec)
}

// record keeps the run: the last run's report, its line in the run history (read by the history
// page), the gates' timings (not for a shard, which sees only some), and the caller's own record. The caller's callback runs even when the
// report could not be written: what it records (the stop hook's attempt count) must not be lost.
func (e *execution) record(run *Run) error {
	err := errors.Join(e.logs.pruneErr, writeLastRun(e.sd, run.Report), appendRunLog(e.sd, run.Report, e.req.Session != ""))
	if e.req.Scope.Shard.N == 0 {
		err = errors.Join(err, recordTimings(e.sd, e.cfg, run.Results))
	}
	if e.req.Recorded != nil {
		err = errors.Join(err, e.req.Recorded(run))
	}
	if err != nil {
		return &StateError{err}
	}
	return nil
}
