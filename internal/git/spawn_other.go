//go:build !linux

package git

import (
	"context"
	"io"
	"os/exec"

	"github.com/gauntlet-dev/gauntlet/internal/proc"
)

// process is one git call, through os/exec.
type process struct {
	cmd     *exec.Cmd
	release func()
	out     io.Reader
	stderr  *CappedBuffer
}

// start starts git with args in dir, its stdin the null device, its stderr kept in a
// CappedBuffer. Its stdout goes to stdout; when piped, the caller reads it from output() before
// wait; else it goes to the null device.
func start(ctx context.Context, dir string, args []string, stdout io.Writer, piped bool) (*process, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = environ()
	cmd.WaitDelay = waitDelay
	p := &process{cmd: cmd, stderr: &CappedBuffer{Limit: maxStderr, Truncate: true}}
	cmd.Stderr = p.stderr
	cmd.Stdout = stdout
	if piped {
		out, err := cmd.StdoutPipe()
		if err != nil {
			return nil, err
		}
		p.out = out
	}
	release, err := proc.Start(cmd)
	if err != nil {
		return nil, err
	}
	p.release = release
	return p, nil
}

// output is git's stdout, for a call started without a sink.
func (p *process) output() io.Reader { return p.out }

// wait waits for git and for its output.
func (p *process) wait() error {
	err := p.cmd.Wait()
	p.release()
	return err
}

// exitCode is git's exit status, or -1 when it did not exit by itself.
func (p *process) exitCode() int {
	if p.cmd.ProcessState == nil {
		return -1
	}
	return p.cmd.ProcessState.ExitCode()
}
