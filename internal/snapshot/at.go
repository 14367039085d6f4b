package snapshot

import (
	"context"
	"errors"
	"path"
	"strings"

	"github.com/gauntlet-dev/gauntlet/internal/git"
)

// FileAt reads the file at rel (slash-separated, relative to the project root) as commit holds
// it, at most limit bytes (more is an error). found is false when the commit has no such file;
// a commit that does not exist is an error.
func (s *Snapshot) FileAt(ctx context.Context, commit, rel string, limit int) (data []byte, found bool, err error) {
	if commit == "" || strings.HasPrefix(commit, "-") {
		return nil, false, errors.New("no commit to read " + rel + " from")
	}
	// "./" makes the path relative to the directory git runs in: the project root, which may be
	// below the repository's top.
	spec := commit + ":./" + path.Clean(rel)
	out, err := git.Output(ctx, s.root, limit, "cat-file", "blob", spec)
	switch {
	case err == nil:
		return out, true, nil
	case ctx.Err() != nil:
		return nil, false, context.Cause(ctx)
	case errors.Is(err, git.ErrOutputTooLarge):
		return nil, false, err
	}
	// No such file, or no such commit: only the second is an error.
	if _, err := git.Output(ctx, s.root, 1<<10, "cat-file", "-e", commit+"^{commit}"); err != nil {
		return nil, false, errors.New("commit " + commit + " is not in the repository")
	}
	return nil, false, nil
}
