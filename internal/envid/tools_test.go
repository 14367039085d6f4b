package envid

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// npm's steering keys in the user's and the project's .npmrc, and Python's startup files in the
// user site and the project's virtual environment, are part of the environment: set or changed,
// they are named. A registry line, a token, a package's own module in the site are not.
func TestToolFiles(t *testing.T) {
	home, root, userBase := t.TempDir(), t.TempDir(), t.TempDir()
	write := func(p, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	site := filepath.Join(userBase, "lib", "python3.12", "site-packages")
	venvSite := filepath.Join(root, ".venv", "lib", "python3.11", "site-packages")
	write(filepath.Join(home, ".npmrc"), "registry=https://registry.example.com/\n//registry.example.com/:_authToken=abc\n")
	write(filepath.Join(site, "six.py"), "x = 1\n")
	write(filepath.Join(venvSite, "editable.pth"), "/src\n")
	env := []string{"PATH=/usr/bin", "HOME=" + home, "PYTHONUSERBASE=" + userBase}
	then := Steering(env, root)
	for k := range then {
		if strings.HasPrefix(k, PythonPrefix) || strings.HasPrefix(k, NpmPrefix) {
			t.Errorf("named with no steering file present: %s", k)
		}
	}

	// Honest: the registry moved, a token rotated, a package installed.
	write(filepath.Join(home, ".npmrc"), "registry=https://npm.example.org/\n//npm.example.org/:_authToken=def\n")
	write(filepath.Join(root, ".npmrc"), "; the project's registry\nregistry = https://npm.example.org/\n")
	write(filepath.Join(site, "attrs.py"), "y = 2\n")
	write(filepath.Join(venvSite, "other.pth"), "/src2\n")
	if got := Changed(then, Steering(env, root)); len(got) != 0 {
		t.Fatalf("honest edits named: %q", got)
	}

	write(filepath.Join(home, ".npmrc"), "registry=https://npm.example.org/\nscript-shell=/bin/true\n")
	write(filepath.Join(root, ".npmrc"), "[section]\nignore_scripts = true\nnode-options=--require ./stub.js\n")
	write(filepath.Join(site, "usercustomize.py"), "import unittest\nunittest.TestCase.assertEqual = lambda *a: None\n")
	write(filepath.Join(site, "evil.pth"), "import stub\n")
	write(filepath.Join(venvSite, "sitecustomize.py"), "import stub\n")
	want := []string{
		"npm config ignore-scripts (project .npmrc)",
		"npm config node-options (project .npmrc)",
		"npm config script-shell (user .npmrc)",
		"python user site lib/python3.12/site-packages/evil.pth",
		"python user site lib/python3.12/site-packages/usercustomize.py",
		"python virtual environment lib/python3.11/site-packages/sitecustomize.py",
	}
	if got := Changed(then, Steering(env, root)); !slices.Equal(got, want) {
		t.Errorf("changed = %q\nwant %q", got, want)
	}
	// Rewritten, the same keys are named again.
	now := Steering(env, root)
	write(filepath.Join(site, "usercustomize.py"), "pass\n")
	if got := Changed(now, Steering(env, root)); !slices.Equal(got, []string{"python user site lib/python3.12/site-packages/usercustomize.py"}) {
		t.Errorf("usercustomize rewritten: %q", got)
	}
}

// BenchmarkSteering is what naming the environment costs a call, with this machine's own home
// (its .npmrc, its Python user sites) and a project root holding an .npmrc and a virtual
// environment: `go test ./internal/envid -bench Steering -run '^$'`.
func BenchmarkSteering(b *testing.B) {
	root := b.TempDir()
	if err := os.WriteFile(filepath.Join(root, ".npmrc"), []byte("registry=https://registry.example.com/\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, ".venv", "lib", "python3.12", "site-packages"), 0o755); err != nil {
		b.Fatal(err)
	}
	env := os.Environ()
	for b.Loop() {
		Steering(env, root)
	}
}
