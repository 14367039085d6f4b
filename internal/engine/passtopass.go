package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/baseline"
	"github.com/gauntlet-dev/gauntlet/internal/cache"
	"github.com/gauntlet-dev/gauntlet/internal/census"
	"github.com/gauntlet-dev/gauntlet/internal/coverage"
	"github.com/gauntlet-dev/gauntlet/internal/envid"
	"github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/hosts"
	"github.com/gauntlet-dev/gauntlet/internal/integrity"
	"github.com/gauntlet-dev/gauntlet/internal/seal"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/runner"
)

// PASS_TO_PASS, as graders of coding agents measure it: every test that passed at the base must
// still run and pass. The shape rules of integrity read the diff for weakenings they know; the
// census measures what ran, whatever the means (a TestMain that narrows -test.run, a runner
// config no rule reads, a file the runner no longer picks up).

const (
	// censusCacheDir keeps the base's census per base commit, gate definition and environment.
	censusCacheDir = "cache/census"
	sealCensus     = "base census"
	// maxStoredCensusBytes bounds the read of a stored census: 100,000 tests of long names.
	maxStoredCensusBytes = 64 << 20
	// maxStoredCensuses bounds how many are kept, the oldest going first: a census of the most
	// tests a census keeps is some tens of megabytes.
	maxStoredCensuses = 16
)

// passToPass compares each test gate's census and coverage with the base's: a test that passed
// there and is skipped or did not run here, a fall in the count of passing tests, or a runner
// that ran no test, is an integrity finding named test by test; so is a test that fails here
// under a gate that passed (its exit code says nothing of its tests), and lines the change did
// not touch that its tests no longer cover. A test that fails under a failing gate is that
// gate's failure already.
//
// The stop hook runs the base for its measures when they are not stored. `run` compares with
// stored measures only (a run at the base commit stores them, as CI on the main branch does),
// unless a rule blocks in `run`: then the base is run, as at the stop.
//
// vouching are the gates whose census and coverage were both compared with the base's (the gate
// passed), with their census here: what they found, or did not, outweighs the shape rules that
// guess at the tests.
func passToPass(ctx context.Context, req Request, judge *baseJudge, change *changeReading, tests *censusStage, results []gates.Result, byName map[string]gates.Gate) (lost []gates.IntegrityFinding, vouching map[string]census.Census) {
	if tests == nil {
		return nil, nil
	}
	now := measures{tests: tests.censuses(), coverage: tests.coverages(), unwritten: tests.coverageUnwritten()}
	cmp := comparison{
		testsLevel:     req.Config.Integrity.Level(gates.RuleTestsLost, req.StopHook),
		coverageLevel:  req.Config.Integrity.Level(gates.RuleCoverageLost, req.StopHook),
		uncoveredLevel: req.Config.Integrity.Level(gates.RuleChangeUncovered, req.StopHook),
		uncoveredMin:   req.Config.ChangeCoverageMin,
		changeReading:  change,
	}
	runBase := req.StopHook || cmp.testsLevel == gates.IntegrityBlock || cmp.coverageLevel == gates.IntegrityBlock
	var out []gates.IntegrityFinding
	for _, r := range results {
		m, ok := now.of(r.Name)
		if !ok || r.Status != gates.StatusPass && r.Status != gates.StatusFail {
			continue
		}
		out = append(out, cmp.uncovered(ctx, r, m)...)
		found, both := cmp.lost(ctx, judge, byName[r.Name], r, m, runBase)
		out = append(out, found...)
		if both {
			if vouching == nil {
				vouching = map[string]census.Census{}
			}
			vouching[r.Name] = *m.Census
		}
	}
	return out, vouching
}

// lost compares a gate's measures m with the base's, measured there when runBase allows; both
// says whether its census and its coverage were both compared.
func (cmp comparison) lost(ctx context.Context, judge *baseJudge, g gates.Gate, r gates.Result, m measured, runBase bool) (found []gates.IntegrityFinding, both bool) {
	if m.read() && judge.keptAsBase(ctx, g, m) {
		return nil, false // the tree is the base: nothing to compare, and its measures are the base's
	}
	base, ok := judge.measuredAtBaseFor(ctx, g, m, runBase)
	if !ok {
		return nil, false
	}
	if script := reportWriter(ctx, cmp.snap, g); script != "" && base.Census != nil {
		return append(reportNotBelieved(r, g, script, *base.Census, cmp.testsLevel), cmp.coverage(ctx, r, base, m)...), false
	}
	both = cmp.comparesBoth(r, base, m)
	return append(cmp.tests(ctx, r, base, m), cmp.coverage(ctx, r, base, m)...), both
}

// comparesBoth says whether a gate's census and coverage are both compared with the base's: both
// measured on either side, neither rule off, the gate passed, and the change read whole.
func (cmp *comparison) comparesBoth(r gates.Result, base, now measured) bool {
	return cmp.testsLevel != gates.IntegrityOff && cmp.coverageLevel != gates.IntegrityOff && r.Status == gates.StatusPass &&
		base.Census != nil && now.Census != nil && base.Coverage != nil && now.Coverage != nil && now.Coverage.Complete
}

// measures are what a run measured of its test gates: censuses and coverages, by gate, and why
// the coverage a gate's run was to write could not be read.
type measures struct {
	tests     map[string]census.Census
	coverage  map[string]coverage.Coverage
	unwritten map[string]string
}

// of is what was measured of one gate; false when nothing was, nor was coverage missed.
func (ms measures) of(gate string) (measured, bool) {
	var m measured
	if c, ok := ms.tests[gate]; ok {
		m.Census = &c
	}
	if c, ok := ms.coverage[gate]; ok {
		m.Coverage = &c
	} else {
		m.coverageUnwritten = ms.unwritten[gate]
	}
	return m, m.read() || m.coverageUnwritten != ""
}

// measured is one gate's census and coverage, either of which may be missing.
type measured struct {
	Census   *census.Census     `json:"census,omitempty"`
	Coverage *coverage.Coverage `json:"coverage,omitempty"`
	// coverageUnwritten says why the coverage the gate's run was to write could not be read (it
	// is never kept: a base without coverage has nothing to compare with).
	coverageUnwritten string
}

// read says whether anything was measured.
func (m measured) read() bool { return m.Census != nil || m.Coverage != nil }

// comparison compares a gate's measures with the base's, reading the change once for all gates.
type comparison struct {
	testsLevel, coverageLevel, uncoveredLevel gates.IntegrityLevel
	uncoveredMin                              int // change_coverage_min, percent
	*changeReading
}

// changeReading is the change as the comparisons with the base read it: read once a run, when
// first needed, and shared by pass-to-pass and expectation-changed (which reads the base's test
// files' digests for the files tests are declared in).
type changeReading struct {
	snap      *snapshot.Snapshot
	info      *census.ChangeInfo
	untouched coverage.Untouched
	unchanged coverage.Untouched
	read      bool
}

func (c *changeReading) readChange(ctx context.Context) {
	if !c.read {
		c.read = true
		c.info, c.untouched, c.unchanged = changeInfo(ctx, c.snap)
	}
}

// tests: a test that passed at the base and is skipped, missing, or failing under a gate that
// passed. A test that fails under a failing gate is that gate's failure already.
func (c *comparison) tests(ctx context.Context, r gates.Result, base, now measured) []gates.IntegrityFinding {
	if c.testsLevel == gates.IntegrityOff || base.Census == nil || now.Census == nil {
		return nil
	}
	c.readChange(ctx)
	var out []gates.IntegrityFinding
	for _, f := range census.Compare(*base.Census, *now.Census, *c.info) {
		if !f.Integrity() && r.Status != gates.StatusPass {
			continue
		}
		out = append(out, gates.IntegrityFinding{Rule: gates.RuleTestsLost, File: f.File, Level: c.testsLevel,
			Message: r.Name + ": " + f.Message})
	}
	return out
}

// coverage: lines the change did not touch, covered at the base and not now, under a gate that
// passed (a failing gate's tests stopped early: its failure says more). A change that cannot be
// read whole is not compared: a line it does not show would count as untouched. A gate that
// passed without writing the coverage its run wrote at the base (its report not written, or not
// during its run) covers nothing now: every file the base's tests covered and the change kept
// is named, with why.
func (c *comparison) coverage(ctx context.Context, r gates.Result, base, now measured) []gates.IntegrityFinding {
	if c.coverageLevel == gates.IntegrityOff || base.Coverage == nil || r.Status != gates.StatusPass {
		return nil
	}
	nowCov, why := now.Coverage, ""
	if nowCov == nil {
		if now.coverageUnwritten == "" {
			return nil
		}
		nowCov, why = &coverage.Coverage{Format: base.Coverage.Format, Complete: true}, " ("+now.coverageUnwritten+")"
	}
	c.readChange(ctx)
	if c.untouched == nil {
		return nil
	}
	var out []gates.IntegrityFinding
	for _, f := range coverage.Lost(*base.Coverage, *nowCov, c.untouched) {
		out = append(out, gates.IntegrityFinding{Rule: gates.RuleCoverageLost, File: f.File, Line: f.From, Level: c.coverageLevel,
			Message: r.Name + ": " + f.Message + why})
	}
	return out
}

// uncovered: lines the change added or edited, in files the gate's tests exercise, that no test
// ran, under a gate that passed (a failing gate's tests stopped early). It needs no base: the
// change's lines are new there. A change that cannot be read whole is not read.
func (c *comparison) uncovered(ctx context.Context, r gates.Result, now measured) []gates.IntegrityFinding {
	if c.uncoveredLevel == gates.IntegrityOff || now.Coverage == nil || r.Status != gates.StatusPass {
		return nil
	}
	c.readChange(ctx)
	if c.unchanged == nil {
		return nil
	}
	share := ""
	if c.uncoveredMin > 0 {
		changed, covered := coverage.ChangeShare(*now.Coverage, c.unchanged)
		if changed == 0 || covered*100 >= c.uncoveredMin*changed {
			return nil
		}
		share = fmt.Sprintf(" (%d%% of the change's lines run, below change_coverage_min %d)", covered*100/changed, c.uncoveredMin)
	}
	var out []gates.IntegrityFinding
	for _, f := range coverage.Uncovered(*now.Coverage, c.unchanged) {
		out = append(out, gates.IntegrityFinding{Rule: gates.RuleChangeUncovered, File: f.File, Line: f.From,
			Level: c.uncoveredLevel, Message: r.Name + ": " + f.Message + share})
	}
	return out
}

// changeInfo is what the change did to test and code files, for the comparison's excuses (a test
// deleted with the code it tests), the lines whose coverage is compared with the base's
// (untouched) and the lines the change did not write (unchanged), for the lines it left
// uncovered. A change that cannot be read excuses nothing, and leaves no line known to be
// either (nil).
func changeInfo(ctx context.Context, snap *snapshot.Snapshot) (*census.ChangeInfo, coverage.Untouched, coverage.Untouched) {
	info := &census.ChangeInfo{RenamedTests: map[string]string{}}
	ch, err := snap.Change(ctx)
	if err != nil {
		return info, nil, nil
	}
	classifyFiles(info, ch)
	info.DeletedDirs = emptiedDirs(ch)
	info.RemovedNames = removedNames(ch)
	info.BaseDigests, info.NowDigests, info.Digested = testDigests(ctx, snap, ch)
	untouched := skipStoppedCalls(untouchedLines(ch, editedGoSources(ctx, snap, ch)), ch, goSourceReader(ctx, snap))
	return info, untouched, unchangedLines(ch)
}

// unchangedLines maps a line as it is now to its line at the base, for every line the change did
// not add or modify, in any file: unlike untouchedLines it is not narrowed to the Go packages
// and functions the change touched, since there a line left out of the comparison would read as
// one the change wrote (every uncovered line of a package the change never touched, said to be
// "added or edited by the change"). nil when the change was cut.
func unchangedLines(ch *snapshot.Change) coverage.Untouched {
	if ch.Cut {
		return nil
	}
	gone := map[string]bool{}
	for _, f := range ch.Files {
		if f.Status == snapshot.Deleted || f.RenamedTo != "" {
			gone[f.Path] = true
		}
	}
	lines := ch.LineMap()
	return func(file string, line int) (int, bool) {
		if gone[file] {
			return 0, false
		}
		return lines.Old(file, line)
	}
}

// classifyFiles files the change's test files deleted, moved and edited, and its other files
// deleted, in info.
func classifyFiles(info *census.ChangeInfo, ch *snapshot.Change) {
	for _, f := range ch.Files {
		test := integrity.IsTestFile(f.Path)
		switch {
		case f.RenamedTo != "" && test:
			info.RenamedTests[f.Path] = f.RenamedTo
		case f.Status == snapshot.Deleted && test:
			info.DeletedTests = append(info.DeletedTests, f.Path)
		case f.Status == snapshot.Deleted && !strings.Contains(path.Base(f.Path), ".bench."):
			// A benchmark is neither a test nor the code a test is named after.
			info.DeletedCode = append(info.DeletedCode, f.Path)
		case f.Status == snapshot.Modified && test:
			info.ModifiedTests = append(info.ModifiedTests, f.Path)
		}
	}
}

// untouchedLines maps a line as it is now to its line at the base, for the lines the change did
// not add or modify; a file the change deleted or moved away has none. nil when the change was
// cut: a file it does not show would look untouched.
//
// A Go file is compared only in a package (directory) the change touched: Go's coverage varies
// from run to run (a goroutine's error branch covered in one run of six, a log line reached only
// under load), so a line is counted as covered at the base only where the change can explain its
// loss. Weakenings that reach other packages (a TestMain, a narrowed command, GOFLAGS) are the
// census's and the shape rules'. Other languages' tests live apart from the code they cover (a
// test/ beside src/): their files are compared everywhere.
//
// Nor are the lines of a Go function the change edited (sources holds the edited Go files as
// they are now): a change to a function's code that stops it reaching its own later lines (a
// branch that now returns first) is the change's doing, not a test that stopped testing.
func untouchedLines(ch *snapshot.Change, sources map[string][]byte) coverage.Untouched {
	if ch.Cut {
		return nil
	}
	gone := map[string]bool{}
	touchedDirs := map[string]bool{}
	for _, f := range ch.Files {
		if f.Status == snapshot.Deleted || f.RenamedTo != "" {
			gone[f.Path] = true
		}
		touchedDirs[path.Dir(f.Path)] = true
	}
	lines := ch.LineMap()
	edited := editedGoFuncs(ch, sources)
	return func(file string, line int) (int, bool) {
		if gone[file] || strings.HasSuffix(file, ".go") && !touchedDirs[path.Dir(file)] || edited.holds(file, line) {
			return 0, false
		}
		return lines.Old(file, line)
	}
}

// emptiedDirs are the directories every file of which the change deleted, as far as the change
// shows them (a directory with files the change did not touch is never listed: it has none in
// the change).
func emptiedDirs(ch *snapshot.Change) []string {
	kept := map[string]bool{}
	deleted := map[string]bool{}
	for _, f := range ch.Files {
		dir := path.Dir(f.Path)
		if f.Status == snapshot.Deleted && f.RenamedTo == "" {
			deleted[dir] = true
		} else {
			kept[dir] = true
		}
	}
	var out []string
	for d := range deleted {
		if !kept[d] {
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return out
}

// storedCensus is a base's census as kept, sealed: a census written by anybody else is not
// believed, and the base is run again.
type storedCensus struct {
	Key string `json:"key"`
	measured
	// WorkTree says the measures come from a run in the work tree when it looked like the base
	// commit (keptAsBase), and At when the state that run judged was read: such measures are the
	// base's for a session only when taken before the session started (see believed).
	WorkTree bool      `json:"work_tree,omitempty"`
	At       time.Time `json:"at,omitzero"`
	MAC      string    `json:"mac,omitempty"`
}

func (s *storedCensus) SealField() *string { return &s.MAC }

// keptAsBase stores m as the base's measures of g when the tree is the base itself (a background
// judge at the session's start runs on it), so that no stop of the session runs the base for it.
func (j *baseJudge) keptAsBase(ctx context.Context, g gates.Gate, m measured) bool {
	if !j.isBase(ctx) {
		return false
	}
	key := j.censusKey(g)
	_ = saveCensus(j.sd, key, m, j.stateTime()) // not kept: the first stop runs the base for it
	j.shareMeasures(ctx, key, m)
	return true
}

// shareMeasures stores the base's measures on the remote cache, where this run writes to it (CI
// with the signing key): the runs and stops whose base this commit is read them there.
func (j *baseJudge) shareMeasures(ctx context.Context, key string, m measured) {
	if j.remote == nil || !j.remote.Writes() {
		return
	}
	if data, err := json.Marshal(m); err == nil {
		_ = j.remote.PutMeasures(ctx, key, data) // not stored: a reader runs the base for them
	}
}

// remoteMeasures reads the base's measures from the remote cache, and keeps them here.
func (j *baseJudge) remoteMeasures(ctx context.Context, key string) (measured, bool) {
	if j.remote == nil || j.noCache {
		return measured{}, false
	}
	data, ok, err := j.remote.GetMeasures(ctx, key)
	var m measured
	if err != nil || !ok || json.Unmarshal(data, &m) != nil || m.Census == nil && m.Coverage == nil {
		return measured{}, false
	}
	_ = saveCensus(j.sd, key, m, time.Time{})
	return m, true
}

// censusKey names the base's measures of g: its base commit, definition (with what it measures)
// and environment (read once per run: it reads Go's env file).
func (j *baseJudge) censusKey(g gates.Gate) string {
	j.envOnce.Do(func() { j.portableEnv = envid.Portable(envid.Steering(j.env, j.root)) })
	return j.censusKeyIn(g, j.portableEnv)
}

func (j *baseJudge) censusKeyIn(g gates.Gate, portableEnv string) string {
	return censusKeyAt(g, j.from, portableEnv)
}

// censusKeyAt names g's measures at commit in the environment portableEnv.
func censusKeyAt(g gates.Gate, commit, portableEnv string) string {
	measures := "+census:" + g.Tests + "+coverage:" + g.Coverage
	return baseline.CacheKey(g, commit, cache.ToolVersion+measures+"+"+portableEnv)
}

// sessionStartKey names g's base measures as the session's start environment keeps them; "" when
// there is no session, or it is this run's own.
func (j *baseJudge) sessionStartKey(g gates.Gate, key string) string {
	if j.sessionEnv == nil {
		return ""
	}
	if k := j.censusKeyIn(g, envid.Portable(j.sessionEnv)); k != key {
		return k
	}
	return ""
}

// measuredAtBase is g's test census and coverage at the base of the change in this environment:
// as stored once per base commit, definition and environment (a background judge usually stores
// them before the stop), else as stored in the environment the agent session started in (what
// steers the tools changed since: the base is not measured again where the change set it), else,
// when run is set, read from a run of g in the base's checkout. false when there is no base, the
// tree is the base (nothing to compare), or the base measured nothing.
func (j *baseJudge) measuredAtBase(ctx context.Context, g gates.Gate, run bool) (measured, bool) {
	j.readChange(ctx)
	if j.from == "" || j.isBase(ctx) || g.Name == "" {
		return measured{}, false
	}
	key := j.censusKey(g)
	if m, ok := j.storedMeasures(ctx, g, key); ok {
		return m, true
	}
	if !run {
		return measured{}, false
	}
	return j.measure(ctx, g, key)
}

// measuredAtBaseFor is measuredAtBase, comparing with now's measures m: a base not stored is read
// from a listing of its tests and runs of the few it needs where that can be done
// (listedAtBase), and is run whole only where it cannot.
func (j *baseJudge) measuredAtBaseFor(ctx context.Context, g gates.Gate, m measured, run bool) (measured, bool) {
	j.readChange(ctx)
	if j.from == "" || j.isBase(ctx) || g.Name == "" {
		return measured{}, false
	}
	key := j.censusKey(g)
	if stored, ok := j.storedMeasures(ctx, g, key); ok {
		return stored, true
	}
	if !run {
		return measured{}, false
	}
	if m.Census != nil {
		if c, ok := j.listedAtBase(ctx, g, *m.Census); ok {
			return measured{Census: &c}, true
		}
	}
	return j.measure(ctx, g, key)
}

// storedMeasures are the base's measures kept under key (unless --no-cache), shared by the remote
// cache, or kept for the session's start.
func (j *baseJudge) storedMeasures(ctx context.Context, g gates.Gate, key string) (measured, bool) {
	if m, ok := j.loadBelieved(key); ok && !j.noCache {
		return m, true
	}
	if m, ok := j.remoteMeasures(ctx, key); ok {
		return m, true
	}
	if start := j.sessionStartKey(g, key); start != "" && !j.noCache {
		if m, ok := j.loadBelieved(start); ok {
			return m, true
		}
	}
	if parent := j.setupParentKey(ctx, g); parent != "" && !j.noCache {
		return j.loadBelieved(parent)
	}
	return measured{}, false
}

// setupFiles are the files `gauntlet init` writes that no test reads: the config, the ignore
// files, and each agent host's hook file (the ones init writes, not the globs doctor reads).
var setupFiles = sync.OnceValue(func() []string {
	files := []string{config.FileName, config.AltFileName, ".gitignore", ".prettierignore"}
	for _, h := range hosts.All() {
		for _, f := range h.Hook.Files {
			if !strings.Contains(f, "*") {
				files = append(files, f)
			}
		}
	}
	return files
})

// onlySetupFiles says whether a commit that changed files changed setup files alone (and some).
func onlySetupFiles(files []string) bool {
	return len(files) > 0 && !slices.ContainsFunc(files, func(f string) bool { return !slices.Contains(setupFiles(), f) })
}

// setupParentKey is g's key under the base commit's first parent when the base commit changed
// setup files alone: committing what init wrote after its first run (which kept the measures of
// that parent) leaves the tests as they were. "" otherwise, or when git cannot say.
func (j *baseJudge) setupParentKey(ctx context.Context, g gates.Gate) string {
	j.parentOnce.Do(func() {
		out, err := git.Output(ctx, j.root, 64<<10, "diff-tree", "-r", "-z", "--name-only", "--no-commit-id", j.from+"^", j.from)
		if err != nil {
			return
		}
		if !onlySetupFiles(strings.FieldsFunc(string(out), func(r rune) bool { return r == 0 })) {
			return
		}
		if parent, err := git.Output(ctx, j.root, 4096, "rev-parse", "--verify", "--quiet", j.from+"^^{commit}"); err == nil {
			j.setupParent = strings.TrimSpace(string(parent))
		}
	})
	if j.setupParent == "" {
		return ""
	}
	j.envOnce.Do(func() { j.portableEnv = envid.Portable(envid.Steering(j.env, j.root)) })
	return censusKeyAt(g, j.setupParent, j.portableEnv)
}

// measure runs g in the base's checkout for its census and coverage, and keeps them under key.
func (j *baseJudge) measure(ctx context.Context, g gates.Gate, key string) (measured, bool) {
	baseRoot, opts, done, err := j.prepare(ctx)
	if err != nil {
		return measured{}, false
	}
	defer done()
	bg := g
	bg.NewOnly, bg.Cache = false, false
	stage := newCensusStage(ctx, baseRoot, j.sd, j.runID+"-base", j.env, j.extra, []gates.Gate{bg})
	defer stage.close()
	opts.Invocations, opts.Readers = stage.invocations, stage.readers
	runner.Run(ctx, []gates.Gate{bg}, opts)
	m, ok := measures{tests: stage.censuses(), coverage: stage.coverages()}.of(g.Name)
	if !ok || ctx.Err() != nil {
		return measured{}, false
	}
	_ = saveCensus(j.sd, key, m, time.Time{}) // not kept: it is run again next time
	j.shareMeasures(ctx, key, m)
	return m, true
}

// loadBelieved is the base's measures kept under key, when they are believed (believed).
func (j *baseJudge) loadBelieved(key string) (measured, bool) {
	st, ok := loadCensus(j.sd, key)
	if !ok || !j.believed(st) {
		return measured{}, false
	}
	return st.measured, true
}

func loadCensus(sd *state.Dir, key string) (storedCensus, bool) {
	data, err := sd.ReadFileLimit(censusCacheDir+"/"+key+".json", maxStoredCensusBytes)
	if err != nil {
		return storedCensus{}, false
	}
	var st storedCensus
	sk, _ := seal.Load()
	if json.Unmarshal(data, &st) != nil || st.Key != key || !sk.VerifyJSON(sealCensus, sd.Path(), &st) {
		return storedCensus{}, false
	}
	return st, true
}

// saveCensus keeps m as the base's measures under key: from a checkout of the base commit when
// workTreeAt is zero, else from a run in the work tree of the state read then.
func saveCensus(sd *state.Dir, key string, m measured, workTreeAt time.Time) error {
	st := storedCensus{Key: key, measured: m, WorkTree: !workTreeAt.IsZero(), At: workTreeAt}
	sk, _ := seal.Load()
	if err := sk.SealJSON(sealCensus, sd.Path(), &st); err != nil {
		return err
	}
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	if err := sd.WriteFileAtomic(censusCacheDir+"/"+key+".json", data); err != nil {
		return err
	}
	return baseline.PruneOldest(sd, censusCacheDir, maxStoredCensuses)
}
