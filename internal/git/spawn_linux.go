//go:build linux

package git

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/gauntlet-dev/gauntlet/internal/proc"
)

// process is one git call, started with fork and exec rather than os/exec: a stop hook on a state
// already judged runs one git command, and os/exec's first start in a process probes the kernel
// by starting a process of its own (for pidfd support), besides the descriptors it opens, flips
// between blocking and not, and registers with the poller for the child's side of its pipes.
// Here only this process's ends of the pipes are polled; what os/exec promises a caller of
// CommandContext with WaitDelay is kept: git is killed when ctx is done, and the pipes are given
// up waitDelay after git ended (or was killed) when something it started still holds them.
type process struct {
	pid     int
	release func()
	// out is git's stdout (nil when it goes to the null device); sink, when not nil, is where
	// wait copies it (Run), else the caller reads it (Stream).
	out    *os.File
	sink   io.Writer
	errOut *os.File
	stderr *CappedBuffer
	// stderrDone is closed once stderr is read to its end, or given up (stderrErr).
	stderrDone chan struct{}
	stderrErr  error
	// exited is closed once git is reaped: status and waitErr are set then.
	exited chan struct{}
	// mu guards reaped (kill must not signal a pid handed back), and ioExpiry and waited (no
	// deadline is set on pipes after wait is done with them).
	mu       sync.Mutex
	reaped   bool
	status   syscall.WaitStatus
	waitErr  error
	ioExpiry *time.Timer
	waited   bool
	stopKill func() bool
}

// start starts git with args in dir, its stdin the null device, its stderr kept in a
// CappedBuffer. Its stdout is copied to stdout by wait; when piped, the caller reads it from
// output() before wait; else it goes to the null device.
func start(ctx context.Context, dir string, args []string, stdout io.Writer, piped bool) (*process, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	path, err := exec.LookPath("git")
	if err != nil {
		return nil, err
	}
	env, err := dedupEnv(environ())
	if err != nil {
		return nil, err
	}
	fds, err := openDescriptors(stdout != nil || piped)
	if err != nil {
		return nil, err
	}
	p := &process{sink: stdout, stderr: &CappedBuffer{Limit: maxStderr, Truncate: true},
		stderrDone: make(chan struct{}), exited: make(chan struct{})}
	attr := &syscall.ProcAttr{Dir: dir, Env: env, Files: []uintptr{uintptr(fds.null), uintptr(fds.childOut), uintptr(fds.childErr)}}
	p.release, err = proc.StartWith(func() (int, error) {
		pid, err := syscall.ForkExec(path, append([]string{"git"}, args...), attr)
		p.pid = pid
		return pid, err
	})
	fds.closeChildEnds()
	if err != nil {
		closeFDs(fds.out, fds.err)
		return nil, startError(path, dir, err)
	}
	if fds.out >= 0 {
		p.out = pollable(fds.out, "|0")
	}
	p.errOut = pollable(fds.err, "|1")
	go p.readStderr()
	go p.reap()
	p.stopKill = context.AfterFunc(ctx, p.kill)
	return p, nil
}

// descriptors are those a git call starts with: the null device for its stdin (and its stdout
// when that is not wanted), and the pipes of its output, both ends.
type descriptors struct {
	null, childOut, childErr int
	// out and err are this process's ends; out is -1 when stdout goes to the null device.
	out, err int
}

func openDescriptors(wantStdout bool) (descriptors, error) {
	d := descriptors{out: -1}
	// Read and write: one descriptor serves as stdin and, when unwanted, as stdout.
	null, err := syscall.Open(os.DevNull, syscall.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		return d, &os.PathError{Op: "open", Path: os.DevNull, Err: err}
	}
	d.null, d.childOut = null, null
	var pipe [2]int
	if err := syscall.Pipe2(pipe[:], syscall.O_CLOEXEC); err != nil {
		closeFDs(null)
		return d, os.NewSyscallError("pipe2", err)
	}
	d.err, d.childErr = pipe[0], pipe[1]
	if wantStdout {
		if err := syscall.Pipe2(pipe[:], syscall.O_CLOEXEC); err != nil {
			closeFDs(null, d.err, d.childErr)
			return d, os.NewSyscallError("pipe2", err)
		}
		d.out, d.childOut = pipe[0], pipe[1]
	}
	return d, nil
}

// closeChildEnds closes what only the child needed, once it has them.
func (d descriptors) closeChildEnds() {
	closeFDs(d.null, d.childErr)
	if d.childOut != d.null {
		closeFDs(d.childOut)
	}
}

// startError words a failed start as os/exec does: a directory that cannot be entered is the
// cause named, else the exec.
func startError(path, dir string, err error) error {
	if dir != "" {
		if _, statErr := os.Stat(dir); statErr != nil {
			var pe *os.PathError
			if errors.As(statErr, &pe) {
				pe.Op = "chdir"
				return pe
			}
		}
	}
	return &os.PathError{Op: "fork/exec", Path: path, Err: err}
}

func closeFDs(fds ...int) {
	for _, fd := range fds {
		if fd >= 0 {
			syscall.Close(fd)
		}
	}
}

// pollable makes this process's end of a pipe non-blocking, so that reading it waits in Go's
// poller, where a deadline can end the wait.
// (Should the flag not take, reads block a thread instead, and no deadline ends them.)
func pollable(fd int, name string) *os.File {
	unix.FcntlInt(uintptr(fd), unix.F_SETFL, unix.O_NONBLOCK)
	return os.NewFile(uintptr(fd), name)
}

// output is git's stdout, for a call started piped.
func (p *process) output() io.Reader { return p.out }

func (p *process) readStderr() {
	_, p.stderrErr = io.Copy(p.stderr, p.errOut)
	close(p.stderrDone)
}

// reap waits for git to end, then reaps it under mu, so that kill never signals a pid already
// handed back to the system; the pipes get waitDelay more.
func (p *process) reap() {
	var info unix.Siginfo
	for {
		if err := unix.Waitid(unix.P_PID, p.pid, &info, unix.WEXITED|unix.WNOWAIT, nil); err != unix.EINTR {
			break
		}
	}
	p.mu.Lock()
	var err error
	for {
		if _, err = syscall.Wait4(p.pid, &p.status, 0, nil); err != syscall.EINTR {
			break
		}
	}
	p.reaped, p.waitErr = true, err
	p.mu.Unlock()
	p.expireIOAfter(waitDelay)
	close(p.exited)
}

// kill ends git when the call's context is done, as CommandContext does.
func (p *process) kill() {
	p.mu.Lock()
	if !p.reaped {
		syscall.Kill(p.pid, syscall.SIGKILL)
	}
	p.mu.Unlock()
	p.expireIOAfter(waitDelay)
}

// expireIOAfter gives up reading the pipes after d: a process git started may keep them open
// long after git is gone.
func (p *process) expireIOAfter(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ioExpiry != nil || p.waited {
		return
	}
	p.ioExpiry = time.AfterFunc(d, func() {
		past := time.Unix(1, 0)
		if p.out != nil {
			p.out.SetReadDeadline(past)
		}
		p.errOut.SetReadDeadline(past)
	})
}

// wait copies git's stdout to the sink (Run), waits for git and for its stderr, and returns
// what os/exec's Wait would: git's failure first, then a failed copy, then pipes given up.
func (p *process) wait() error {
	var copyErr error
	if p.sink != nil {
		_, copyErr = io.Copy(p.sink, p.out)
	}
	// Closing the read end stops a git whose output is no longer wanted (a full sink, a stream
	// whose consumer had enough) with a broken pipe, as os/exec does.
	if p.out != nil {
		p.out.Close()
	}
	<-p.stderrDone
	p.errOut.Close()
	<-p.exited
	p.stopKill()
	p.mu.Lock()
	p.waited = true
	if p.ioExpiry != nil {
		p.ioExpiry.Stop()
	}
	p.mu.Unlock()
	p.release()
	late := errors.Is(copyErr, os.ErrDeadlineExceeded) || errors.Is(p.stderrErr, os.ErrDeadlineExceeded)
	switch {
	case p.waitErr != nil:
		return os.NewSyscallError("wait", p.waitErr)
	case !p.status.Exited() || p.status.ExitStatus() != 0:
		return &exitError{p.status}
	case late:
		return exec.ErrWaitDelay
	case copyErr != nil:
		return copyErr
	}
	return nil
}

// exitCode is git's exit status, or -1 when it did not exit by itself.
func (p *process) exitCode() int {
	if !p.reaped {
		return -1
	}
	return p.status.ExitStatus()
}

// exitError is a git that ended unsuccessfully, worded as os/exec words it.
type exitError struct{ status syscall.WaitStatus }

func (e *exitError) Error() string {
	var s string
	switch {
	case e.status.Exited():
		s = "exit status " + strconv.Itoa(e.status.ExitStatus())
	case e.status.Signaled():
		s = "signal: " + e.status.Signal().String()
	default:
		s = "wait status " + strconv.Itoa(int(e.status))
	}
	if e.status.CoreDump() {
		s += " (core dumped)"
	}
	return s
}

// dedupEnv keeps the last value of each variable, as os/exec does: what the call sets wins
// over the inherited environment, and git, which takes a variable's first value, sees that. An
// entry that is no KEY=VALUE is kept as it is; one holding a NUL fails the call.
func dedupEnv(env []string) ([]string, error) {
	var err error
	seen := make(map[string]bool, len(env))
	out := make([]string, 0, len(env))
	for i := len(env) - 1; i >= 0; i-- {
		kv := env[i]
		if strings.IndexByte(kv, 0) >= 0 {
			err = errors.New("exec: environment variable contains NUL")
			continue
		}
		eq := strings.Index(kv, "=")
		if eq == 0 {
			eq = strings.Index(kv[1:], "=") + 1
		}
		if eq < 0 {
			if kv != "" {
				out = append(out, kv)
			}
			continue
		}
		if seen[kv[:eq]] {
			continue
		}
		seen[kv[:eq]] = true
		out = append(out, kv)
	}
	slices.Reverse(out)
	return out, err
}
