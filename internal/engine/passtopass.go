package engine

import (
	"context"
	"encoding/json"
	"path"
	"slices"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/baseline"
	"github.com/gauntlet-dev/gauntlet/internal/cache"
	"github.com/gauntlet-dev/gauntlet/internal/census"
	"github.com/gauntlet-dev/gauntlet/internal/envid"
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

// passToPass compares each test gate's census with the base's, in the stop hook: a test that
// passed there and is skipped or did not run here, a fall in the count of passing tests, or a
// runner that ran no test, is an integrity finding named test by test; so is a test that fails
// here under a gate that passed (its exit code says nothing of its tests). A test that fails
// under a failing gate is that gate's failure already. `run` does not compare yet.
func passToPass(ctx context.Context, req Request, judge *baseJudge, snap *snapshot.Snapshot, tests *censusStage, results []gates.Result, byName map[string]gates.Gate) []gates.IntegrityFinding {
	if !req.StopHook || tests == nil {
		return nil
	}
	now := tests.censuses()
	level := req.Config.Integrity.Level(gates.RuleTestsLost, true)
	if len(now) == 0 || level == gates.IntegrityOff {
		return nil
	}
	var out []gates.IntegrityFinding
	var change *census.ChangeInfo
	for _, r := range results {
		c, ok := now[r.Name]
		if !ok || r.Status != gates.StatusPass && r.Status != gates.StatusFail {
			continue
		}
		if judge.keptAsBase(ctx, byName[r.Name], c) {
			continue // the tree is the base: nothing to compare, and its census is the base's
		}
		base, ok := judge.censusAtBase(ctx, byName[r.Name])
		if !ok {
			continue
		}
		if change == nil {
			change = changeInfo(ctx, snap)
		}
		for _, f := range census.Compare(base, c, *change) {
			if !f.Integrity() && r.Status != gates.StatusPass {
				continue
			}
			out = append(out, gates.IntegrityFinding{Rule: gates.RuleTestsLost, File: f.File, Level: level,
				Message: r.Name + ": " + f.Message})
		}
	}
	return out
}

// changeInfo is what the change did to test and code files, for the comparison's excuses (a test
// deleted with the code it tests). A change that cannot be read excuses nothing.
func changeInfo(ctx context.Context, snap *snapshot.Snapshot) *census.ChangeInfo {
	info := &census.ChangeInfo{RenamedTests: map[string]string{}}
	ch, err := snap.Change(ctx)
	if err != nil {
		return info
	}
	for _, f := range ch.Files {
		test := integrity.IsTestFile(f.Path)
		switch {
		case f.RenamedTo != "" && test:
			info.RenamedTests[f.Path] = f.RenamedTo
		case f.Status == snapshot.Deleted && test:
			info.DeletedTests = append(info.DeletedTests, f.Path)
		case f.Status == snapshot.Deleted:
			info.DeletedCode = append(info.DeletedCode, f.Path)
		case f.Status == snapshot.Modified && test:
			info.ModifiedTests = append(info.ModifiedTests, f.Path)
		}
	}
	info.DeletedDirs = emptiedDirs(ch)
	return info
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
	Key    string        `json:"key"`
	Census census.Census `json:"census"`
	MAC    string        `json:"mac,omitempty"`
}

func (s *storedCensus) SealField() *string { return &s.MAC }

// keptAsBase stores c as the base's census of g when the tree is the base itself (a background
// judge at the session's start runs on it), so that no stop of the session runs the base for it.
func (j *baseJudge) keptAsBase(ctx context.Context, g gates.Gate, c census.Census) bool {
	j.readChange(ctx)
	if j.from == "" || !j.unchanged {
		return false
	}
	_ = saveCensus(j.sd, j.censusKey(g), c) // not kept: the first stop runs the base for it
	return true
}

// censusKey names the base's census of g: its base commit, definition and environment (read once
// per run: it reads Go's env file).
func (j *baseJudge) censusKey(g gates.Gate) string {
	j.envOnce.Do(func() { j.portableEnv = envid.Portable(envid.Steering(j.env)) })
	return baseline.CacheKey(g, j.from, cache.ToolVersion+"+census+"+j.portableEnv)
}

// censusAtBase is g's test census at the base of the change in this environment: as stored once
// per base commit, definition and environment (a background judge usually stores it before the
// stop), else read from a run of g in the base's checkout. false when there is no base, the tree
// is the base (nothing to compare), or the base gave no census.
func (j *baseJudge) censusAtBase(ctx context.Context, g gates.Gate) (census.Census, bool) {
	j.readChange(ctx)
	if j.from == "" || j.unchanged || g.Name == "" {
		return census.Census{}, false
	}
	key := j.censusKey(g)
	if c, ok := loadCensus(j.sd, key); ok && !j.noCache {
		return c, true
	}
	baseRoot, opts, done, err := j.prepare(ctx)
	if err != nil {
		return census.Census{}, false
	}
	defer done()
	bg := g
	bg.NewOnly, bg.Cache = false, false
	stage := newCensusStage(ctx, baseRoot, j.sd, j.runID+"-base", j.env, j.extra, []gates.Gate{bg})
	defer stage.close()
	opts.Invocations, opts.Readers = stage.invocations, stage.readers
	runner.Run(ctx, []gates.Gate{bg}, opts)
	c, ok := stage.censuses()[g.Name]
	if !ok || ctx.Err() != nil {
		return census.Census{}, false
	}
	_ = saveCensus(j.sd, key, c) // not kept: it is run again next time
	return c, true
}

func loadCensus(sd *state.Dir, key string) (census.Census, bool) {
	data, err := sd.ReadFileLimit(censusCacheDir+"/"+key+".json", maxStoredCensusBytes)
	if err != nil {
		return census.Census{}, false
	}
	var st storedCensus
	sk, _ := seal.Load()
	if json.Unmarshal(data, &st) != nil || st.Key != key || !sk.VerifyJSON(sealCensus, sd.Path(), &st) {
		return census.Census{}, false
	}
	return st.Census, true
}

func saveCensus(sd *state.Dir, key string, c census.Census) error {
	st := storedCensus{Key: key, Census: c}
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
