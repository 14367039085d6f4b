package session

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

// The base's checkout borrows the project's node_modules. A package swapped there for another
// version (`npm i vitest@0.0.1 --no-save`, its package.json edited) breaks the base as well, and
// "the base fails the same way" would excuse the change. So the session records, for every
// package the project depends on directly (the root's dependencies, as its npm lockfile or its
// package.json names them: the test runner, the linters) and the lockfile lists, the version
// installed at its start; a stop names each whose installed version changed since, unless the
// change's lockfile names that version (an upgrade the change declares, which its diff shows).
// Direct dependencies only, so that it stays cheap: one lstat per package at a stop (a
// package.json whose identity, size, times and inode, is the start's is not read again), a few
// dozen where the lockfile lists thousands.

// npmLockfiles are the lockfiles read, in order; the first present is the project's.
var npmLockfiles = []string{"npm-shrinkwrap.json", "package-lock.json"}

const (
	maxLockfileBytes    = 32 << 20
	maxPackages         = 1000
	maxPackageJSONBytes = 1 << 20
	packagesBudget      = 10 * time.Second
)

// depLists are the lists of a package.json (or of a lockfile's root entry) that name the
// packages a project depends on directly.
type depLists struct {
	Dependencies         map[string]any `json:"dependencies"`
	DevDependencies      map[string]any `json:"devDependencies"`
	OptionalDependencies map[string]any `json:"optionalDependencies"`
	PeerDependencies     map[string]any `json:"peerDependencies"`
}

// names are the packages the lists name, as node_modules paths.
func (d depLists) names() map[string]bool {
	out := map[string]bool{}
	for _, m := range []map[string]any{d.Dependencies, d.DevDependencies, d.OptionalDependencies, d.PeerDependencies} {
		for name := range m {
			out["node_modules/"+name] = true
		}
	}
	return out
}

// lockfile is what is read of an npm lockfile: the packages of lockfileVersion 2 and 3, by path
// ("node_modules/a", "node_modules/a/node_modules/b"), the root's own entry (""), and version
// 1's top-level dependencies.
type lockfile struct {
	Packages     map[string]json.RawMessage          `json:"packages"`
	Dependencies map[string]struct{ Version string } `json:"dependencies"`
}

// lockedVersions are the versions root's npm lockfile names, by package path, and the packages
// the root depends on directly (from the lockfile's root entry); ok is false when there is no
// lockfile (or it cannot be read).
func lockedVersions(root string, deadline time.Time) (versions map[string]string, direct map[string]bool, ok bool) {
	for _, name := range npmLockfiles {
		data, err := safefile.ReadFile(filepath.Join(root, name), maxLockfileBytes, deadline)
		if err != nil {
			continue
		}
		var lf lockfile
		if json.Unmarshal(data, &lf) != nil {
			return nil, nil, false
		}
		versions = map[string]string{}
		for key, raw := range lf.Packages {
			var p struct{ Version string }
			switch {
			case key == "":
				var d depLists
				_ = json.Unmarshal(raw, &d)
				direct = d.names()
			case strings.HasPrefix(key, "node_modules/") && json.Unmarshal(raw, &p) == nil && p.Version != "":
				versions[key] = p.Version
			}
		}
		for name, d := range lf.Dependencies {
			if _, ok := versions["node_modules/"+name]; !ok && d.Version != "" {
				versions["node_modules/"+name] = d.Version
			}
		}
		return versions, direct, true
	}
	return nil, nil, false
}

// directDeps are the packages root's package.json depends on directly (a lockfile of version 1
// has no root entry to name them).
func directDeps(root string, deadline time.Time) map[string]bool {
	data, err := safefile.ReadFile(filepath.Join(root, "package.json"), maxPackageJSONBytes, deadline)
	if err != nil {
		return nil
	}
	var d depLists
	if json.Unmarshal(data, &d) != nil {
		return nil
	}
	return d.names()
}

// DepPackages records each package root depends on directly that its npm lockfile lists (at
// most maxPackages, in path order) as installed now: its version, and the identity of its
// package.json. nil without a lockfile.
func DepPackages(root string) map[string]string {
	deadline := time.Now().Add(packagesBudget)
	locked, direct, ok := lockedVersions(root, deadline)
	if !ok {
		return nil
	}
	if len(direct) == 0 {
		direct = directDeps(root, deadline)
	}
	out := map[string]string{}
	for _, key := range slices.Sorted(maps.Keys(direct)) {
		if _, listed := locked[key]; !listed {
			continue
		}
		if len(out) == maxPackages || time.Now().After(deadline) {
			break
		}
		pj := filepath.Join(root, filepath.FromSlash(key), "package.json")
		id, _ := snapshot.FileID(pj)
		version, _ := installedVersion(pj, deadline)
		out[key] = version + "\x00" + id
	}
	return out
}

// installedVersion is the version a package.json names; ok is false when it cannot be read.
func installedVersion(path string, deadline time.Time) (string, bool) {
	data, err := safefile.ReadFile(path, maxPackageJSONBytes, deadline)
	if err != nil {
		return "", false
	}
	var pj struct{ Version string }
	if json.Unmarshal(data, &pj) != nil {
		return "", false
	}
	return pj.Version, true
}

// ChangedPackages names the lockfile-listed packages whose installed version changed since the
// session's start ("node_modules/vitest 1.0.0 is now 0.0.1", "node_modules/vitest removed"),
// but those the lockfile now names as installed (an upgrade, or a removal, the change declares).
func (r *Record) ChangedPackages(root string) []string {
	if !r.PackagesKnown || len(r.Packages) == 0 {
		return nil
	}
	deadline := time.Now().Add(packagesBudget)
	var locked map[string]string
	lockTried, lockRead := false, false
	var out []string
	for _, key := range slices.Sorted(maps.Keys(r.Packages)) {
		was, wasID, _ := strings.Cut(r.Packages[key], "\x00")
		pj := filepath.Join(root, filepath.FromSlash(key), "package.json")
		if id, ok := snapshot.FileID(pj); ok && id == wasID {
			continue
		}
		now, installed := installedVersion(pj, deadline)
		if installed && now == was {
			continue
		}
		if !lockTried {
			// Read once: a lockfile absent or unparsable is not read again for every package.
			locked, _, lockRead = lockedVersions(root, deadline)
			lockTried = true
		}
		declared, listed := locked[key]
		switch {
		// Only a lockfile read now declares a removal: one deleted or unreadable lists nothing.
		case installed && listed && declared == now, !installed && !listed && lockRead:
			continue // the change's lockfile says so
		case !installed:
			out = append(out, key+" removed")
		default:
			out = append(out, key+" "+was+" is now "+now)
		}
	}
	return out
}
