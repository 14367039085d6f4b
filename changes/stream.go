package changes

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// errEnough is what a consumer returns when it has read all it wants; the rest of git's output
// is not needed and git is stopped.
var errEnough = errors.New("enough output read")

// streamGit runs one git command in dir and hands its stdout to consume as it arrives, so that
// a huge diff is never held in memory. consume returning errEnough stops git early without an
// error; any other error from consume is returned.
func streamGit(ctx context.Context, dir string, args []string, consume func(io.Reader) error) error {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()

	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "LC_ALL=C", "LANGUAGE=C")
	cmd.WaitDelay = 5 * time.Second
	stderr := &cappedBuffer{limit: maxGitStderr, truncate: true}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	if err := cmd.Start(); err != nil {
		return &gitError{args: args, err: err}
	}

	consumeErr := consume(stdout)
	enough := errors.Is(consumeErr, errEnough)
	if consumeErr != nil {
		cancel() // git may still be writing; it is killed rather than drained
	} else {
		// Whatever consume left unread must not block git on a full pipe.
		io.Copy(io.Discard, stdout)
	}
	waitErr := cmd.Wait()
	switch {
	case consumeErr != nil && !enough:
		return consumeErr
	case enough:
		return nil
	case waitErr != nil:
		if ctx.Err() != nil {
			waitErr = fmt.Errorf("%w (limit %s)", ctx.Err(), gitTimeout)
		}
		return &gitError{args: args, stderr: strings.TrimSpace(stderr.String()), err: waitErr}
	}
	return nil
}
