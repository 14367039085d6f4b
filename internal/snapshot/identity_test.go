package snapshot

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// A file rewritten with the same content and its modification time set back is told apart by
// what the system alone sets (inode, change time); a file only read is not.
func TestIdentitiesSeeARewritePutBack(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no inode or change time to read")
	}
	root := repo(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	write(t, root, "new.txt", "n\n")
	ctx := context.Background()
	read := func() Identities {
		tree, err := New(root, Options{}).Tree(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ids, err := tree.Identities(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return ids
	}
	before := read()
	if _, err := os.ReadFile(filepath.Join(root, "a.txt")); err != nil {
		t.Fatal(err)
	}
	if got := before.Changed(read()); len(got) != 0 {
		t.Fatalf("reading changed %v", got)
	}
	path := filepath.Join(root, "a.txt")
	info, _ := os.Stat(path)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	write(t, root, "a.txt", "a\n")
	if err := os.Chtimes(path, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	write(t, root, "new.txt", "n\n")
	got := before.Changed(read())
	if len(got) != 2 || got[0] != "a.txt" || got[1] != "new.txt" {
		t.Errorf("changed = %v, want a.txt and new.txt", got)
	}
}
