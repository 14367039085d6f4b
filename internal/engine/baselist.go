package engine

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/census"
	"github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/integrity"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// The base measured at the cost of the change. A stop with no stored census of the base compared
// every test that passed there by running the base's whole suite: minutes, where the change's
// gates took seconds. For a go test gate that measures no coverage, the base's tests are listed
// instead (their functions in the base commit's test files: nothing built, nothing checked out),
// and only the tests whose outcome there matters run at the base: those the change no longer
// runs, and those of packages whose tests the change touched (a subtest removed from a table
// shows only in a run). A test that runs now, in a package whose tests the change did not touch,
// is the same test at the base: what it did there does not matter here (a failure now is blamed
// on its own, blame.go).

// maxListingBytes bounds what the listing of the base's test functions reads.
const maxListingBytes = 32 << 20

// listedAtBase is the base's census of g for comparing with now's, read from a listing and the
// runs it needs; false when that cannot be done (not a go test gate, coverage asked for by the
// gate's coverage: key, no module to name packages by, too many tests to run alone), and the
// base is then measured whole. The default coverage of a go test gate is not compared at such a
// stop (the listing measures none) rather than making it run the base's whole suite.
func (j *baseJudge) listedAtBase(ctx context.Context, g gates.Gate, now census.Census) (census.Census, bool) {
	plan := PlanCensus(g)
	explicitCoverage := g.Coverage != "" && g.Coverage != gates.Off
	if explicitCoverage || plan.Tests != "" || len(plan.Requests) != 1 || plan.Requests[0].Runner != "go test" || !now.Complete {
		return census.Census{}, false
	}
	module := modulePath(filepath.Join(j.root, g.Dir))
	if module == "" {
		return census.Census{}, false
	}
	listing, ok := j.list(ctx, g, module)
	if !ok {
		return census.Census{}, false
	}
	base, need := j.split(ctx, g, module, listing, now)
	if len(need) == 0 {
		return base, true
	}
	sel, ok := census.Select(plan.Requests[0], need)
	if !ok {
		return census.Census{}, false
	}
	baseRoot, opts, done, err := j.prepare(ctx)
	if err != nil {
		return census.Census{}, false
	}
	defer done()
	ran, ok := runCensus(ctx, withArgs(g, sel), baseRoot, j.sd, j.runID+"-base-listed", j.env, j.extra, opts)
	if !ok || !ran.Complete {
		return census.Census{}, false
	}
	return census.Merge(base, ran), true
}

// list names the base's tests: the test functions of the Go test files of g's module at the base
// commit, by package.
func (j *baseJudge) list(ctx context.Context, g gates.Gate, module string) (*census.Listing, bool) {
	dir := filepath.Join(j.root, g.Dir)
	out, err := git.Output(ctx, dir, maxListingBytes, "grep", "-I", "--no-color", "-E", `^func (Test|Fuzz|Example)[[:alnum:]_]*\(`,
		j.from, "--", "*_test.go")
	var exit *git.Error
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode == 1) { // 1: no test at all
		return nil, false
	}
	listing := census.NewListing()
	for _, line := range strings.Split(string(out), "\n") {
		listing.GoGrepLine(line, module)
	}
	return listing, !listing.Cut
}

// split sorts the base's listed tests: the ones that run now, in packages whose tests the change
// did not touch, go into the base's census as they ended now; the others need a run at the base.
func (j *baseJudge) split(ctx context.Context, g gates.Gate, module string, listing *census.Listing, now census.Census) (census.Census, []census.Test) {
	nowByTop := map[string][]census.Test{}
	for _, t := range now.Tests {
		nowByTop[census.Top(t)] = append(nowByTop[census.Top(t)], t)
	}
	touched := j.testPackagesTouched(ctx, g, module)
	base := census.Census{Runner: now.Runner, Complete: true}
	var need []census.Test
	for pkg, names := range listing.Tests {
		for _, name := range names {
			id := pkg + "::" + name
			if ran, ok := nowByTop[id]; ok && !touched(pkg) {
				base.Tests = append(base.Tests, ran...)
				continue
			}
			need = append(need, census.Test{ID: id, Suite: pkg, Name: name})
		}
	}
	return base, need
}

// testPackagesTouched says whether the change touched a test file of a Go package (by import
// path): the package's directory under the module (its path module) g's directory holds.
func (j *baseJudge) testPackagesTouched(ctx context.Context, g gates.Gate, module string) func(pkg string) bool {
	touched := map[string]bool{}
	for _, d := range j.changedTestDirs(ctx) {
		if pkg, ok := packageOf(module, filepath.ToSlash(filepath.Clean(g.Dir)), d); ok {
			touched[pkg] = true
		}
	}
	return func(pkg string) bool { return touched[pkg] }
}

// changedTestDirs are the directories (root-relative) of the test files the change touched.
func (j *baseJudge) changedTestDirs(ctx context.Context) []string {
	ch, err := j.snap.Change(ctx)
	if err != nil {
		return nil
	}
	var dirs []string
	for _, f := range ch.Files {
		for _, p := range []string{f.Path, f.RenamedTo} {
			if p != "" && integrity.IsTestFile(p) {
				dirs = append(dirs, path.Dir(p))
			}
		}
	}
	return dirs
}

// packageOf is the import path of the package in dir (root-relative), in the module whose root is
// moduleDir (root-relative, "." for the root); false when dir is outside the module.
func packageOf(module, moduleDir, dir string) (string, bool) {
	switch {
	case moduleDir == ".":
		return path.Join(module, dir), true
	case dir == moduleDir:
		return module, true
	}
	if inModule, ok := strings.CutPrefix(dir, moduleDir+"/"); ok {
		return path.Join(module, inModule), true
	}
	return "", false
}

// modulePath is the module path the go.mod in dir declares; "" when none can be read.
func modulePath(dir string) string {
	data, err := safefile.ReadFile(filepath.Join(dir, "go.mod"), 1<<20, time.Now().Add(2*time.Second))
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}
