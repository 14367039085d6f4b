package cache

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/state"
)

// Two worktrees' runs save the shared cache at once: each keeps the other's passes, and a
// failure seen in one removes the pass the other stored for the same key.
func TestSharedSavesMerge(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	main := filepath.Join(base, "main")
	os.Mkdir(main, 0o755)
	git(t, main, "init", "-q", "-b", "main")
	write(t, main, "f", "x")
	git(t, main, "add", "-A")
	git(t, main, "commit", "-q", "-m", "c")
	linked := filepath.Join(base, "linked")
	git(t, main, "worktree", "add", "-q", linked)

	open := func(root string) (*Store, func()) {
		sd, err := state.Open(root)
		if err != nil {
			t.Fatal(err)
		}
		s, release, err := OpenForProject(root, sd)
		if err != nil {
			t.Fatal(err)
		}
		return s, func() { release(); sd.Close() }
	}
	a, closeA := open(main)
	defer closeA()
	b, closeB := open(linked)
	defer closeB()
	now := time.Now()
	a.Put("ka", Entry{Gate: "a", Run: "r1", At: now})
	a.Put("gone", Entry{Gate: "g", Run: "r1", At: now})
	if err := a.Save(); err != nil {
		t.Fatal(err)
	}
	b.Put("kb", Entry{Gate: "b", Run: "r2", At: now})
	b.Delete("gone") // b read the file before a stored it; the delete still applies
	if err := b.Save(); err != nil {
		t.Fatal(err)
	}
	c, closeC := open(linked)
	defer closeC()
	for key, want := range map[string]bool{"ka": true, "kb": true, "gone": false} {
		if _, ok := c.Lookup(key); ok != want {
			t.Errorf("after both saves, %s present = %v, want %v", key, ok, want)
		}
	}
	// Nothing of the cache is under the worktrees' own .gauntlet/.
	for _, root := range []string{main, linked} {
		if _, err := os.Stat(filepath.Join(root, state.Name, File)); err == nil {
			t.Errorf("%s keeps a cache of its own", root)
		}
	}
}

// A sub-project of a monorepo keeps its passes apart from the top-level project's.
func TestSharedCacheIsPerProject(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	git(t, root, "init", "-q", "-b", "main")
	sub := filepath.Join(root, "web")
	os.Mkdir(sub, 0o755)
	_, top, ok := SharedFile(root)
	_, web, ok2 := SharedFile(sub)
	if !ok || !ok2 || top == web {
		t.Fatalf("shared files %q and %q (%v %v): want two", top, web, ok, ok2)
	}
}
