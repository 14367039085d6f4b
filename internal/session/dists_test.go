package session

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A distribution of a virtualenv whose version changed since the start is named, unless the
// lockfile now gives it that version; one removed is named unless no lockfile names it any more;
// one installed since is not.
func TestChangedDists(t *testing.T) {
	root := t.TempDir()
	site := filepath.Join(root, ".venv", "lib", "python3.12", "site-packages")
	mk := func(name string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(site, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	lock := func(text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, "uv.lock"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"pytest-8.0.0.dist-info", "attrs-23.1.0.dist-info", "six-1.16.0.dist-info", "Py_YAML-6.0.dist-info", "pytest_cov-4.0.dist-info"} {
		mk(d)
	}
	lock("[[package]]\nname = \"pytest\"\nversion = \"8.0.0\"\n\n[[package]]\nname = \"attrs\"\nversion = \"23.1.0\"\n\n" +
		"[[package]]\nname = \"six\"\nversion = \"1.16.0\"\n[[package]]\nname = \"pyyaml\"\nversion = \"6.0\"\n")
	rec := &Record{Dists: DepDists(root), DistsKnown: true}
	if len(rec.Dists) != 5 {
		t.Fatalf("recorded %q", rec.Dists)
	}
	if got := rec.ChangedDists(root); len(got) != 0 {
		t.Fatalf("nothing changed, got %q", got)
	}
	rename := func(from, to string) {
		t.Helper()
		if err := os.Rename(filepath.Join(site, from), filepath.Join(site, to)); err != nil {
			t.Fatal(err)
		}
	}
	rename("pytest-8.0.0.dist-info", "pytest-0.1.dist-info")   // swapped
	rename("attrs-23.1.0.dist-info", "attrs-24.2.0.dist-info") // upgraded, declared below
	os.RemoveAll(filepath.Join(site, "six-1.16.0.dist-info"))  // removed, still locked
	os.RemoveAll(filepath.Join(site, "pytest_cov-4.0.dist-info"))
	mk("requests-2.31.0.dist-info") // installed
	lock("[[package]]\nname = \"pytest\"\nversion = \"8.0.0\"\n\n[[package]]\nname = \"attrs\"\nversion = \"24.2.0\"\n\n" +
		"[[package]]\nname = \"six\"\nversion = \"1.16.0\"\n[[package]]\nname = \"pyyaml\"\nversion = \"6.0\"\n")
	want := []string{".venv: pytest 8.0.0 is now 0.1", ".venv: six 1.16.0 removed"}
	if got := rec.ChangedDists(root); !slices.Equal(got, want) {
		t.Errorf("changed = %q, want %q (pytest-cov, named by no lockfile, was removed with it)", got, want)
	}
}

// A version is declared only as a whole, next to its own name.
func TestDeclares(t *testing.T) {
	lines := []string{"pytest==18-0-0", "pytest-cov==8-0-0", "attrs==23-1-0"}
	for _, c := range []struct {
		name, version string
		want          bool
	}{{"pytest", "8.0.0", false}, {"pytest", "18.0.0", true}, {"pytest-cov", "8.0.0", true}, {"attrs", "23.1", false}, {"attrs", "23.1.0", true}} {
		if got := declares(lines, c.name, c.version); got != c.want {
			t.Errorf("declares(%s, %s) = %v, want %v", c.name, c.version, got, c.want)
		}
	}
}

// Only a lockfile or requirements file read at the stop can declare a removal: in a project with
// none (its dependencies in pyproject.toml only), a distribution removed since the start is
// named, as one whose version changed already is.
func TestChangedDistsRemovedWithoutALockfile(t *testing.T) {
	root := t.TempDir()
	site := filepath.Join(root, ".venv", "lib", "python3.12", "site-packages")
	for _, d := range []string{"pytest-8.0.0.dist-info", "pluggy-1.5.0.dist-info"} {
		if err := os.MkdirAll(filepath.Join(site, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	rec := &Record{Dists: DepDists(root), DistsKnown: true}
	os.RemoveAll(filepath.Join(site, "pluggy-1.5.0.dist-info"))
	want := []string{".venv: pluggy 1.5.0 removed"}
	if got := rec.ChangedDists(root); !slices.Equal(got, want) {
		t.Errorf("changed = %q, want %q", got, want)
	}
}
