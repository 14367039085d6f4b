package snapshot

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// What happens between two captures is named path by path: a clean file rewritten, a dirty one
// rewritten again, one restored to HEAD, a new file, a deleted one; an untouched dirty file and
// an ignored file are not.
func TestCaptureComparesTheWorkTree(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, ".gitignore", "node_modules/\n")
	write(t, dir, "clean.go", "package a\n")
	write(t, dir, "dirty.go", "package a\n")
	write(t, dir, "restored.go", "package a\n")
	write(t, dir, "deleted.go", "package a\n")
	write(t, dir, "untouched.go", "package a\n")
	commitAll(t, dir, "initial")
	write(t, dir, "dirty.go", "package a // edited\n")
	write(t, dir, "restored.go", "package a // edited\n")
	write(t, dir, "untouched.go", "package a // edited\n")

	capture := func() State {
		t.Helper()
		tree, err := New(dir, Options{}).Tree(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		s, err := Capture(context.Background(), tree)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := capture()
	write(t, dir, "clean.go", "package  a\n")
	write(t, dir, "dirty.go", "package a // edited twice\n")
	write(t, dir, "restored.go", "package a\n")
	write(t, dir, "new.go", "package a\n")
	write(t, dir, "node_modules/x/index.js", "x\n")
	if err := os.Remove(filepath.Join(dir, "deleted.go")); err != nil {
		t.Fatal(err)
	}
	got := before.Changed(capture())
	want := []string{"clean.go", "deleted.go", "dirty.go", "new.go", "restored.go"}
	if !slices.Equal(got, want) {
		t.Errorf("changed %q, want %q", got, want)
	}
	if again := capture(); len(again.Changed(capture())) != 0 {
		t.Errorf("two captures of an unchanged tree differ")
	}
}
