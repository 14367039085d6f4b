package scaffold

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/gauntlet-dev/gauntlet/internal/git"
)

// maxRootOutput is far more than one path.
const maxRootOutput = 64 << 10

// RepoRoot is the top of the git work tree holding dir, or dir itself outside git (or without
// git installed): where the config, .gitignore and the hook files belong.
func RepoRoot(ctx context.Context, dir string) string {
	out, err := git.Output(ctx, dir, maxRootOutput, "rev-parse", "--show-toplevel")
	top := strings.TrimRight(string(out), "\r\n")
	if err != nil || top == "" {
		return dir
	}
	return filepath.Clean(top)
}
