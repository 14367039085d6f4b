package session

import (
	"os"
	pathpkg "path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// The base's checkout borrows the project's virtualenvs (.venv, venv) as it borrows node_modules:
// a package swapped there for another version (`pip install pytest==0.1 --no-deps`) breaks the
// base as well. Each installed distribution leaves a directory NAME-VERSION.dist-info in
// site-packages, so the session records those names at its start (one directory listing per
// virtualenv, at a stop too) and a stop names each distribution whose version changed or that
// is gone, unless the project's Python lockfile or requirements name the new state (an upgrade
// the change declares, which its diff shows).

// venvDirs are the virtualenvs whose packages are recorded: the borrowed ones.
var venvDirs = []string{".venv", "venv"}

// pythonLocks are the files at the root that can declare a distribution's version.
var pythonLocks = []string{"uv.lock", "poetry.lock", "pdm.lock", "Pipfile.lock", "pylock.toml", "requirements.txt",
	"requirements-dev.txt", "requirements/dev.txt", "requirements/test.txt", "dev-requirements.txt", "test-requirements.txt"}

const (
	maxDists          = 5000
	maxPythonLockSize = 16 << 20
)

// sitePackages are the site-packages directories of root's virtualenvs, relative to root.
func sitePackages(root string) []string {
	var out []string
	for _, venv := range venvDirs {
		if _, err := os.Stat(filepath.Join(root, venv, "Lib", "site-packages")); err == nil {
			out = append(out, venv+"/Lib/site-packages") // Windows
		}
		libs, _ := filepath.Glob(filepath.Join(root, venv, "lib", "python*"))
		for _, lib := range libs {
			if rel, err := filepath.Rel(root, filepath.Join(lib, "site-packages")); err == nil {
				out = append(out, filepath.ToSlash(rel))
			}
		}
	}
	return out
}

// DepDists lists the distributions installed in root's virtualenvs, as the paths of their
// .dist-info directories, sorted; at most maxDists.
func DepDists(root string) []string {
	var out []string
	for _, dir := range sitePackages(root) {
		f, err := os.Open(filepath.Join(root, filepath.FromSlash(dir)))
		if err != nil {
			continue
		}
		names, _ := f.Readdirnames(maxDists)
		f.Close()
		for _, name := range names {
			if strings.HasSuffix(name, ".dist-info") && len(out) < maxDists {
				out = append(out, dir+"/"+name)
			}
		}
	}
	slices.Sort(out)
	return out
}

// distName splits NAME-VERSION.dist-info into the normalized name and the version.
func distName(dirName string) (name, version string) {
	base := strings.TrimSuffix(dirName, ".dist-info")
	name, version, _ = strings.Cut(base, "-")
	return normalizeDist(name), version
}

var distSeparators = regexp.MustCompile(`[-_.]+`)

// normalizeDist is a distribution's name as PEP 503 compares them.
func normalizeDist(name string) string {
	return distSeparators.ReplaceAllString(strings.ToLower(name), "-")
}

// ChangedDists names the distributions of the virtualenvs whose version changed since the
// session's start (".venv: pytest 8.0.0 is now 0.1"), or that are gone (".venv: pytest 8.0.0
// removed"), but those the project's lockfile or requirements now declare so. A distribution
// installed since is not named.
func (r *Record) ChangedDists(root string) []string {
	if !r.DistsKnown || len(r.Dists) == 0 {
		return nil
	}
	now := DepDists(root)
	nowByName := map[string]string{} // site-packages dir + normalized name -> version
	for _, p := range now {
		dir, file := pathpkg.Split(p)
		name, version := distName(file)
		nowByName[dir+name] = version
	}
	var locks []string
	var out []string
	for _, p := range r.Dists {
		if _, ok := slices.BinarySearch(now, p); ok {
			continue
		}
		dir, file := pathpkg.Split(p)
		name, was := distName(file)
		if locks == nil {
			locks = pythonLockLines(root)
		}
		venv, _, _ := strings.Cut(dir, "/")
		switch current, installed := nowByName[dir+name]; {
		// Only a lockfile or requirements file read now declares a removal: without one, nothing does.
		case installed && declares(locks, name, current), !installed && len(locks) > 0 && !names(locks, name):
			continue
		case installed:
			out = append(out, venv+": "+name+" "+was+" is now "+current)
		default:
			out = append(out, venv+": "+name+" "+was+" removed")
		}
	}
	return out
}

// pythonLockLines are the lines of the root's Python lockfiles and requirements, lower case,
// with every run of -, _ and . in a word made "-" (names compared as PEP 503 does; a version's
// dots become dashes on both sides of a comparison).
func pythonLockLines(root string) []string {
	deadline := time.Now().Add(packagesBudget)
	lines := []string{}
	for _, name := range pythonLocks {
		data, err := safefile.ReadFile(filepath.Join(root, filepath.FromSlash(name)), maxPythonLockSize, deadline)
		if err != nil {
			continue
		}
		for l := range strings.SplitSeq(string(data), "\n") {
			lines = append(lines, normalizeDist(l))
		}
	}
	return lines
}

// nameRef finds a distribution's name as a lockfile or requirements line writes it: a word of
// its own, not part of a longer name.
func nameRef(name string) *regexp.Regexp {
	return regexp.MustCompile(`(^|[^a-z0-9-])` + regexp.QuoteMeta(name) + `($|[^a-z0-9-])`)
}

// names says whether any line names the distribution.
func names(lines []string, name string) bool {
	re := nameRef(name)
	return slices.ContainsFunc(lines, re.MatchString)
}

// declares says whether the lines give the distribution that version: on the line naming it
// (name==version), or on one of the three after it before the next entry starts (name = "x",
// then version = "v").
func declares(lines []string, name, version string) bool {
	re, v := nameRef(name), normalizeDist(version)
	verRef := regexp.MustCompile(`(^|[^a-z0-9-])` + regexp.QuoteMeta(v) + `($|[^a-z0-9-])`)
	for i, l := range lines {
		if !re.MatchString(l) {
			continue
		}
		if verRef.MatchString(l) {
			return true
		}
		for _, near := range lines[i+1 : min(len(lines), i+4)] {
			if startsEntry(near) {
				break
			}
			if verRef.MatchString(near) {
				return true
			}
		}
	}
	return false
}

// startsEntry says whether a lockfile line starts another distribution's entry: a TOML table, a
// name key, a requirement with its version.
func startsEntry(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "[") || strings.HasPrefix(t, "name") || strings.Contains(t, "==")
}
