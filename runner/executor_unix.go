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
)

// drainTimeout bounds how long output is still read after a gate's process group was killed:
// a process that left the group (setsid) may hold the pipe open forever.
const drainTimeout = 2 * time.Second

// groupPollInterval is how often a terminated group is checked for having exited, so that a
// gate that stops promptly on SIGTERM is not held for the whole grace period.
const groupPollInterval = 20 * time.Millisecond

// groupExecutor runs each process as the leader of its own process group, so that a signal
// reaches everything the gate started, and kills that group once the leader has ended.
type groupExecutor struct {
	grace time.Duration
	abort <-chan struct{} // closed: SIGKILL at once, without grace
	drain time.Duration
}

func newGroupExecutor(grace time.Duration, abort <-chan struct{}) Executor {
	return &groupExecutor{grace: grace, abort: abort, drain: drainTimeout}
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

	stdin, err := newStdinFeed(p.Stdin)
	if err != nil {
		w.Close()
		return noExit, err
	}
	if stdin != nil {
		cmd.Stdin = stdin.r
	}

	startErr := cmd.Start()
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

	waitErr := cmd.Wait()
	close(waited)
	<-watched

	interrupted := termAt.Load() != 0
	if interrupted {
		// Children that trap SIGTERM get the rest of the grace period to clean up.
		e.awaitGroupExit(pgid, time.Unix(0, termAt.Load()).Add(e.grace))
	}
	// Always: a background child of a gate that exited must not outlive it.
	signalGroup(pgid, syscall.SIGKILL)
	stdin.abandon()

	if err := r.SetReadDeadline(time.Now().Add(e.drain)); err != nil {
		// Without a deadline the read could block forever on an escaped process; closing the
		// pipe is the only way left to end it.
		r.Close()
	}
	<-copied

	exit := Exit{Code: -1, Interrupted: interrupted}
	if cmd.ProcessState == nil {
		return exit, fmt.Errorf("waiting for %s: %w", p.Argv[0], waitErr)
	}
	exit.Code = cmd.ProcessState.ExitCode()
	return exit, nil
}

// awaitGroupExit returns once the group has no process left, at deadline, or on abort.
func (e *groupExecutor) awaitGroupExit(pgid int, deadline time.Time) {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	tick := time.NewTicker(groupPollInterval)
	defer tick.Stop()
	for groupAlive(pgid) {
		select {
		case <-tick.C:
		case <-timer.C:
			return
		case <-e.abort:
			return
		}
	}
}

// pump copies r to out until EOF or the read deadline; out must not fail.
func pump(r *os.File, out io.Writer) {
	bp := pumpBuffers.Get().(*[]byte)
	defer pumpBuffers.Put(bp)
	buf := *bp
	for {
		n, err := r.Read(buf)
		if n > 0 {
			out.Write(buf[:n])
		}
		if err != nil {
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

func groupAlive(pgid int) bool {
	return !errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH)
}
