// Package git runs read-only git commands bounded in time and output, without optional locks
// and in the C locale, so that a failure comes back with git's own complaint in the error.
package git

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/proc"
)

const (
	// Timeout bounds every call on top of the caller's context; even on a large repository the
	// queries gauntlet makes take seconds.
	Timeout = 30 * time.Second
	// waitDelay bounds the wait for git's output pipes after git itself is gone.
	waitDelay = 5 * time.Second
	// maxStderr keeps the start of git's complaint, which is where the cause is.
	maxStderr = 4 << 10
)

// ErrEnough is what a Stream consumer returns when it has read all it wants; the rest of git's
// output is not needed and git is stopped.
var ErrEnough = errors.New("enough output read")

// Error is a failed git call with what git said about it.
type Error struct {
	Args   []string
	Stderr string
	// ExitCode is git's exit status, or -1 if git did not exit by itself (not started, killed).
	ExitCode int
	Err      error
}

func (e *Error) Error() string {
	msg := "git " + strings.Join(e.Args, " ")
	if e.Stderr != "" {
		msg += ": " + e.Stderr
	}
	return msg + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Run runs git with args in dir, stdout going to stdout. Optional locks are off so that a
// read-only query never takes the index lock from under the user's own git commands, and the C
// locale keeps git's messages recognisable.
func Run(ctx context.Context, dir string, stdout io.Writer, args ...string) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()

	cmd, stderr := command(ctx, dir, args)
	cmd.Stdout = stdout
	release, err := proc.Start(cmd)
	if err == nil {
		err = cmd.Wait()
		release()
	}
	if err != nil {
		return failure(ctx, cmd, args, stderr, err)
	}
	return nil
}

// Output runs git with args in dir and returns its stdout, which may be at most limit bytes:
// past that git is stopped and the error says so.
func Output(ctx context.Context, dir string, limit int, args ...string) ([]byte, error) {
	out := &CappedBuffer{Limit: limit}
	err := Run(ctx, dir, out, args...)
	if err == nil {
		return out.Bytes(), nil
	}
	var gitErr *Error
	if out.Overflow && errors.As(err, &gitErr) {
		// git died of the closed pipe; the size is the cause worth reporting.
		gitErr.Err = fmt.Errorf("%w (limit %d bytes)", ErrOutputTooLarge, limit)
	}
	return nil, err
}

// Stream runs git with args in dir and hands its stdout to consume as it arrives, so that a huge
// output is never held in memory. consume returning ErrEnough stops git early without an error;
// any other error from consume is returned as it is.
func Stream(ctx context.Context, dir string, args []string, consume func(io.Reader) error) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()

	cmd, stderr := command(ctx, dir, args)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	release, err := proc.Start(cmd)
	if err != nil {
		return &Error{Args: args, ExitCode: -1, Err: err}
	}
	defer release()

	consumeErr := consume(stdout)
	enough := errors.Is(consumeErr, ErrEnough)
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
		return failure(ctx, cmd, args, stderr, waitErr)
	}
	return nil
}

// lookForItself overrides what the repository's own config, which the judged agent can write,
// may say about what git need not look at: a core.fsmonitor program that answers "nothing
// changed", or stat checks made minimal (core.checkStat, core.trustctime) so that an edit of the
// same size with its time put back goes unseen. A real file system monitor only saves time.
var lookForItself = []string{"-c", "core.fsmonitor=false", "-c", "core.checkStat=default", "-c", "core.trustctime=true"}

// command prepares one git call; stdin is the null device, stderr goes to the returned buffer.
func command(ctx context.Context, dir string, args []string) (*exec.Cmd, *CappedBuffer) {
	cmd := exec.CommandContext(ctx, "git", slices.Concat(lookForItself, args)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "LC_ALL=C", "LANGUAGE=C",
		// Pathspec magic such as :(exclude).gauntlet must mean what it says, whatever the user's
		// environment asks of their own git commands.
		"GIT_LITERAL_PATHSPECS=0", "GIT_GLOB_PATHSPECS=0", "GIT_NOGLOB_PATHSPECS=0", "GIT_ICASE_PATHSPECS=0",
		// Objects are read as they are: `git replace BASE HEAD` (refs in the agent's reach)
		// would otherwise show HEAD wherever the session's base is asked for.
		"GIT_NO_REPLACE_OBJECTS=1")
	// The bytes as they are: no filter driver of the repository's own steers what git sees.
	cmd.Env = append(cmd.Env, filterEnv(Filters(ctx, dir), cmd.Env)...)
	if top, ok := workTreeOf(dir); ok {
		cmd.Env = append(cmd.Env, "GIT_WORK_TREE="+top)
	}
	cmd.WaitDelay = waitDelay
	stderr := &CappedBuffer{Limit: maxStderr, Truncate: true}
	cmd.Stderr = stderr
	return cmd, stderr
}

// errTimeout is the cause of a call's context when its own time limit ran out.
var errTimeout = fmt.Errorf("git took longer than %s", Timeout)

// withTimeout bounds one call, with a cause that tells its own limit apart from the caller's
// cancel (Ctrl-C, the stop hook's deadline).
func withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(ctx, Timeout, errTimeout)
}

// failure describes a failed call; ctx is the call's own, so that what ended git (its own time
// limit, or the caller giving up) is named as the cause rather than the signal that killed it.
func failure(ctx context.Context, cmd *exec.Cmd, args []string, stderr *CappedBuffer, err error) error {
	exitCode := -1
	if cmd.ProcessState != nil {
		exitCode = cmd.ProcessState.ExitCode()
	}
	if ctx.Err() != nil {
		err = context.Cause(ctx)
	}
	return &Error{Args: args, Stderr: strings.TrimSpace(stderr.String()), ExitCode: exitCode, Err: err}
}

// ErrNotRepo means there is no git work tree to ask (or no git at all): a normal state for a
// project, not a failure.
var ErrNotRepo = errors.New("not inside a git work tree")

// IsNotRepo reports whether err says dir is outside any repository or git is not installed.
func IsNotRepo(err error) bool {
	var gitErr *Error
	return errors.Is(err, exec.ErrNotFound) ||
		errors.As(err, &gitErr) && strings.Contains(gitErr.Stderr, "not a git repository")
}

// SplitNUL splits -z output into its names, dropping the empty one after the last NUL.
func SplitNUL(out []byte) []string {
	var names []string
	for name := range bytes.SplitSeq(out, []byte{0}) {
		if len(name) > 0 {
			names = append(names, string(name))
		}
	}
	return names
}
