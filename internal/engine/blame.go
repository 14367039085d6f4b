package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/baseline"
	"github.com/gauntlet-dev/gauntlet/internal/census"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/runner"
)

// Whose is a failure? SPEC §12: a regression (the change broke it), pre-existing (the base
// fails the same way, here) or flaky (it passed when run again alone, once). The engine decides
// it once, from measurements: each failing test's outcome at the base (its stored census, else
// those tests alone in the base's checkout) and on a rerun alone; each finding against the
// base's; else the gate at the base. Reports, the stop's decision and its reason read the blame.

// maxRerunTests bounds the tests run again alone for flakiness; past it, the rest stay
// regressions (a change that breaks fifty tests is not flaky).
const maxRerunTests = 10

// blamer holds what blaming a run's failures reads: the base's judge, the census of the run, and
// whether the base may be run for it.
type blamer struct {
	e       *execution
	runBase bool

	baseOnce sync.Once
	baseDefs map[string]string // the base config's gates' definitions, by name; nil when unread
}

// blame decides the blame of every failed check gate of the run. Where the base cannot be
// measured (no base, the base cannot be judged in time, a plain run without stored measures),
// the failure stays unblamed: a failure nothing excused is the change's.
func (e *execution) blame(ctx context.Context, ran []gates.Result) []gates.Result {
	if !e.req.Blame {
		return ran
	}
	b := &blamer{e: e, runBase: e.runsBaseToBlame()}
	byName := gatesByName(e.cfg)
	for i, r := range ran {
		g, ok := byName[r.Name]
		if !ok || r.Status != gates.StatusFail || r.Setup || r.Blame != "" || !isCheck(g) {
			continue
		}
		ran[i] = b.blameGate(ctx, g, r)
	}
	return ran
}

// blameGate blames one failed gate: by its tests when its census names what failed, else by its
// findings and the gate at the base.
func (b *blamer) blameGate(ctx context.Context, g gates.Gate, r gates.Result) gates.Result {
	j := b.e.judge
	j.readChange(ctx)
	if j.from == "" {
		return r
	}
	if j.unchanged {
		// A stop on a session that changed nothing: none of it is the agent's. A run on the base
		// itself has nothing to blame on anything else.
		if !b.e.req.StopHook {
			return r
		}
		return blamed(r, gates.BlamePreExisting, &gates.BlameDetail{Why: "nothing changed since " + j.source()})
	}
	if !b.definedAtBase(ctx, g) {
		// A gate the change adds or alters has no failure at the base to share: it is the change's.
		return blamed(r, gates.BlameRegression, &gates.BlameDetail{Why: "the gate is not defined so at " + j.source()})
	}
	// Only a gate that is its test runner alone is judged by its tests: another command of it could
	// have failed it with every test as at the base.
	if c, ok := b.e.tests.censuses()[r.Name]; ok && c.Complete && census.Sole(commandOf(g)) && (len(c.Failing()) > 0 || len(c.Failed) > 0) {
		if d, ok := b.byTests(ctx, g, c); ok {
			return blamed(r, d.blame(), &d.BlameDetail)
		}
	}
	return b.byFindings(ctx, g, r)
}

func blamed(r gates.Result, b gates.Blame, d *gates.BlameDetail) gates.Result {
	r.Blame, r.BlameDetail = b, d
	return r
}

// testBlame is the blame of a gate's failing tests, one list per kind.
type testBlame struct {
	gates.BlameDetail
	flakyCandidates []census.Test
}

func (d *testBlame) blame() gates.Blame {
	switch {
	case len(d.Regressions) > 0:
		return gates.BlameRegression
	case len(d.Flaky) > 0:
		return gates.BlameFlaky
	}
	return gates.BlamePreExisting
}

// byTests blames the failing tests and parts of census now: failing at the base too is
// pre-existing; passing there and failing again alone is a regression, passing alone is flaky;
// a test the base does not have is the change's. false when the base's outcomes cannot be had.
func (b *blamer) byTests(ctx context.Context, g gates.Gate, now census.Census) (testBlame, bool) {
	failing := now.Failing()
	base, ok := b.baseOutcomes(ctx, g, failing)
	if !ok {
		return testBlame{}, false
	}
	var d testBlame
	outcomes := base.Outcomes()
	for _, t := range failing {
		switch outcomes[t.ID] {
		case census.Fail:
			d.PreExisting = appendCapped(d.PreExisting, t.ID)
		case census.Pass:
			d.flakyCandidates = append(d.flakyCandidates, t)
		default:
			d.Regressions = appendCapped(d.Regressions, t.ID)
		}
	}
	for _, u := range now.Failed {
		if base.UnitFailed(u.Suite) {
			d.PreExisting = appendCapped(d.PreExisting, u.Suite+": "+u.Reason)
		} else {
			d.Regressions = appendCapped(d.Regressions, u.Suite+": "+u.Reason)
		}
	}
	b.rerun(ctx, g, &d)
	d.Why = testsWhy(&d, b.e.judge.source())
	return d, true
}

// rerun runs the tests that passed at the base and fail now again, once, alone: those that pass
// are flaky, the rest regressions. A test whose own file the change touched is not run again:
// the change may have made it depend on the order tests run in, which a rerun alone would hide.
func (b *blamer) rerun(ctx context.Context, g gates.Gate, d *testBlame) {
	var cands []census.Test
	for _, t := range d.flakyCandidates {
		if len(cands) < maxRerunTests && !b.e.judge.touched(ctx, t.File) {
			cands = append(cands, t)
		} else {
			d.Regressions = appendCapped(d.Regressions, t.ID)
		}
	}
	if len(cands) == 0 {
		return
	}
	again, ok := b.alone(ctx, b.e.cfg.Root, g, cands, "rerun", b.nowOptions())
	outcomes := again.Outcomes()
	for _, t := range cands {
		if ok && outcomes[t.ID] == census.Pass {
			d.Flaky = appendCapped(d.Flaky, t.ID)
		} else {
			d.Regressions = appendCapped(d.Regressions, t.ID)
		}
	}
}

func testsWhy(d *testBlame, source string) string {
	var parts []string
	if n := len(d.Regressions); n > 0 {
		parts = append(parts, fmt.Sprintf("%d failing that passed at %s or are new", n, source))
	}
	if n := len(d.Flaky); n > 0 {
		parts = append(parts, fmt.Sprintf("%d passed when run again alone", n))
	}
	if n := len(d.PreExisting); n > 0 {
		parts = append(parts, fmt.Sprintf("%d failing at %s too", n, source))
	}
	return strings.Join(parts, "; ")
}

// baseOutcomes is how the base ended the tests that fail now: its stored census (a background
// judge, CI on the default branch or an earlier stop kept it), else, where the base may be run,
// those tests alone in the base's checkout, else the base's whole census.
func (b *blamer) baseOutcomes(ctx context.Context, g gates.Gate, failing []census.Test) (census.Census, bool) {
	j := b.e.judge
	if m, ok := j.storedMeasures(ctx, g, j.censusKey(g)); ok && m.Census != nil {
		return *m.Census, true
	}
	if !b.runBase {
		return census.Census{}, false
	}
	if len(failing) > 0 {
		baseRoot, opts, done, err := j.prepare(ctx)
		if err == nil {
			c, ok := b.alone(ctx, baseRoot, g, failing, "base-alone", opts)
			done()
			if ok {
				return c, true
			}
		}
	}
	m, ok := j.measuredAtBase(ctx, g, true)
	if !ok || m.Census == nil {
		return census.Census{}, false
	}
	return *m.Census, true
}

// alone runs only tests of gate g, in root, and reads their census; false when g's runner
// cannot select tests by name or nothing was read.
func (b *blamer) alone(ctx context.Context, root string, g gates.Gate, tests []census.Test, tag string, opts runner.Options) (census.Census, bool) {
	plan := PlanCensus(g)
	if len(plan.Requests) != 1 || plan.Tests != "" {
		return census.Census{}, false
	}
	sel, ok := census.Select(plan.Requests[0], tests)
	if !ok {
		return census.Census{}, false
	}
	return runCensus(ctx, withArgs(g, sel), root, b.e.sd, b.e.runID+"-"+tag, b.e.env, b.e.req.ExtraEnv, opts)
}

// withArgs is g with req's arguments put in its command, measuring nothing but its census.
func withArgs(g gates.Gate, req census.Request) gates.Gate {
	cmd := census.Apply(commandOf(g), []census.Request{req}, func(int) string { return "" }, gates.ShellQuote)
	bg := g
	bg.Argv, bg.Run = cmd.Argv, cmd.Shell
	bg.NewOnly, bg.Cache, bg.Coverage = false, false, gates.Off
	return bg
}

// runCensus runs g in root and reads its census; false when nothing was read.
func runCensus(ctx context.Context, g gates.Gate, root string, sd *state.Dir, runID string, env, extra []string, opts runner.Options) (census.Census, bool) {
	stage := newCensusStage(ctx, root, sd, runID, env, extra, []gates.Gate{g})
	defer stage.close()
	opts.Invocations, opts.Readers = stage.invocations, stage.readers
	runner.Run(ctx, []gates.Gate{g}, opts)
	c, ok := stage.censuses()[g.Name]
	return c, ok && ctx.Err() == nil && len(c.Tests)+len(c.Failed) > 0
}

// nowOptions are the runner's options for running a gate's tests again in the project, its log
// under rerun/ beside the run's.
func (b *blamer) nowOptions() runner.Options {
	e := b.e
	opts := runner.Options{RunID: e.runID, Root: e.cfg.Root, Jobs: 1, Env: e.env, ExtraEnv: e.req.ExtraEnv,
		Grace: e.req.Grace, Abort: e.req.Abort}
	if logs, prefix, ok := subLogs(e.logs.open, e.sd.RunLogsPrefix(e.runID), "rerun"); ok {
		opts.Logs, opts.LogPrefix = logs, prefix
		e.cleanup = append(e.cleanup, func() { logs.Close() })
	}
	return opts
}

// commandOf is g's command as the census reads it.
func commandOf(g gates.Gate) census.Command {
	if g.Run != "" {
		return census.Command{Shell: g.Run}
	}
	return census.Command{Argv: g.Argv}
}

// byFindings blames a gate by what the base reports: the findings the base has too are
// pre-existing (marked on the result); a gate whose every finding the base has, or that fails
// at the base with none, is pre-existing; a finding the base lacks, or a gate that passes there,
// is the change's.
func (b *blamer) byFindings(ctx context.Context, g gates.Gate, r gates.Result) gates.Result {
	if !b.runBase {
		return r
	}
	set, err := b.e.judge.setFor(g)(ctx)
	if err != nil {
		return r
	}
	old := 0
	r.Findings = append([]gates.Finding(nil), r.Findings...)
	for i, f := range r.Findings {
		if set.Take(f) {
			r.Findings[i].PreExisting = true
			old++
		}
	}
	d := &gates.BlameDetail{PreExistingFindings: old}
	switch {
	case !set.Failed:
		d.Why = "the gate passes at " + set.Source
		return blamed(r, gates.BlameRegression, d)
	case old < len(r.Findings):
		d.Why = fmt.Sprintf("%d of its %d findings are not at %s", len(r.Findings)-old, len(r.Findings), set.Source)
		return blamed(r, gates.BlameRegression, d)
	case len(r.Findings) > 0 && !set.Complete:
		d.Why = "the base printed more findings than are kept: which are old cannot be told"
		return blamed(r, gates.BlameRegression, d)
	case len(r.Findings) > 0:
		d.Why = fmt.Sprintf("every finding is at %s too", set.Source)
	default:
		d.Why = "the gate fails at " + set.Source + " too"
	}
	return blamed(r, gates.BlamePreExisting, d)
}

// runsBaseToBlame says whether the base is run to blame failures: in a stop or `run --new-only`,
// and only where a pre-existing failure would not count (where it counts, every failure blocks
// whatever the base says, and measuring it would only cost time).
func (e *execution) runsBaseToBlame() bool {
	return (e.req.StopHook || e.req.NewOnly) && e.req.Counts != nil && !e.req.Counts(gates.BlamePreExisting)
}

// unexcused turns back into a failure an error whose cause the census contradicts: an
// environment cause excuses only what it explains, and a gate whose tests fail by name is judged
// by its tests (blame then tells those failing at the base in this same environment, the cause's,
// from the change's). Only where the base may be run to tell them apart.
func (e *execution) unexcused(ran []gates.Result) []gates.Result {
	if !e.req.Blame || !e.runsBaseToBlame() {
		return ran
	}
	censuses := e.tests.censuses()
	for i, r := range ran {
		c, ok := censuses[r.Name]
		if r.Status != gates.StatusError || r.Cause == nil || r.TimedOut || !ok || len(c.Failing()) == 0 {
			continue
		}
		r.Status = gates.StatusFail
		r.Reason = fmt.Sprintf("%d tests failed; %s explains only the tests that fail at the base too", len(c.Failing()), r.Cause.Summary)
		ran[i] = r
	}
	return ran
}

// notCounted lists the blames whose failures counts lets go, for the report.
func notCounted(counts func(gates.Blame) bool) []gates.Blame {
	if counts == nil {
		return nil
	}
	var out []gates.Blame
	for _, b := range []gates.Blame{gates.BlamePreExisting, gates.BlameFlaky} {
		if !counts(b) {
			out = append(out, b)
		}
	}
	return out
}

// definedAtBase says whether the config at the base defines g as the run does (same command,
// directory, environment and format): only then can the base fail "the same way".
func (b *blamer) definedAtBase(ctx context.Context, g gates.Gate) bool {
	b.baseOnce.Do(func() { b.baseDefs = b.readBaseDefs(ctx) })
	def, ok := b.baseDefs[g.Name]
	return ok && def == baseline.Definition(g)
}

// readBaseDefs reads the config file at the base commit, under the name it has now or either
// usual name; nil when there is none or it does not load.
func (b *blamer) readBaseDefs(ctx context.Context) map[string]string {
	j, cfg := b.e.judge, b.e.cfg
	for _, name := range []string{ConfigFile(cfg), config.FileName, config.AltFileName} {
		data, found, err := j.snap.FileAt(ctx, j.from, name, config.MaxFileBytes)
		if err != nil || !found {
			continue
		}
		base, err := config.Parse(filepath.Join(cfg.Root, name), data, cfg.Root)
		if err != nil {
			return nil
		}
		defs := make(map[string]string, len(base.Gates))
		for _, bg := range base.Gates {
			defs[bg.Name] = baseline.Definition(bg)
		}
		return defs
	}
	return nil
}
