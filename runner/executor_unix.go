//go:build unix

package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/proc"
)

// groupExecutor runs each process as the leader of its own process group, so that a signal
// reaches everything the gate started, and kills that group once the leader has ended.
type groupExecutor struct {
	grace time.Duration
	abort <-chan struct{} // closed: SIGKILL at once, without grace
	drain time.Duration
}

func newGroupExecutor(grace time.Duration, abort <-chan struct{}) Executor {
	// Orphans of the gates are reparented to gauntlet rather than init, where KillOrphans finds
	// them. Process-wide, and harmless to set again.
	proc.Enable()
	// A short grace (a stop hook near its deadline) shortens the drain too: both come out of the
	// same budget.
	return &groupExecutor{grace: grace, abort: abort, drain: min(drainTimeout, grace)}
}

func (e *groupExecutor) Execute(ctx context.Context, p Process, out io.Writer) (Exit, error) {
	if len(p.Argv) == 0 {
		return noExit, &StartError{Err: errors.New("empty command")}
	}
	path, err := lookPath(p.Argv[0], p.Dir, p.Env)
	if err != nil {
		return noExit, &StartError{Err: err}
	}
	if ctx.Err() != nil {
		return Exit{Code: -1, Interrupted: true}, nil
	}

	// One pipe of our own for stdout and stderr: with an *os.File as both, exec starts no
	// copying goroutine, so Wait cannot hang on a grandchild that still holds the pipe.
	r, w, err := os.Pipe()
	if err != nil {
		return noExit, fmt.Errorf("creating output pipe: %w", err)
	}
	defer r.Close()

	var termAt atomic.Int64 // unix nanos of the first stop signal; 0 while not interrupted
	cmd := e.command(ctx, path, p, w, &termAt)

	stdin, err := newStdinFeed(p.Stdin)
	if err != nil {
		w.Close()
		return noExit, err
	}
	if stdin != nil {
		cmd.Stdin = stdin.r
	}

	disown, startErr := proc.Start(cmd)
	w.Close()
	if startErr != nil {
		stdin.abandon()
		if ctx.Err() != nil {
			return Exit{Code: -1, Interrupted: true}, nil
		}
		return noExit, &StartError{Err: startErr}
	}
	pgid := cmd.Process.Pid
	stdin.start(p.Stdin)

	copied := make(chan struct{})
	go func() {
		defer close(copied)
		pump(r, out)
	}()

	waited := make(chan struct{})
	watched := e.killOnAbort(pgid, &termAt, waited)

	waitErr := cmd.Wait()
	disown()
	close(waited)
	<-watched

	interrupted := termAt.Load() != 0
	if interrupted {
		// Children that trap SIGTERM get the rest of the grace period to clean up.
		e.awaitGroupExit(pgid, time.Unix(0, termAt.Load()).Add(e.grace))
	}
	// Always: a background child of a gate that exited must not outlive it, nor one that left
	// the group (setsid) and was reparented to gauntlet when its parent died. Once the group is
	// gone, every such escapee has been handed over to gauntlet, the subreaper.
	signalGroup(pgid, syscall.SIGKILL)
	e.awaitGroupExit(pgid, time.Now().Add(e.drain))
	proc.KillOrphans(p.Marks, pgid, e.drain)
	stdin.abandon()

	if err := r.SetReadDeadline(time.Now().Add(e.drain)); err != nil {
		// Without a deadline the read could block forever on an escaped process; closing the
		// pipe is the only way left to end it.
		r.Close()
	}
	<-copied

	return exitOf(cmd, waitErr, interrupted, p.Argv[0])
}

// command is the gate's process, the leader of a group of its own, writing to w. Cancelling
// ctx sends SIGTERM to the group and notes when in termAt.
func (e *groupExecutor) command(ctx context.Context, path string, p Process, w *os.File, termAt *atomic.Int64) *exec.Cmd {
	cmd := exec.CommandContext(ctx, path)
	cmd.Args = p.Argv
	cmd.Dir = p.Dir
	cmd.Env = p.Env
	cmd.Stdout = w
	cmd.Stderr = w
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		// A leader that was already reaped ran to completion: that is no interruption, and its
		// pid may belong to someone else by now.
		if err := cmd.Process.Signal(syscall.Signal(0)); err != nil {
			return err
		}
		termAt.CompareAndSwap(0, time.Now().UnixNano())
		return signalGroup(cmd.Process.Pid, syscall.SIGTERM)
	}
	// Backstop: kills the leader if it outlives the grace period; the group follows below.
	cmd.WaitDelay = e.grace
	return cmd
}

// killOnAbort kills the group at once when the run is aborted before waited closes, noting when
// in termAt; the channel it returns closes when it is done watching.
func (e *groupExecutor) killOnAbort(pgid int, termAt *atomic.Int64, waited <-chan struct{}) <-chan struct{} {
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-e.abort:
			termAt.CompareAndSwap(0, time.Now().UnixNano())
			signalGroup(pgid, syscall.SIGKILL)
		case <-waited:
		}
	}()
	return watched
}

// exitOf is how the process ended: its code and the signal that ended it.
func exitOf(cmd *exec.Cmd, waitErr error, interrupted bool, name string) (Exit, error) {
	exit := Exit{Code: -1, Interrupted: interrupted}
	if cmd.ProcessState == nil {
		return exit, fmt.Errorf("waiting for %s: %w", name, waitErr)
	}
	exit.Code = cmd.ProcessState.ExitCode()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		exit.Signal = ws.Signal()
	}
	return exit, nil
}

// awaitGroupExit returns once the group has no process left, at deadline, or on abort.
func (e *groupExecutor) awaitGroupExit(pgid int, deadline time.Time) {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	tick := time.NewTicker(groupPollInterval)
	defer tick.Stop()
	for {
		// Members whose parent died were reparented to gauntlet (the subreaper) and stay zombies,
		// "alive" to kill(2), until reaped here.
		reapGroup(pgid)
		if !groupAlive(pgid) {
			return
		}
		select {
		case <-tick.C:
		case <-timer.C:
			return
		case <-e.abort:
			return
		}
	}
}

func signalGroup(pgid int, sig syscall.Signal) error {
	if err := syscall.Kill(-pgid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("signalling process group %d: %w", pgid, err)
	}
	return nil
}

// reapGroup collects the exit status of every dead member of the group that is gauntlet's child.
// Only called after the group's leader was waited for, so it never takes exec's own wait.
func reapGroup(pgid int) {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-pgid, &ws, syscall.WNOHANG, nil)
		if pid <= 0 || err != nil {
			return
		}
	}
}

func groupAlive(pgid int) bool {
	return !errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH)
}
