package changes

import (
	"context"

	"github.com/gauntlet-dev/gauntlet/internal/git"
)

// maxGitOutput bounds what one git call may print: a list of changed paths, so tens of MiB means
// something is wrong rather than a big change.
const maxGitOutput = 64 << 20

// git runs one read-only git command in dir and returns its stdout.
func runGit(ctx context.Context, dir string, args ...string) ([]byte, error) {
	return git.Output(ctx, dir, maxGitOutput, args...)
}
