package session

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// An executable of a borrowed dependency directory removed or replaced since the start is named;
// one added (a package installed) is not.
func TestChangedBins(t *testing.T) {
	root := t.TempDir()
	bin := filepath.Join(root, "node_modules", ".bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, data string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(bin, name), []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("vitest", "#!/bin/sh\n")
	write("eslint", "#!/bin/sh\n")
	if err := os.Symlink("../vite/bin/vite.js", filepath.Join(bin, "vite")); err != nil {
		t.Fatal(err)
	}
	rec := &Record{Bins: DepBins(root), BinsKnown: true}
	if got := rec.ChangedBins(root); len(got) != 0 {
		t.Fatalf("nothing changed, got %q", got)
	}
	write("added", "x")
	os.Remove(filepath.Join(bin, "vitest"))
	write("eslint", "#!/bin/sh\necho ok\n")
	os.Remove(filepath.Join(bin, "vite"))
	os.Symlink("/tmp/fake", filepath.Join(bin, "vite"))
	want := []string{"node_modules/.bin/eslint replaced", "node_modules/.bin/vite replaced", "node_modules/.bin/vitest removed"}
	if got := rec.ChangedBins(root); !slices.Equal(got, want) {
		t.Errorf("changed = %q, want %q", got, want)
	}
	// A record made before the field compares nothing.
	if got := (&Record{}).ChangedBins(root); got != nil {
		t.Errorf("unknown bins: %q", got)
	}
}

// What a link of node_modules/.bin runs is the file it resolves to: that file rewritten (the link
// unchanged) is the executable replaced. A record made before links were resolved names the link
// alone, and an unchanged link is no change to it.
func TestChangedBinsBehindLink(t *testing.T) {
	root := t.TempDir()
	bin := filepath.Join(root, "node_modules", ".bin")
	pkg := filepath.Join(root, "node_modules", "vitest")
	for _, d := range []string{bin, pkg} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cli := filepath.Join(pkg, "vitest.mjs")
	if err := os.WriteFile(cli, []byte("import './dist/cli.js'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../vitest/vitest.mjs", filepath.Join(bin, "vitest")); err != nil {
		t.Fatal(err)
	}
	rec := &Record{Bins: DepBins(root), BinsKnown: true}
	old := &Record{Bins: map[string]string{"node_modules/.bin/vitest": "link ../vitest/vitest.mjs"}, BinsKnown: true}
	if got := old.ChangedBins(root); len(got) != 0 {
		t.Fatalf("a record of the link alone, nothing changed: got %q", got)
	}
	if err := os.WriteFile(cli, []byte("process.exit(0)\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	want := []string{"node_modules/.bin/vitest replaced"}
	if got := rec.ChangedBins(root); !slices.Equal(got, want) {
		t.Errorf("changed = %q, want %q", got, want)
	}
}
