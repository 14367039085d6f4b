package git

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWorkTreeOfIsTheDirectoryHoldingDotGit(t *testing.T) {
	t.Setenv("GIT_DIR", "")
	t.Setenv("GIT_WORK_TREE", "")
	root := t.TempDir()
	main := filepath.Join(root, "main")
	linked := filepath.Join(root, "linked")
	for _, d := range []string{filepath.Join(main, ".git", "objects"), filepath.Join(main, "sub", "deeper"), linked, filepath.Join(root, "outside")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(linked, ".git"), []byte("gitdir: "+filepath.Join(main, ".git", "worktrees", "linked")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir, top string
		ok       bool
	}{
		{main, main, true},
		{filepath.Join(main, "sub", "deeper"), main, true},
		{linked, linked, true},
		{filepath.Join(main, ".git"), "", false},            // inside the git directory: git's own discovery
		{filepath.Join(main, ".git", "objects"), "", false}, // likewise
		{filepath.Join(root, "outside"), "", false},
	} {
		top, ok := workTreeOf(tc.dir)
		if ok != tc.ok || ok && top != tc.top {
			t.Errorf("workTreeOf(%s) = %q, %v; want %q, %v", tc.dir, top, ok, tc.top, tc.ok)
		}
	}
}

func TestWorkTreeOfLeavesAnExplicitLayoutAlone(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"GIT_DIR", "GIT_WORK_TREE"} {
		t.Run(name, func(t *testing.T) {
			t.Setenv("GIT_DIR", "")
			t.Setenv("GIT_WORK_TREE", "")
			t.Setenv(name, dir)
			if top, ok := workTreeOf(filepath.Join(dir, "elsewhere")); ok {
				t.Errorf("workTreeOf with %s set = %q, want git's own layout", name, top)
			}
		})
	}
}
