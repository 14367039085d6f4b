package changes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

const (
	// gitTimeout bounds every git call; listing changes of even a large repository takes seconds.
	gitTimeout = 30 * time.Second
	// maxGitOutput bounds what one git call may print: a list of changed paths, so tens of MiB
	// means something is wrong rather than a big change.
	maxGitOutput = 64 << 20
	// maxGitStderr keeps the start of git's complaint, which is where the cause is.
	maxGitStderr = 4 << 10
)

// gitError is a failed git call with what git said about it.
type gitError struct {
	args   []string
	stderr string
	err    error
}

func (e *gitError) Error() string {
	msg := "git " + strings.Join(e.args, " ")
	if e.stderr != "" {
		msg += ": " + e.stderr
	}
	return msg + ": " + e.err.Error()
}

func (e *gitError) Unwrap() error { return e.err }

// git runs one git command in dir and returns its stdout. Optional locks are off so that a
// read-only query never rewrites the index under a concurrent git command of the user's, and the
// C locale keeps git's messages recognisable.
func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()

	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Stdin = nil
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "LC_ALL=C", "LANGUAGE=C")
	cmd.WaitDelay = 5 * time.Second
	stdout := &cappedBuffer{limit: maxGitOutput}
	stderr := &cappedBuffer{limit: maxGitStderr, truncate: true}
	cmd.Stdout = stdout
	cmd.Stderr = stderr

	err := cmd.Run()
	if err == nil {
		return stdout.Bytes(), nil
	}
	if ctx.Err() != nil {
		err = fmt.Errorf("%w (limit %s)", ctx.Err(), gitTimeout)
	} else if stdout.overflow {
		err = fmt.Errorf("output larger than %d bytes", maxGitOutput)
	}
	return nil, &gitError{args: args, stderr: strings.TrimSpace(stderr.String()), err: err}
}

var errOutputTooLarge = errors.New("output too large")

// cappedBuffer holds at most limit bytes. Past the limit it either drops the rest silently
// (truncate, for diagnostics) or fails the write, which stops the command.
type cappedBuffer struct {
	bytes.Buffer
	limit    int
	truncate bool
	overflow bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	room := b.limit - b.Len()
	if len(p) <= room {
		return b.Buffer.Write(p)
	}
	b.overflow = true
	if room > 0 {
		b.Buffer.Write(p[:room])
	}
	if b.truncate {
		return len(p), nil
	}
	return 0, errOutputTooLarge
}
