package snapshot

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/git"
)

func TestGitErrorCarriesStderr(t *testing.T) {
	dir := newRepo(t)
	_, err := git.Output(context.Background(), dir, 1<<10, "rev-parse", "--verify", "no-such-ref")
	var gitErr *git.Error
	if !errors.As(err, &gitErr) || !strings.Contains(err.Error(), "git rev-parse --verify no-such-ref: ") ||
		!strings.Contains(err.Error(), "Needed a single revision") {
		t.Errorf("error = %v, want the command and git's own message", err)
	}
}

func TestGitNotInstalledRunsEverything(t *testing.T) {
	isolateGit(t)
	dir := tempDir(t)
	t.Setenv("PATH", "")

	set := detect(t, dir, "")
	if set.InGit || !set.All || !strings.Contains(set.BaseErr, "git is not installed") {
		t.Errorf("set = %+v, want All because git is missing", set)
	}
}
