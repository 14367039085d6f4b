package scaffold

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/git"
)

// The timeouts in checks.go are sized for a cold first run of a large project, where compiling
// dominates. A small project compiles in seconds: a 20m test timeout and a 21m stop hook for two
// files would hold an agent for twenty minutes on a hung test. So the guess scales with what a
// cold build has to do: the project's source files and its dependencies.

// projectSize is how much a cold build of a project compiles.
type projectSize struct {
	files, deps int
}

// sizeCaps are the longest a compile-bound gate gets in a project of a size; 0 keeps the cold
// guess. Rust compiles slowest, and a first Maven or Gradle build downloads its plugins and
// dependencies before it compiles anything, hence their own column.
var sizeCaps = []struct {
	maxFiles, maxDeps int
	cap, rustCap      time.Duration
}{
	{maxFiles: 100, maxDeps: 50, cap: 5 * time.Minute, rustCap: 10 * time.Minute},
	{maxFiles: 1000, maxDeps: 150, cap: 8 * time.Minute, rustCap: 15 * time.Minute},
}

// maxSizeWalk bounds the walk that counts files: past it the project is large anyway.
const maxSizeWalk = 20000

// sourceExts are the files a build compiles or a test runner loads (bats its .bats files and
// the shell libraries they source).
var sourceExts = sync.OnceValue(func() map[string]bool {
	return map[string]bool{".go": true, ".rs": true, ".py": true, ".ts": true, ".tsx": true, ".js": true,
		".jsx": true, ".mjs": true, ".cjs": true, ".mts": true, ".vue": true, ".svelte": true, ".c": true, ".cc": true,
		".cpp": true, ".h": true, ".java": true, ".kt": true, ".rb": true, ".sh": true, ".bash": true, ".bats": true}
})

// measure counts a project's source files (dependency, build and hidden folders, what git
// ignores, and the folders of other projects, left out) and its dependencies as its lock files
// list them.
func measure(abs string, others map[string]bool) projectSize {
	var s projectSize
	seen := 0
	ignored := gitIgnored(abs)
	_ = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		seen++
		if seen > maxSizeWalk {
			s.files = maxSizeWalk
			return filepath.SkipAll
		}
		if d.IsDir() {
			if p != abs && notSourceDir(d.Name(), others[p] || ignored[p]) {
				return filepath.SkipDir
			}
			return nil
		}
		if sourceExts()[filepath.Ext(p)] && !ignored[p] {
			s.files++
		}
		return nil
	})
	s.deps = countDeps(abs)
	return s
}

// buildOutputDirs are folders of build outputs and installed packages whatever git says (outside
// git it says nothing): site-packages is any virtualenv's, by whatever name it goes.
var buildOutputDirs = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"target": true, "dist": true, "build": true, "site-packages": true}
})

// ignoredListTimeout bounds asking git what it ignores: without an answer, the walk counts all.
const (
	ignoredListTimeout = 5 * time.Second
	maxIgnoredList     = 4 << 20
)

// gitIgnored is what git ignores under abs (a virtualenv, a coverage report, a build's output),
// as absolute paths: whole folders are listed once. Nothing outside git, or when git cannot say
// within its time and size.
func gitIgnored(abs string) map[string]bool {
	ctx, cancel := context.WithTimeout(context.Background(), ignoredListTimeout)
	defer cancel()
	out, err := git.Output(ctx, abs, maxIgnoredList, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory", "--", ".")
	if err != nil {
		return nil
	}
	ignored := map[string]bool{}
	for _, name := range git.SplitNUL(out) {
		ignored[filepath.Join(abs, filepath.FromSlash(strings.TrimSuffix(name, "/")))] = true
	}
	return ignored
}

// notSourceDir reports whether a folder holds no source of the project's own: dependencies,
// build outputs, hidden folders, what git ignores, or another project.
func notSourceDir(name string, otherOrIgnored bool) bool {
	return otherOrIgnored || skipDir(name) || buildOutputDirs()[name]
}

// countDeps counts the modules of go.sum, the packages of Cargo.lock, uv.lock and poetry.lock,
// and the direct dependencies of package.json (what node_modules compiles is little).
func countDeps(abs string) int {
	n := 0
	if sum := readCapped(filepath.Join(abs, "go.sum")); sum != nil {
		mods := map[string]bool{}
		for _, line := range strings.Split(string(sum), "\n") {
			if f := strings.Fields(line); len(f) > 0 {
				mods[f[0]] = true
			}
		}
		n += len(mods)
	}
	for _, lock := range []string{"Cargo.lock", "uv.lock", "poetry.lock"} {
		n += bytes.Count(readCapped(filepath.Join(abs, lock)), []byte("[[package]]"))
	}
	var pkg packageJSON
	if json.Unmarshal(readCapped(filepath.Join(abs, "package.json")), &pkg) == nil {
		n += len(pkg.Dependencies) + len(pkg.DevDependencies)
	}
	return n
}

// monorepo reports a JavaScript workspace run by a task orchestrator (nx, turbo, lerna), whose
// tasks build its packages first: its root's files and direct dependencies say nothing of that.
func monorepo(dir string) bool {
	for _, f := range []string{"nx.json", "turbo.json", "lerna.json"} {
		if exists(dir, f) {
			return true
		}
	}
	return false
}

// scaleTimeouts fits the cold-build timeouts of each project's gates (and offers) to its size.
// Format checks, already short, stay as they are.
func scaleTimeouts(root string, projects []Project) {
	others := map[string]bool{}
	for _, p := range projects {
		if p.Dir != "" {
			others[filepath.Join(root, filepath.FromSlash(p.Dir))] = true
		}
	}
	for i := range projects {
		p := &projects[i]
		abs := filepath.Join(root, filepath.FromSlash(p.Dir))
		if len(p.Gates)+len(p.Offers) == 0 || monorepo(abs) {
			continue
		}
		if limit := sizeCap(measure(abs, others), p.Kind); limit > 0 {
			capTimeouts(p.Gates, limit)
			capTimeouts(p.Offers, limit)
		}
	}
}

// sizeCap is the longest timeout a project of this size and kind needs, 0 when it is too big
// to tell.
func sizeCap(size projectSize, kind string) time.Duration {
	for _, c := range sizeCaps {
		if size.files <= c.maxFiles && size.deps <= c.maxDeps {
			if kind == "Rust" || kind == "Java" {
				return c.rustCap
			}
			return c.cap
		}
	}
	return 0
}

// capTimeouts lowers the gates' timeouts above limit to it.
func capTimeouts(gs []Gate, limit time.Duration) {
	for j := range gs {
		gs[j].Timeout = min(gs[j].Timeout, limit)
	}
}
