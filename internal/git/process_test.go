package git

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// git's output comes back whole, and its exit status and complaint with a failure.
func TestRunCopiesOutputAndStatus(t *testing.T) {
	dir := newRepo(t)
	var out bytes.Buffer
	if err := Run(context.Background(), dir, &out, "-c", "alias.say=!printf 'a\\nb' && printf oops >&2", "say"); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if out.String() != "a\nb" {
		t.Errorf("stdout %q, want %q", out.String(), "a\nb")
	}
	err := Run(context.Background(), dir, io.Discard, "-c", "alias.fail=!echo bad >&2; exit 3", "fail")
	var gitErr *Error
	if !errors.As(err, &gitErr) || gitErr.ExitCode != 3 || gitErr.Stderr != "bad" || !strings.HasSuffix(err.Error(), ": exit status 3") {
		t.Errorf("err = %v, want exit status 3 with git's complaint", err)
	}
}

// A git that does not end is killed when the call's context is done, and the error names what
// ended it.
func TestRunKillsGitWhenTheContextEnds(t *testing.T) {
	dir := newRepo(t)
	defer func(d time.Duration) { waitDelay = d }(waitDelay)
	waitDelay = 200 * time.Millisecond // the shell's sleep outlives git and holds its output
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	started := time.Now()
	err := Run(ctx, dir, io.Discard, "-c", "alias.hang=!exec sleep 30", "hang")
	var gitErr *Error
	if !errors.As(err, &gitErr) || !errors.Is(err, context.DeadlineExceeded) || gitErr.ExitCode != -1 {
		t.Errorf("err = %v, want the deadline named and no exit status", err)
	}
	if waited := time.Since(started); waited > 4*time.Second {
		t.Errorf("Run returned after %s", waited)
	}
}

// A process git leaves behind holding its output does not hold the call past waitDelay.
func TestRunGivesUpOutputHeldPastGit(t *testing.T) {
	dir := newRepo(t)
	defer func(d time.Duration) { waitDelay = d }(waitDelay)
	waitDelay = 200 * time.Millisecond
	started := time.Now()
	err := Run(context.Background(), dir, io.Discard, "-c", "alias.leave=!sleep 5 &", "leave")
	if !errors.Is(err, exec.ErrWaitDelay) {
		t.Errorf("err = %v, want exec.ErrWaitDelay", err)
	}
	if waited := time.Since(started); waited > 4*time.Second {
		t.Errorf("Run returned after %s, want about waitDelay", waited)
	}
}

// A directory that is not there is named as the cause, as os/exec names it.
func TestRunInAMissingDirectory(t *testing.T) {
	requireGit(t)
	missing := filepath.Join(t.TempDir(), "gone")
	err := Run(context.Background(), missing, io.Discard, "version")
	var gitErr *Error
	if !errors.As(err, &gitErr) || gitErr.ExitCode != -1 || !strings.Contains(err.Error(), "chdir "+missing) {
		t.Errorf("err = %v, want chdir %s named", err, missing)
	}
}

// The call's own settings win over the same variables inherited, and an inherited one git is
// not told otherwise about reaches it.
func TestEnvironmentLastValueWins(t *testing.T) {
	dir := newRepo(t)
	t.Setenv("LC_ALL", "de_DE.UTF-8")
	t.Setenv("GAUNTLET_TEST_VAR", "kept")
	out, err := Output(context.Background(), dir, 1<<10, "-c", "alias.env=!printf '%s %s' \"$LC_ALL\" \"$GAUNTLET_TEST_VAR\"", "env")
	if err != nil || string(out) != "C kept" {
		t.Errorf("Output = %q, %v; want %q", out, err, "C kept")
	}
}

// Run without a writer throws git's output away: git never finds its stdout closed.
func TestRunWithoutWriterDiscards(t *testing.T) {
	dir := newRepo(t)
	if err := Run(context.Background(), dir, nil, "-c", "alias.talk=!head -c 200000 /dev/zero", "talk"); err != nil {
		t.Errorf("Run: %v", err)
	}
}
