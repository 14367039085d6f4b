package config

import (
	"errors"
	"path/filepath"
	"testing"
)

func TestFindSearchesUpwardToTheRepositoryRoot(t *testing.T) {
	const cfg = "version: 1\n"
	tests := []struct {
		name  string
		files map[string]string
		start string
		want  string // relative to the temp dir; "" means ErrNotFound
	}{
		{"in the start dir", map[string]string{"repo/.git/": "", "repo/.gauntlet.yml": cfg}, "repo", "repo/.gauntlet.yml"},
		{"in a parent inside the repo", map[string]string{"repo/.git/": "", "repo/.gauntlet.yml": cfg, "repo/a/b/": ""}, "repo/a/b", "repo/.gauntlet.yml"},
		{"the nearest wins", map[string]string{"repo/.git/": "", "repo/.gauntlet.yml": cfg, "repo/a/.gauntlet.yml": cfg, "repo/a/b/": ""}, "repo/a/b", "repo/a/.gauntlet.yml"},
		{".yml before .yaml", map[string]string{"repo/.git/": "", "repo/.gauntlet.yml": cfg, "repo/.gauntlet.yaml": cfg}, "repo", "repo/.gauntlet.yml"},
		{".yaml alone", map[string]string{"repo/.git/": "", "repo/.gauntlet.yaml": cfg, "repo/a/": ""}, "repo/a", "repo/.gauntlet.yaml"},
		{"stops at the .git directory", map[string]string{".gauntlet.yml": cfg, "repo/.git/": "", "repo/a/": ""}, "repo/a", ""},
		{"stops at a .git file (worktree)", map[string]string{".gauntlet.yml": cfg, "repo/.git": "gitdir: elsewhere\n", "repo/a/": ""}, "repo/a", ""},
		// Found, so that loading it says what is wrong instead of running another config.
		{"finds a directory with the config's name", map[string]string{"repo/.git/": "", "repo/.gauntlet.yml": cfg, "repo/a/.gauntlet.yml/": ""}, "repo/a", "repo/a/.gauntlet.yml"},
		{"outside git, keeps going up", map[string]string{".gauntlet.yml": cfg, "a/b/c/": ""}, "a/b/c", ".gauntlet.yml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tt.files)
			got, err := Find(filepath.Join(root, tt.start))
			if tt.want == "" {
				if !errors.Is(err, ErrNotFound) {
					t.Fatalf("Find = %q, %v; want ErrNotFound", got, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Find: %v", err)
			}
			if want := filepath.Join(root, tt.want); got != want {
				t.Errorf("Find = %q, want %q", got, want)
			}
		})
	}
}
