package config

import (
	"fmt"
	"os"
	"path/filepath"
)

// Find looks for .gauntlet.yml, then .gauntlet.yaml, in dir and each parent, up to and
// including the first directory holding a .git entry (a worktree or submodule has a .git file),
// or up to the filesystem root outside git. The error wraps ErrNotFound when there is none.
func Find(dir string) (string, error) {
	start, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("find config from %s: %w", dir, err)
	}
	for d := start; ; {
		for _, name := range []string{FileName, AltFileName} {
			candidate := filepath.Join(d, name)
			if info, err := os.Stat(candidate); err == nil && info.Mode().IsRegular() {
				return candidate, nil
			}
		}
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return "", fmt.Errorf("%w in %s or its parents up to the repository root", ErrNotFound, start)
}
