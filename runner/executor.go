package runner

import (
	"context"
	"io"
	"os"
)

// Process is one command to run: the seam between scheduling, which decides what runs when,
// and execution, which owns the operating system's process handling.
type Process struct {
	// Argv is the command and its arguments; a name without a slash is looked up in Env's PATH.
	Argv []string
	// Dir is the absolute working directory.
	Dir string
	// Env is the complete environment, "KEY=VALUE" entries without duplicates.
	Env []string
	// Stdin is what the process reads on its standard input; nil means /dev/null. It is written
	// through a pipe of its own, and abandoned once the process group has ended, so a process
	// that never reads it cannot hold the gate up.
	Stdin io.Reader
	// Marks are "KEY=VALUE" entries of Env that every descendant inherits and that name this
	// process's run and gate: a descendant that left the process group is recognised by them.
	Marks []string
}

// Exit is how a process ended.
type Exit struct {
	// Code is the exit code, or -1 when the process did not exit normally.
	Code int
	// Interrupted is set when the process was signalled because its context ended or the run
	// was aborted: its exit code then says nothing about the code under test.
	Interrupted bool
	// Signal is the signal the process died of; nil when it exited (or the system has none).
	Signal os.Signal
}

// Executor runs one process to completion.
//
// Execute streams the process's merged stdout and stderr to out from a single goroutine and
// never uses out after it returns. When ctx ends it stops the process and everything the process
// started; when it returns, none of them is left running. It returns a *StartError when the
// process could not be started, and any other error only for a failure of gauntlet itself.
type Executor interface {
	Execute(ctx context.Context, p Process, out io.Writer) (Exit, error)
}

// StartError reports that a process could not be started at all (command not found, missing
// working directory, ...), which is the environment's fault rather than the gate's.
type StartError struct {
	Err error
}

func (e *StartError) Error() string { return e.Err.Error() }

func (e *StartError) Unwrap() error { return e.Err }

// noExit is the Exit of a process that never ran.
var noExit = Exit{Code: -1}
