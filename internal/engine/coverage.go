package engine

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/census"
	"github.com/gauntlet-dev/gauntlet/internal/coverage"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// Coverage of untouched code (docs/coverage.md): a test can keep passing and stop testing. A gate
// with coverage: has its coverage read as its census is, in the same run, and the stop compares
// it with the base's, kept beside the base's census.

// maxGoModBytes bounds the read of a go.mod, for the module path a Go cover profile's names
// start with.
const maxGoModBytes = 1 << 20

// CoveragePlan says how a gate's coverage is read: from the reports its coverage: glob names,
// from the cover profiles its go test commands write (asked for, or named by the command), or
// not at all, and why.
type CoveragePlan struct {
	// Reports is the gate's coverage: glob, when it names its reports.
	Reports string
	// Ask are the go test commands to be asked for -coverprofile (census.Apply's requests, with
	// census.FilePlaceholder standing for the profile's file); Named are the profiles the
	// command names itself, relative to the gate's directory.
	Ask   []census.Request
	Named []string
	// Unmeasured says why a gate with coverage: has none read; "" when it has.
	Unmeasured string
}

// Measured says whether coverage is read for the gate.
func (p CoveragePlan) Measured() bool {
	return p.Reports != "" || len(p.Ask) > 0 || len(p.Named) > 0
}

// PlanCoverage decides how a gate's coverage is read, from the gate and its census plan (the
// runners its command runs). It reads only the gate, so that doctor says what a run does.
// A gate without coverage: is covered where its command runs go test and gauntlet can add to it
// (Default), and silently not otherwise; coverage: off measures none. go test's -coverprofile
// costs what instrumenting the changed packages costs, once its covdata runs through the shim
// (internal/covshim, docs/census.md).
func PlanCoverage(g gates.Gate, cp CensusPlan) CoveragePlan {
	switch {
	case g.Coverage == gates.Off:
		return CoveragePlan{}
	case g.Coverage == "":
		if cp.Uncounted != "" {
			return CoveragePlan{}
		}
		plan, _ := askGoCoverage(g, cp)
		return plan
	case g.Coverage != gates.CoverageAuto:
		return CoveragePlan{Reports: g.Coverage}
	case cp.Uncounted != "":
		return CoveragePlan{Unmeasured: "coverage: auto needs a command gauntlet can add to, and " + cp.Uncounted}
	}
	plan, refused := askGoCoverage(g, cp)
	switch {
	case plan.Measured():
	case len(refused) > 0:
		plan.Unmeasured = "coverage: auto asks go test for its cover profile, and " + strings.Join(refused, "; ")
	default:
		plan.Unmeasured = "coverage: auto asks go test for its cover profile, and the command runs none: name the report the gate writes (lcov, coverage.py's JSON, a Go cover profile) in coverage: PATH"
	}
	return plan
}

// askGoCoverage asks each go test the gate runs for its cover profile, or reads the one it names;
// refused says why a go test that cannot write one (-fuzz, -cover=false, in its words or the
// gate's GOFLAGS) was not asked.
func askGoCoverage(g gates.Gate, cp CensusPlan) (plan CoveragePlan, refused []string) {
	gateFlags := (census.GoShow{}).WithGOFLAGS(lastValue(g.Env, "GOFLAGS"))
	for _, r := range cp.Requests {
		switch {
		case r.Runner != "go test":
		case r.NoCover != "" || gateFlags.NoCover != "":
			refused = append(refused, cmp.Or(r.NoCover, gateFlags.NoCover))
		case r.CoverProfile != "":
			plan.Named = append(plan.Named, r.CoverProfile)
		default:
			plan.Ask = append(plan.Ask, census.Request{Runner: r.Runner, At: r.At, Offset: r.Offset,
				Program: r.Program, Toolexec: r.Toolexec, Args: []string{"-coverprofile=" + census.FilePlaceholder}})
		}
	}
	return plan, refused
}

// gateCoverage is the coverage of one gate: where its reports are, and what was read.
type gateCoverage struct {
	plan CoveragePlan
	// profiles are the absolute paths of the profiles asked for or named, once the gate starts.
	profiles []string
	result   *coverage.Coverage
	// unmeasured says why no coverage was read.
	unmeasured string
	// unwritten says why the coverage the gate's run was to write could not be read (not written,
	// not written during the run, unreadable): set only once the gate has run.
	unwritten string
}

// askCoverage gives the requests that ask the gate's go test commands for a cover profile, and
// notes where every profile will be.
func (gc *gateCensus) askCoverage() ([]census.Request, []string, error) {
	cv := gc.cover
	if cv == nil {
		return nil, nil, nil
	}
	var files []string
	ask := slices.Clone(cv.plan.Ask)
	for i, r := range ask {
		dir, err := gc.stage.temp.open()
		if err != nil {
			return nil, nil, err
		}
		files = append(files, filepath.Join(dir, fmt.Sprintf("%s-cover-%d.out", gc.gate.Name, i)))
		if flag := gc.stage.toolexecFlag(gc, r); flag != "" {
			ask[i].Args = append(slices.Clone(r.Args), flag)
		}
	}
	cv.profiles = append(cv.profiles, files...)
	for _, p := range cv.plan.Named {
		if !filepath.IsAbs(p) {
			p = filepath.Join(gc.dir, p)
		}
		cv.profiles = append(cv.profiles, p)
	}
	gc.snapshotReports(cv.profiles)
	return ask, files, nil
}

// readCoverage reads the gate's coverage once it has ended: the profiles, or the reports its
// coverage: glob matches, each refused unless written during the gate's run.
func (gc *gateCensus) readCoverage(deadline time.Time) {
	cv := gc.cover
	if cv == nil || cv.unmeasured != "" {
		return
	}
	paths := cv.profiles
	if cv.plan.Reports != "" {
		paths = gc.globReports(cv.plan.Reports, deadline)
	}
	if len(paths) == 0 {
		cv.unmeasured, cv.unwritten = "no coverage report was written", "no coverage report was written"
		return
	}
	var parts []coverage.Coverage
	for _, p := range paths {
		c, err := gc.readCoverageReport(p, deadline)
		if err != nil {
			cv.unmeasured, cv.unwritten = err.Error(), err.Error()
			return
		}
		parts = append(parts, c)
	}
	merged := coverage.Merge(parts...)
	cv.result = &merged
}

func (gc *gateCensus) readCoverageReport(p string, deadline time.Time) (coverage.Coverage, error) {
	name := gc.displayPath(p)
	root, rel, err := gc.rootOf(p)
	if err != nil {
		return coverage.Coverage{}, fmt.Errorf("coverage report %s: %w", name, err)
	}
	defer root.Close()
	file, info, err := safefile.OpenInRoot(root, rel, deadline)
	if errors.Is(err, fs.ErrNotExist) {
		return coverage.Coverage{}, fmt.Errorf("coverage report %s was not written", name)
	}
	if err != nil {
		return coverage.Coverage{}, fmt.Errorf("coverage report %s: %w", name, err)
	}
	defer file.Close()
	if was, ok := gc.before[p]; ok && was == (stamp{info.ModTime(), info.Size()}) {
		return coverage.Coverage{}, fmt.Errorf("coverage report %s was not written during the gate's run", name)
	}
	c, err := coverage.Read(&deadlineReader{r: file, deadline: deadline}, gc.coveragePaths(), gc.goModulePaths(deadline), coverage.Options{})
	if err != nil {
		return coverage.Coverage{}, fmt.Errorf("coverage report %s: %w", name, err)
	}
	return c, nil
}

// coveragePaths maps the file names lcov and coverage.py write to the project's: absolute ones
// inside the project, relative ones from the gate's directory, where the tool ran.
func (gc *gateCensus) coveragePaths() coverage.PathMap {
	inRoot := coverage.RootRelative(filepath.ToSlash(gc.stage.root))
	dir := filepath.ToSlash(gc.gate.Dir)
	return func(name string) (string, bool) {
		slashed := strings.ReplaceAll(name, `\`, "/")
		if path.IsAbs(slashed) || filepath.IsAbs(name) || dir == "" || dir == "." {
			return inRoot(name)
		}
		return inRoot(path.Join(dir, slashed))
	}
}

// goModulePaths maps a Go cover profile's import paths by the module the gate runs in: the
// nearest go.mod from its directory up to the project's root; nil when there is none. A go.mod
// is read as every file gauntlet reads: a regular file only, bounded, before deadline.
func (gc *gateCensus) goModulePaths(deadline time.Time) coverage.PathMap {
	root, err := os.OpenRoot(gc.stage.root)
	if err != nil {
		return nil
	}
	defer root.Close()
	for dir := path.Clean(filepath.ToSlash(gc.gate.Dir)); ; dir = path.Dir(dir) {
		if data, err := readRootFile(root, path.Join(dir, "go.mod"), maxGoModBytes, deadline); err == nil {
			mod, err := coverage.GoModPath(data)
			if err != nil {
				return nil
			}
			return coverage.GoModules(coverage.Module{Path: mod, Dir: dir})
		}
		if dir == "." || dir == "/" || dir == "" {
			return nil
		}
	}
}

// readRootFile reads at most limit bytes of a regular file inside root, before deadline.
func readRootFile(root *os.Root, name string, limit int64, deadline time.Time) ([]byte, error) {
	f, _, err := safefile.OpenInRoot(root, filepath.FromSlash(name), deadline)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return safefile.ReadAll(f, limit, deadline)
}

// globReports are the files a glob matches in the project, absolute, at most maxReports.
func (gc *gateCensus) globReports(glob string, deadline time.Time) []string {
	root, err := os.OpenRoot(gc.stage.root)
	if err != nil {
		return nil
	}
	defer root.Close()
	var out []string
	_ = doublestar.GlobWalk(root.FS(), glob, func(p string, _ fs.DirEntry) error {
		if len(out) >= maxReports || time.Now().After(deadline) {
			return fs.SkipAll
		}
		out = append(out, filepath.Join(gc.stage.root, filepath.FromSlash(p)))
		return nil
	}, doublestar.WithFilesOnly())
	return out
}

// coverages are the coverages read, by gate.
func (s *censusStage) coverages() map[string]coverage.Coverage {
	out := map[string]coverage.Coverage{}
	for name, gc := range s.gates {
		if gc.cover != nil && gc.cover.result != nil {
			out[name] = *gc.cover.result
		}
	}
	return out
}

// coverageUnwritten says, by gate, why the coverage its run was to write could not be read.
func (s *censusStage) coverageUnwritten() map[string]string {
	out := map[string]string{}
	for name, gc := range s.gates {
		if gc.cover != nil && gc.cover.result == nil && gc.cover.unwritten != "" {
			out[name] = gc.cover.unwritten
		}
	}
	return out
}

// coverageSummary is what reports show of a gate's coverage.
func coverageSummary(gc *gateCensus) (*gates.CoverageSummary, string) {
	cv := gc.cover
	switch {
	case cv == nil:
		return nil, ""
	case cv.result == nil:
		return nil, cv.unmeasured
	}
	c := cv.result
	out := &gates.CoverageSummary{Format: c.Format, Files: len(c.Files), Complete: c.Complete, Notes: c.Notes}
	for _, f := range c.Files {
		out.Lines += len(f.Lines())
		out.Covered += len(f.CoveredLines())
	}
	return out, ""
}
