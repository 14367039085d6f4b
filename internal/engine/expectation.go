package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/census"
	"github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/integrity"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
	"github.com/gauntlet-dev/gauntlet/runner"
)

// The base's tests judge the change's code, as SWE-bench grades with the test files reset: a
// change that edits a test's expectation along with the code it tests passes its own tests, but
// the base's version of the test, run against the change's code, fails. That test passed at the
// base; failing here it is expectation-changed.

const (
	// maxOverlayFiles bounds the code files laid over the base's checkout; a larger change is
	// not judged this way (its census comparison still is).
	maxOverlayFiles = 2000
	// maxOverlayFileBytes bounds each file copied.
	maxOverlayFileBytes = 64 << 20
)

// overlay is what the change did, split for the base's tests: the harness files it touched
// (kept at the base's version) and the code files it changed (laid over the base).
type overlay struct {
	harness []string // the test and harness files the change touched, in path order
	// baseFiles are the digests of the change's test files as the base holds them: they say
	// which file declares a Go test, which go test never names.
	baseFiles census.Digests
	copy      []string // code files added or modified: copied from the work tree
	remove    []string // code files deleted (or moved away)
}

// overlayOf reads the change's overlay; false when the base's tests have nothing to judge: the
// change touches no test or harness file, or it cannot be read whole.
func overlayOf(ctx context.Context, snap *snapshot.Snapshot) (overlay, bool) {
	ch, err := snap.Change(ctx)
	if err != nil || ch.Cut {
		return overlay{}, false
	}
	var o overlay
	for _, f := range ch.Files {
		switch {
		case integrity.IsHarnessFile(f.Path):
			o.harness = append(o.harness, f.Path)
		case f.Status == snapshot.Deleted:
			o.remove = append(o.remove, f.Path)
		default:
			o.copy = append(o.copy, f.Path)
		}
	}
	return o, len(o.harness) > 0 && len(o.copy)+len(o.remove) <= maxOverlayFiles
}

// testsOnly says the change touches no code: the base's tests meet the base's code, whose census
// the base's already is.
func (o overlay) testsOnly() bool { return len(o.copy)+len(o.remove) == 0 }

// expectationChanged runs, for each test gate that passed, the base's test files against the
// change's code and names every test that passed at the base and fails there, and every test
// that failed at the base, fails there too, and passes now: the change's edit of the test, not of
// the code, made it pass (an expectation moved to what the code returns, an assertion loosened). Only in the stop
// hook, or where the rule blocks in `run`; a change that touches no test file costs nothing, and
// one that touches only tests no run beyond the base's census.
//
// clean are the gates whose base tests were run against the change's code (or, for a change to
// tests only, judged by the base's census) and named nothing, with their census now: the change
// hides nothing those tests caught, which outweighs a guess at its assertions as coverage does.
func (e *execution) expectationChanged(ctx context.Context, ran []gates.Result, change *changeReading) (found []gates.IntegrityFinding, clean map[string]census.Census) {
	level, ok := e.expectationLevel()
	if !ok {
		return nil, nil
	}
	now := e.tests.censuses()
	byName := gatesByName(e.cfg)
	// Only where the rule blocks and the census was compared with the base's too can "no test
	// lost" vouch for anything.
	vouches := level == gates.IntegrityBlock && e.req.Config.Integrity.Level(gates.RuleTestsLost, e.req.StopHook) != gates.IntegrityOff
	var o overlay
	read := false
	for _, r := range ran {
		g, ok := byName[r.Name]
		c, measured := now[r.Name]
		if !ok || !measured || r.Status != gates.StatusPass {
			continue
		}
		if !read {
			read = true
			var judged bool
			if o, judged = overlayOf(ctx, e.snap); !judged {
				return nil, nil
			}
			change.readChange(ctx)
			o.baseFiles = change.info.BaseDigests
		}
		named, judged := e.judge.expectations(ctx, g, c, o, level)
		found = append(found, named...)
		if judged && len(named) == 0 && vouches {
			clean = withCensus(clean, r.Name, c)
		}
	}
	return found, clean
}

// expectationLevel is the level of expectation-changed, and whether it is judged in this run:
// in the stop hook unless off, in `run` where it blocks, and only with a census and a change.
func (e *execution) expectationLevel() (gates.IntegrityLevel, bool) {
	level := e.req.Config.Integrity.Level(gates.RuleExpectationChanged, e.req.StopHook)
	if e.tests == nil || e.snap == nil || level == gates.IntegrityOff {
		return level, false
	}
	return level, e.req.StopHook || level == gates.IntegrityBlock
}

// withCensus is m, made when nil, with gate's census c.
func withCensus(m map[string]census.Census, gate string, c census.Census) map[string]census.Census {
	if m == nil {
		m = map[string]census.Census{}
	}
	m[gate] = c
	return m
}

// expectations compares gate g's census at the base with its census when the base's tests run
// against the change's code.
// judged says the base's tests were judged at all (false: no base census, or the run against the
// change's code did not end).
func (j *baseJudge) expectations(ctx context.Context, g gates.Gate, now census.Census, o overlay, level gates.IntegrityLevel) (out []gates.IntegrityFinding, judged bool) {
	base, ok := j.measuredAtBase(ctx, g, true)
	if !ok || base.Census == nil {
		return nil, false
	}
	mixed := *base.Census
	if !o.testsOnly() {
		if mixed, ok = j.underChange(ctx, g, o); !ok {
			return nil, false
		}
	}
	outcomes, nowOutcomes := mixed.Outcomes(), now.Outcomes()
	var named []census.Test
	whys := map[string]string{}
	for _, t := range census.WithGoFiles(*base.Census, o.baseFiles).Tests {
		if why := expectationWhy(t, outcomes, nowOutcomes); why != "" {
			named, whys[t.ID] = append(named, t), why
		}
	}
	for _, t := range named {
		if namedSubtest(named, t) {
			continue // a parent fails with its subtest, which says more
		}
		out = append(out, gates.IntegrityFinding{Rule: gates.RuleExpectationChanged, File: cmp.Or(t.File, o.harness[0]), Level: level,
			Message: termtext.Line(g.Name + ": " + t.Name + " " + fmt.Sprintf(whys[t.ID], names(o.harness, 3)))})
	}
	return out, allStillPass(*base.Census, mixed)
}

// expectationWhy says why a test of the base is named, "" when it is not: it fails against the
// change's code under the base's tests, and passed at the base, or failed there and passes now.
func expectationWhy(t census.Test, outcomes, nowOutcomes map[string]census.Outcome) string {
	switch {
	case outcomes[t.ID] != census.Fail:
		return ""
	case t.Outcome == census.Pass:
		return "passed at the base and fails against the change's code under the base's %s: the change edits the tests that would show it"
	case t.Outcome == census.Fail && nowOutcomes[t.ID] == census.Pass:
		return "fails at the base and against the change's code under the base's %s: it passes only as the change edited it"
	}
	return ""
}

// namedSubtest says whether a subtest of t is among the tests named.
func namedSubtest(named []census.Test, t census.Test) bool {
	prefix := t.ID + "/"
	return slices.ContainsFunc(named, func(s census.Test) bool { return strings.HasPrefix(s.ID, prefix) })
}

// allStillPass says every test that passed at the base passed again in mixed, both read whole
// and no part of mixed failing as a whole (a base test that no longer builds ran nothing).
func allStillPass(base, mixed census.Census) bool {
	if !base.Complete || !mixed.Complete || len(mixed.Failed) > 0 {
		return false
	}
	outcomes := mixed.Outcomes()
	for _, t := range base.Tests {
		if t.Outcome == census.Pass && outcomes[t.ID] != census.Pass {
			return false
		}
	}
	return true
}

// underChange lays the change's code over the base's checkout, runs g there for its census, and
// restores the checkout, which the run's other base judgements share.
func (j *baseJudge) underChange(ctx context.Context, g gates.Gate, o overlay) (census.Census, bool) {
	// Its log goes under expectations/, beside the base's own under base/, which it would overwrite.
	baseRoot, opts, done, err := j.prepareLogs(ctx, "expectations")
	if err != nil {
		return census.Census{}, false
	}
	defer done()
	defer j.restore(baseRoot, o)
	if lay(j.root, baseRoot, o) != nil {
		return census.Census{}, false
	}
	bg := underChangeGate(g)
	stage := newCensusStage(ctx, baseRoot, j.sd, j.runID+"-expect", j.env, j.extra, []gates.Gate{bg})
	defer stage.close()
	opts.Invocations, opts.Readers = stage.invocations, stage.readers
	runner.Run(ctx, []gates.Gate{bg}, opts)
	c, ok := stage.censuses()[bg.Name]
	return c, ok && ctx.Err() == nil
}

// underChangeGate is g as it runs the base's tests against the change's code: for its census
// alone, never from the cache, measuring no coverage (which nothing there reads).
func underChangeGate(g gates.Gate) gates.Gate {
	bg := g
	bg.NewOnly, bg.Cache, bg.Coverage = false, false, gates.Off
	return bg
}

// lay copies the change's code files into the base's checkout and removes those it deleted. The
// checkout is written through an os.Root: a symbolic link in it never leads a write outside.
func lay(root, baseRoot string, o overlay) error {
	dst, err := os.OpenRoot(baseRoot)
	if err != nil {
		return err
	}
	defer dst.Close()
	deadline := time.Now().Add(git.Timeout)
	for _, p := range o.copy {
		if err := copyFile(filepath.Join(root, filepath.FromSlash(p)), dst, filepath.FromSlash(p), deadline); err != nil {
			return fmt.Errorf("laying %s over the base: %w", p, err)
		}
	}
	for _, p := range o.remove {
		if err := dst.Remove(filepath.FromSlash(p)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("removing %s from the base: %w", p, err)
		}
	}
	return nil
}

// copyFile copies a regular file into dst, at most maxOverlayFileBytes of it.
func copyFile(from string, dst *os.Root, to string, deadline time.Time) error {
	in, info, err := safefile.Open(from, deadline)
	if err != nil {
		return err
	}
	defer in.Close()
	if info.Size() > maxOverlayFileBytes {
		return fmt.Errorf("larger than %d bytes", maxOverlayFileBytes)
	}
	if err := dst.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	dst.Remove(to) // a file of the checkout may be read-only; a new one replaces it
	out, err := dst.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, info.Mode().Perm()|0o200)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, io.LimitReader(in, maxOverlayFileBytes))
	return errors.Join(err, out.Close())
}

// restore puts the base's checkout back as the base has it: every tracked file as committed,
// the files the change added removed. The checkout lives for this run only (close removes it),
// so what a failed restore leaves is seen at most by the run's later base judgements.
func (j *baseJudge) restore(baseRoot string, o overlay) {
	ctx, cancel := context.WithTimeout(context.Background(), git.Timeout)
	defer cancel()
	paths := slices.Concat(o.copy, o.remove)
	args := append([]string{"checkout", "--force", "HEAD", "--"}, paths...)
	// A path the base does not have makes checkout fail as a whole: those go one by one.
	if git.Run(ctx, baseRoot, nil, args...) == nil {
		return
	}
	dst, err := os.OpenRoot(baseRoot)
	if err != nil {
		return
	}
	defer dst.Close()
	for _, p := range paths {
		if git.Run(ctx, baseRoot, nil, "checkout", "--force", "HEAD", "--", p) != nil {
			dst.Remove(filepath.FromSlash(p)) // the change added it: the base has none
		}
	}
}

// names lists at most max paths: "a, b, c and 4 more".
func names(paths []string, max int) string {
	if len(paths) <= max {
		return strings.Join(paths, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(paths[:max], ", "), len(paths)-max)
}
