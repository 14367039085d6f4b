package session

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A lockfile-listed package whose installed version changed since the start is named, unless the
// lockfile now names that version; one removed is named unless the lockfile dropped it; a package
// installed since is not.
func TestChangedPackages(t *testing.T) {
	root := t.TempDir()
	write := func(name, data string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package-lock.json", `{"lockfileVersion":3,"packages":{"":{"dependencies":{"a":"^1"},"devDependencies":{"b":"^1","c":"^1","d":"^1","w":"*"}},
		"node_modules/a":{"version":"1.0.0"},"node_modules/b":{"version":"1.0.0"},"node_modules/c":{"version":"1.0.0"},
		"node_modules/d":{"version":"1.0.0"},"node_modules/w":{"link":true},"node_modules/t":{"version":"1.0.0"}}}`)
	for _, p := range []string{"a", "b", "c", "d", "t"} {
		write("node_modules/"+p+"/package.json", `{"version":"1.0.0"}`)
	}
	rec := &Record{Packages: DepPackages(root), PackagesKnown: true}
	if len(rec.Packages) != 4 {
		t.Fatalf("recorded %q, want the four direct dependencies with a version (not t, a dependency's)", rec.Packages)
	}
	if got := rec.ChangedPackages(root); len(got) != 0 {
		t.Fatalf("nothing changed, got %q", got)
	}
	write("node_modules/a/package.json", `{"version":"0.0.1"}`) // swapped
	write("node_modules/b/package.json", `{"version":"2.0.0"}`) // upgraded, declared below
	os.RemoveAll(filepath.Join(root, "node_modules", "c"))      // removed
	os.RemoveAll(filepath.Join(root, "node_modules", "d"))      // uninstalled, declared below
	write("node_modules/e/package.json", `{"version":"1.0.0"}`) // installed
	write("package-lock.json", `{"lockfileVersion":3,"packages":{"node_modules/a":{"version":"1.0.0"},"node_modules/b":{"version":"2.0.0"},
		"node_modules/c":{"version":"1.0.0"},"node_modules/e":{"version":"1.0.0"}}}`)
	want := []string{"node_modules/a 1.0.0 is now 0.0.1", "node_modules/c removed"}
	if got := rec.ChangedPackages(root); !slices.Equal(got, want) {
		t.Errorf("changed = %q, want %q", got, want)
	}
	if got := (&Record{}).ChangedPackages(root); got != nil {
		t.Errorf("a record made before the field: %q", got)
	}
}

// A lockfile without a root entry (lockfileVersion 1) has the direct dependencies read from the
// root's package.json.
func TestDepPackagesOfAnOldLockfile(t *testing.T) {
	root := t.TempDir()
	for name, data := range map[string]string{
		"package-lock.json":           `{"lockfileVersion":1,"dependencies":{"a":{"version":"1.0.0"},"t":{"version":"1.0.0"}}}`,
		"package.json":                `{"devDependencies":{"a":"^1"}}`,
		"node_modules/a/package.json": `{"version":"1.0.0"}`,
		"node_modules/t/package.json": `{"version":"1.0.0"}`,
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := slices.Sorted(maps.Keys(DepPackages(root))); !slices.Equal(got, []string{"node_modules/a"}) {
		t.Errorf("recorded %q, want node_modules/a", got)
	}
}

// Only a lockfile read at the stop can declare a removal: with the lockfile deleted or made
// unreadable, a package removed since the start is named, as a swapped one already is.
func TestChangedPackagesRemovedWithoutALockfile(t *testing.T) {
	for name, lock := range map[string]string{"deleted": "", "not JSON": "{not json"} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			write := func(name, data string) {
				t.Helper()
				p := filepath.Join(root, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("package-lock.json", `{"lockfileVersion":3,"packages":{"":{"devDependencies":{"vitest":"^1"}},"node_modules/vitest":{"version":"1.0.0"}}}`)
			write("node_modules/vitest/package.json", `{"version":"1.0.0"}`)
			rec := &Record{Packages: DepPackages(root), PackagesKnown: true}
			if len(rec.Packages) != 1 {
				t.Fatalf("recorded %q", rec.Packages)
			}
			os.RemoveAll(filepath.Join(root, "node_modules", "vitest"))
			os.Remove(filepath.Join(root, "package-lock.json"))
			if lock != "" {
				write("package-lock.json", lock)
			}
			want := []string{"node_modules/vitest removed"}
			if got := rec.ChangedPackages(root); !slices.Equal(got, want) {
				t.Errorf("changed = %q, want %q", got, want)
			}
		})
	}
}
