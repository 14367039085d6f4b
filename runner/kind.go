package runner

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// Kind executes the gates of one kind. The runner knows only the check kind (one command,
// judged by its exit code); every other kind is registered by the caller in Options.Kinds, so
// that a new kind never means editing the scheduler.
//
// Run is called on the gate's own goroutine with the gate's context, which carries its timeout
// and ends on fail-fast, abort and the caller's cancel. It returns the gate's outcome for
// gates.Classify; a panic inside it becomes the gate's internal error. A kind that starts
// processes must start them through g.Execute, so that they are supervised like a check's.
type Kind interface {
	Run(ctx context.Context, g *GateRun) gates.Outcome
}

// KindFunc adapts a function to Kind.
type KindFunc func(ctx context.Context, g *GateRun) gates.Outcome

// Run calls f.
func (f KindFunc) Run(ctx context.Context, g *GateRun) gates.Outcome { return f(ctx, g) }

// GateRun is one gate being run, with what the runner lends a kind to run it: the gate's
// environment and directory, the executor, and the outcomes of a stopped or self-judged gate.
type GateRun struct {
	// Gate is the gate's resolved settings.
	Gate gates.Gate
	// Out is the gate's captured output: what is written here lands in its log, its tail and
	// its output readers (findings, causes) and is streamed to the observer.
	Out io.Writer
	// Root is the absolute project root.
	Root string

	r *run
}

// Dir is the gate's absolute working directory.
func (g *GateRun) Dir() string { return filepath.Join(g.r.opts.Root, g.Gate.Dir) }

// Env is the gate's complete environment, as a check gate's process gets it: the base, the
// gate's own entries, GAUNTLET=1, GAUNTLET_RUN_ID and GAUNTLET_GATE, the caller's extras, then
// extra; for a key set twice the later entry wins.
func (g *GateRun) Env(extra ...string) []string {
	if len(extra) == 0 {
		return gateEnv(g.r.opts.Env, g.Gate, g.r.opts.RunID, g.r.opts.ExtraEnv)
	}
	return gateEnv(g.r.opts.Env, g.Gate, g.r.opts.RunID, append(append([]string(nil), g.r.opts.ExtraEnv...), extra...))
}

// Getenv is the value of key in the gate's environment.
func (g *GateRun) Getenv(key string) (string, bool) { return envValue(g.Env(), key) }

// Execute runs p through the run's executor: its own process group, stopped when ctx ends
// (SIGTERM, then SIGKILL after the grace), killed at once on abort. p.Marks is set by the runner
// to the gate's marks, so that a descendant that leaves the process group is still recognised.
// A process that could not start returns a *StartError.
func (g *GateRun) Execute(ctx context.Context, p Process, out io.Writer) (Exit, error) {
	p.Marks = gateMarks(g.Gate, g.r.opts.RunID)
	return g.r.executor.Execute(ctx, p, out)
}

// Stopped is the outcome of a gate stopped before it could judge: its own timeout and the run's
// deadline make it timed out; fail-fast, abort and the caller's cancel make it cancelled.
func (g *GateRun) Stopped(ctx context.Context, exitCode int) gates.Outcome {
	return g.r.stoppedOutcome(ctx, exitCode)
}

// TimedOut reports whether ctx ended by a timeout (the gate's or the run's deadline) rather than
// by fail-fast, abort or the caller's cancel.
func (g *GateRun) TimedOut(ctx context.Context) bool { return g.r.timedOut(ctx) }

// Judged is the outcome of a gate that judged itself: j's lines are printed as the gate's
// output (so they land in its log and tail) and j is handed to Classify as the verdict.
func (g *GateRun) Judged(exitCode int, j gates.Judgement) gates.Outcome {
	for _, line := range j.Lines {
		fmt.Fprintln(g.Out, line)
	}
	return gates.Outcome{ExitCode: exitCode, Judged: &j, Findings: j.Findings}
}

// Unsupported is the outcome of a gate whose kind nobody registered.
func unsupported(k gates.Kind) gates.Outcome {
	return gates.Outcome{ExitCode: -1, Internal: fmt.Errorf("kind %s is not supported by this build", k)}
}
