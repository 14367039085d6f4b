package scaffold

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// RepoRoot is the top of the git work tree holding dir, or dir itself outside git (or without
// git installed): where the config, .gitignore and the hook files belong.
func RepoRoot(ctx context.Context, dir string) string {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "rev-parse", "--show-toplevel")
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	out, err := cmd.Output()
	top := strings.TrimRight(string(out), "\r\n")
	if err != nil || top == "" {
		return dir
	}
	return filepath.Clean(top)
}
