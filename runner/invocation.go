package runner

import (
	"io"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// Invocation is another form of a check gate's command that checks the same, which the caller
// asks the runner to run instead: a test runner asked for its machine output beside what it
// prints (internal/census). The gate keeps its declared command in its result and everywhere
// else.
type Invocation struct {
	// Run or Argv replaces the gate's own command, whichever of the two it declares.
	Run  string
	Argv []string
	// Output, when set, stands between the process and the gate's capture: it receives the
	// process's output and writes to out what the user is shown (the log, the tail, the output
	// readers, the observer). It is closed once the process has ended, before the capture is.
	Output func(out io.Writer) io.WriteCloser
	// Env are entries added to the gate's environment after every other (a runner behind a
	// script reads its census options there); each replaces its key's value.
	Env []string
}

// InvocationsFunc gives the invocation of a check gate; nil runs the gate as declared.
type InvocationsFunc func(g gates.Gate) *Invocation

// invoked is the gate as its process runs it and the writer its output goes to; done closes
// what Output opened.
func (r *run) invoked(g gates.Gate, out io.Writer) (gates.Gate, io.Writer, []string, func()) {
	if r.opts.Invocations == nil {
		return g, out, nil, func() {}
	}
	inv := r.opts.Invocations(g)
	if inv == nil {
		return g, out, nil, func() {}
	}
	switch {
	case g.Run != "" && inv.Run != "":
		g.Run = inv.Run
	case g.Run == "" && len(inv.Argv) > 0:
		g.Argv = inv.Argv
	}
	if inv.Output == nil {
		return g, out, inv.Env, func() {}
	}
	filtered := inv.Output(out)
	return g, filtered, inv.Env, func() { filtered.Close() }
}
