//go:build windows

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
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/gauntlet-dev/gauntlet/internal/oscmd"
)

// jobExecutor runs each process in a Job Object of its own, created with kill-on-close: every
// process the gate starts belongs to the job (a child cannot break away, the job does not allow
// it), so terminating the job ends the whole tree, and if gauntlet itself dies the system closes
// the job's last handle and ends the tree for it. Windows has no process groups to signal and
// no SIGTERM; what stands in for them is described at each step.
type jobExecutor struct {
	grace time.Duration
	abort <-chan struct{} // closed: terminate at once, without grace
	drain time.Duration
	// console is whether gauntlet shares a console its gates can be sent CTRL_BREAK through;
	// without one (started by an editor or a host with no terminal) the only stop is to
	// terminate, and the gates are started without a console window of their own.
	console bool
}

func newGroupExecutor(grace time.Duration, abort <-chan struct{}) Executor {
	_, err := windows.GetConsoleCP() // fails when the process has no console
	return &jobExecutor{grace: grace, abort: abort, drain: min(drainTimeout, grace), console: err == nil}
}

func (e *jobExecutor) Execute(ctx context.Context, p Process, out io.Writer) (Exit, error) {
	if len(p.Argv) == 0 {
		return noExit, &StartError{Err: errors.New("empty command")}
	}
	path, err := lookPath(p.Argv[0], p.Dir, p.Env)
	if err != nil {
		return noExit, &StartError{Err: err}
	}
	line, err := oscmd.WindowsCommand(path, p.Argv, oscmd.Comspec(oscmd.Local()))
	if err != nil {
		return noExit, &StartError{Err: err}
	}
	if ctx.Err() != nil {
		return Exit{Code: -1, Interrupted: true}, nil
	}

	job, err := newKillOnCloseJob()
	if err != nil {
		return noExit, fmt.Errorf("creating a job object for %s: %w", p.Argv[0], err)
	}
	// Closing the last handle terminates whatever is still in the job: the backstop for every
	// path out of here, the panicking ones included.
	defer job.close()

	// The read end is overlapped, so that it supports a read deadline: a process that outlives
	// the job's termination cannot exist, but the deadline keeps the bound on the read explicit.
	r, w, err := outputPipe()
	if err != nil {
		return noExit, fmt.Errorf("creating output pipe: %w", err)
	}
	defer r.Close()

	cmd := e.command(line, p, w)

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
		return noExit, &StartError{Err: startErr}
	}
	if err := runInJob(cmd, job, p.Argv[0]); err != nil {
		stdin.abandon()
		return noExit, &StartError{Err: err}
	}
	stdin.start(p.Stdin)

	copied := make(chan struct{})
	go func() {
		defer close(copied)
		pump(r, out)
	}()

	var termAt atomic.Int64 // unix nanos of the first stop; 0 while not interrupted
	waited := make(chan struct{})
	watched := e.stopOnCancel(ctx, cmd, job, &termAt, waited)

	waitErr := cmd.Wait()
	close(waited)
	<-watched

	interrupted := termAt.Load() != 0
	if interrupted {
		// Children that handle CTRL_BREAK get the rest of the grace period to finish.
		e.awaitJobEmpty(job, time.Unix(0, termAt.Load()).Add(e.grace))
	}
	// Always: a background child of a gate that exited must not outlive it.
	job.terminate()
	e.awaitJobEmpty(job, time.Now().Add(e.drain))
	stdin.abandon()

	if err := r.SetReadDeadline(time.Now().Add(e.drain)); err != nil {
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

// command is the gate's process, started suspended in a process group of its own (and without a
// console window when gauntlet has no console), writing to w.
func (e *jobExecutor) command(line oscmd.Command, p Process, w *os.File) *exec.Cmd {
	cmd := exec.Command(line.Program)
	cmd.Args = p.Argv // for the record only: CmdLine is what the process receives
	cmd.Dir = p.Dir
	cmd.Env = p.Env
	cmd.Stdout = w
	cmd.Stderr = w
	flags := uint32(windows.CREATE_SUSPENDED | windows.CREATE_NEW_PROCESS_GROUP)
	if !e.console {
		flags |= windows.CREATE_NO_WINDOW
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: line.CmdLine, CreationFlags: flags}
	return cmd
}

// runInJob places the suspended process in the job before its first instruction, so that
// nothing it starts can be born outside the job, then lets it run. On failure the process is
// ended and waited for.
func runInJob(cmd *exec.Cmd, job *job, name string) error {
	if err := job.adopt(cmd.Process.Pid); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return fmt.Errorf("placing %s in a job object: %w", name, err)
	}
	if err := resumeProcess(uint32(cmd.Process.Pid)); err != nil {
		job.terminate()
		_ = cmd.Wait()
		return fmt.Errorf("starting %s: %w", name, err)
	}
	return nil
}

// stopOnCancel stops the job's processes when ctx ends (gently where a console allows) or the
// run is aborted, before waited closes, noting when in termAt; the channel it returns closes
// when it is done watching.
func (e *jobExecutor) stopOnCancel(ctx context.Context, cmd *exec.Cmd, job *job, termAt *atomic.Int64, waited <-chan struct{}) <-chan struct{} {
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-ctx.Done():
			termAt.CompareAndSwap(0, time.Now().UnixNano())
			e.breakThenTerminate(cmd, job, waited)
		case <-e.abort:
			termAt.CompareAndSwap(0, time.Now().UnixNano())
			job.terminate()
		case <-waited:
		}
	}()
	return watched
}

// breakThenTerminate sends CTRL_BREAK, the nearest thing to SIGTERM: console programs end on it,
// and those that handle it get the grace period to clean up before the job is terminated.
// Without a console, the job is terminated at once.
func (e *jobExecutor) breakThenTerminate(cmd *exec.Cmd, job *job, waited <-chan struct{}) {
	if !e.console || windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(cmd.Process.Pid)) != nil {
		job.terminate()
		return
	}
	grace := time.NewTimer(e.grace)
	defer grace.Stop()
	select {
	case <-grace.C:
		job.terminate()
	case <-e.abort:
		job.terminate()
	case <-waited:
	}
}

// awaitJobEmpty returns once no process is left in the job, at deadline, or on abort.
func (e *jobExecutor) awaitJobEmpty(j *job, deadline time.Time) {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	tick := time.NewTicker(groupPollInterval)
	defer tick.Stop()
	for j.active() {
		select {
		case <-tick.C:
		case <-timer.C:
			return
		case <-e.abort:
			return
		}
	}
}

// job is a Job Object that terminates its processes when its handle is closed.
type job struct {
	h      windows.Handle
	closed atomic.Bool
}

func newKillOnCloseJob() (*job, error) {
	h, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return nil, err
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(h, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(h)
		return nil, err
	}
	return &job{h: h}, nil
}

// adopt puts the process pid, a child of gauntlet that has not exited, into the job.
func (j *job) adopt(pid int) error {
	ph, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		return err
	}
	defer windows.CloseHandle(ph)
	return windows.AssignProcessToJobObject(j.h, ph)
}

// terminate ends every process in the job; the exit code 1 is what an interrupted gate reports.
func (j *job) terminate() {
	if !j.closed.Load() {
		_ = windows.TerminateJobObject(j.h, 1)
	}
}

// jobAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION, which x/sys/windows does not declare.
type jobAccounting struct {
	TotalUserTime             int64
	TotalKernelTime           int64
	ThisPeriodTotalUserTime   int64
	ThisPeriodTotalKernelTime int64
	TotalPageFaultCount       uint32
	TotalProcesses            uint32
	ActiveProcesses           uint32
	TotalTerminatedProcesses  uint32
}

// active reports whether any process is still in the job; an error counts as none, so that a
// failing query cannot hold a gate until its deadline.
func (j *job) active() bool {
	var info jobAccounting
	err := windows.QueryInformationJobObject(j.h, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil)
	return err == nil && info.ActiveProcesses > 0
}

func (j *job) close() {
	if j.closed.CompareAndSwap(false, true) {
		windows.CloseHandle(j.h)
	}
}

// resumeProcess resumes the threads of a process started suspended (there is one: its main
// thread). os.StartProcess keeps no thread handle, so the thread is found by its process id.
func resumeProcess(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("listing threads: %w", err)
	}
	defer windows.CloseHandle(snap)
	var te windows.ThreadEntry32
	te.Size = uint32(unsafe.Sizeof(te))
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return fmt.Errorf("opening thread %d: %w", te.ThreadID, err)
		}
		_, err = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if err != nil {
			return fmt.Errorf("resuming thread %d: %w", te.ThreadID, err)
		}
		resumed++
	}
	if resumed == 0 {
		return errors.New("no thread to resume")
	}
	return nil
}

// pipeSeq keeps pipe names unique within this process; the pid keeps them apart between
// processes.
var pipeSeq atomic.Uint64

// outputPipe is a one-way named pipe: the read end overlapped (Go then serves it from its I/O
// completion port, with read deadlines), the write end synchronous, as a child's stdout expects.
// One instance only, created first by us, and local only: nobody else can connect to it.
func outputPipe() (r, w *os.File, err error) {
	name, err := windows.UTF16PtrFromString(fmt.Sprintf(`\\.\pipe\gauntlet-%d-%d-%d`, os.Getpid(), pipeSeq.Add(1), time.Now().UnixNano()))
	if err != nil {
		return nil, nil, err
	}
	rh, err := windows.CreateNamedPipe(name,
		windows.PIPE_ACCESS_INBOUND|windows.FILE_FLAG_OVERLAPPED|windows.FILE_FLAG_FIRST_PIPE_INSTANCE,
		windows.PIPE_TYPE_BYTE|windows.PIPE_READMODE_BYTE|windows.PIPE_WAIT|windows.PIPE_REJECT_REMOTE_CLIENTS,
		1, 0, 64<<10, 0, nil)
	if err != nil {
		return nil, nil, err
	}
	wh, err := windows.CreateFile(name, windows.GENERIC_WRITE, 0, nil, windows.OPEN_EXISTING, 0, 0)
	if err != nil {
		windows.CloseHandle(rh)
		return nil, nil, err
	}
	return os.NewFile(uintptr(rh), "|0"), os.NewFile(uintptr(wh), "|1"), nil
}
