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
