package integrity

import (
	"context"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

// A file git does not track, or is told to ignore (.gitignore, .git/info/exclude), can take the
// place of what a gate runs without any tracked file changing: make reads GNUmakefile and
// makefile before Makefile, Python imports a module of the gate's directory before the standard
// one of that name, pytest loads every conftest.py of the tests' directories. Such a file is the
// change's own, and is named; the same file tracked is the project's.

var (
	// makeGate is a command that runs make.
	makeGate = lazy(`(?:^|[\s;&|(])g?make(?:\s|$)`)
	// pythonGate is a command that runs Python or a Python test runner (directly, through make, or
	// through a Python project tool).
	pythonGate = lazy(`(?:^|[\s;&|(/])(?:python[0-9.]*|pytest|py\.test|tox|nox|uv|poetry|hatch|pdm|g?make)(?:\s|$)`)
	// goTestGate is a command that runs go test (as the go tool's argv joins it too).
	goTestGate = lazy(`(?:^|[\s;&|(/])(?:go\s+test|gotestsum)(?:\s|$)`)
)

// makefileNames are the files make reads before Makefile, in its order.
var makefileNames = []string{"GNUmakefile", "makefile"}

// shadowedModules are standard modules (and the test runner) whose stand-in beside the tests
// changes what the tests check: the test framework itself, and what assertions and fixtures lean
// on. Names a project often keeps untracked for another reason (secrets.py, test.py, code.py) are
// left out.
var shadowedModules = []string{
	"unittest", "doctest", "pytest", "_pytest", "pluggy", "os", "sys", "builtins", "site",
	"sitecustomize", "usercustomize", "io", "re", "json", "subprocess", "importlib", "inspect",
	"functools", "collections", "typing", "pathlib", "math", "random", "time", "datetime",
	"decimal", "fractions", "operator", "copy", "string", "logging", "warnings", "traceback",
	"contextlib", "tempfile", "shutil", "asyncio", "threading",
}

// moduleDirs are the directories whose modules come first on a test's import path: the project's
// root (the gate's working directory) and the usual test directories pytest inserts.
var moduleDirs = []string{"", "tests/", "test/"}

// shadowingFiles names the untracked and ignored files that take the place of what the gates
// run: a makefile make reads before Makefile for a gate that runs make, a module named like a
// standard one or a conftest.py for a gate that runs Python, an ignored Go test file for a gate
// that runs go test.
func shadowingFiles(ctx context.Context, snap *snapshot.Snapshot, commands []string) ([]gates.IntegrityFinding, error) {
	runsMake := slices.ContainsFunc(commands, makeGate.MatchString)
	runsPython := slices.ContainsFunc(commands, pythonGate.MatchString)
	runsGoTest := slices.ContainsFunc(commands, goTestGate.MatchString)
	if !runsMake && !runsPython && !runsGoTest {
		return nil, nil
	}
	tree, err := snap.Tree(ctx)
	if err != nil {
		return nil, err
	}
	out, err := toolShadows(ctx, tree, runsMake, runsPython)
	if err != nil || !runsGoTest {
		return out, err
	}
	// Only the ignored ones: an untracked test file is in the diff, judged as a test file.
	hidden, err := ignoredGoFiles(ctx, tree, snap.Root())
	return append(out, hidden...), err
}

// toolShadows names the makefiles, modules and conftest.py files that shadow what make and
// Python run, untracked or ignored.
func toolShadows(ctx context.Context, tree *snapshot.Tree, runsMake, runsPython bool) ([]gates.IntegrityFinding, error) {
	if !runsMake && !runsPython {
		return nil, nil
	}
	patterns := shadowPatterns(runsMake, runsPython)
	// git walks only the folders the patterns name for the ignored ones: not node_modules or a
	// virtual environment, where a deeper conftest.py is a package's own.
	ignored, err := tree.Ignored(ctx, patterns)
	if err != nil {
		return nil, err
	}
	out := untrackedShadows(tree, patterns, runsPython)
	for _, p := range ignored {
		if !installed(p) {
			out = append(out, shadowFinding(p, "is ignored by git (.gitignore or .git/info/exclude)"))
		}
	}
	return out, nil
}

// maxIgnoredGoFiles bounds the ignored Go code files read for what steers a test binary.
const maxIgnoredGoFiles = 200

// ignoredGoFiles names the Go files git ignores that go test compiles (every one outside
// testdata, vendor and the folders no package path enters, a leading _ or .): each test file,
// and each code file with a line that steers or imitates the test binary (selfsteer.go's
// patterns: an init() writing -test.run into os.Args). Other ignored code is generated output
// a project keeps out of git, and is quiet.
func ignoredGoFiles(ctx context.Context, tree *snapshot.Tree, root string) ([]gates.IntegrityFinding, error) {
	list, err := tree.Ignored(ctx, []string{"**/*.go"})
	if err != nil {
		return nil, err
	}
	var out []gates.IntegrityFinding
	read := 0
	var r *os.Root // opened for the first code file read
	defer func() {
		if r != nil {
			r.Close()
		}
	}()
	for _, p := range list {
		switch {
		case installed(p) || notOurs(p) || outsidePackages(p):
		case strings.HasSuffix(p, "_test.go"):
			out = append(out, gates.IntegrityFinding{Rule: gates.RuleChangeHidden, File: p,
				Message: p + " is ignored by git (.gitignore or .git/info/exclude) and go test compiles it into its package's test binary, where its code runs with the tests; it is part of the change: track it to show it, or remove it"})
		case read < maxIgnoredGoFiles:
			read++
			if r == nil {
				if r, err = os.OpenRoot(root); err != nil {
					read = maxIgnoredGoFiles // the code files cannot be read; the test files are still named
					continue
				}
			}
			if n, line, ok := steeringLine(r, p); ok {
				out = append(out, gates.IntegrityFinding{Rule: gates.RuleChangeHidden, File: p, Line: n,
					Message: p + " is ignored by git (.gitignore or .git/info/exclude) and go compiles it into its package, where it steers the test binary (" + excerpt(line) + "); it is part of the change: track it to show it, or remove it"})
			}
		}
	}
	return out, nil
}

// steeringLine is the first line of a Go file of the tree that sets the test binary's flags or
// prints go test's framing, read boundedly.
func steeringLine(r *os.Root, p string) (int, string, bool) {
	data, ok := readInRoot(r, p)
	if !ok {
		return 0, "", false
	}
	for i, line := range splitLines(data) {
		if _, steers := steersTestBinary(line); steers {
			return i + 1, line, true
		}
	}
	return 0, "", false
}

// outsidePackages says whether a path lies in a directory ./... does not enter (_x, .x).
func outsidePackages(p string) bool {
	for _, part := range strings.Split(path.Dir(p), "/") {
		if strings.HasPrefix(part, "_") || strings.HasPrefix(part, ".") && part != "." {
			return true
		}
	}
	return false
}

// untrackedShadows names the untracked files among patterns, and with python every untracked
// conftest.py, wherever it is (git status lists them all already).
func untrackedShadows(tree *snapshot.Tree, patterns []string, python bool) []gates.IntegrityFinding {
	var out []gates.IntegrityFinding
	for _, e := range tree.Entries {
		if e.Untracked && !installed(e.Path) && (matchesAny(e.Path, patterns) || python && path.Base(e.Path) == "conftest.py") {
			out = append(out, shadowFinding(e.Path, "is not tracked"))
		}
	}
	return out
}

// shadowPatterns are the root-relative globs of the files that shadow what such gates run.
func shadowPatterns(runsMake, runsPython bool) []string {
	var out []string
	if runsMake {
		out = append(out, makefileNames...)
	}
	if runsPython {
		out = append(out, "conftest.py", "tests/**/conftest.py", "test/**/conftest.py")
		for _, dir := range moduleDirs {
			for _, m := range shadowedModules {
				out = append(out, dir+m+".py", dir+m+"/__init__.py")
			}
		}
	}
	return out
}

// matchesAny says whether p is one of the shadowing files patterns name.
func matchesAny(p string, patterns []string) bool {
	return slices.ContainsFunc(patterns, func(pat string) bool {
		ok, _ := doublestar.Match(pat, p)
		return ok
	})
}

// installed says whether p lies in a folder of installed packages or environments (a package's
// own conftest.py in a virtual environment is no test's).
func installed(p string) bool {
	for _, dir := range []string{"node_modules/", "site-packages/", ".venv/", "venv/", ".tox/", ".nox/", "vendor/"} {
		if strings.HasPrefix(p, dir) || strings.Contains(p, "/"+dir) {
			return true
		}
	}
	return false
}

// shadowFinding names one shadowing file and what it stands in for.
func shadowFinding(p, how string) gates.IntegrityFinding {
	name := path.Base(p)
	var what string
	switch {
	case slices.Contains(makefileNames, name):
		what = "make reads it before Makefile: a gate that runs make runs its targets, not the project's"
	case name == "conftest.py":
		what = "pytest loads it with the tests: its fixtures and hooks change what they check"
	case name == "__init__.py":
		what = "Python imports it in place of the module " + path.Base(path.Dir(p))
	default:
		what = "Python imports it in place of the module " + strings.TrimSuffix(name, ".py")
	}
	return gates.IntegrityFinding{Rule: gates.RuleScriptNeutered, File: p,
		Message: p + " " + how + " and " + what + "; it is part of the change: track it to show it, or remove it"}
}
