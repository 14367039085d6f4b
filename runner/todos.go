package runner

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/todos"
)

// runTodos runs a gate of kind todos: it reads the transcript the stop hook names in the gate's
// environment and judges the agent's latest todo list. No process is started.
func (r *run) runTodos(ctx context.Context, g gates.Gate, out io.Writer) gates.Outcome {
	path, _ := envValue(slices.Concat(r.opts.Env, g.Env, r.opts.ExtraEnv), "GAUNTLET_TRANSCRIPT_PATH")
	j := todos.Check(ctx, path)
	// A transcript that could not be read before the deadline is that error, the environment's,
	// not a todo list that took too long to judge; fail-fast and interrupts stop the gate as usual.
	if ctx.Err() != nil && !(j.Status == gates.StatusError && r.timedOut(ctx)) {
		return r.stoppedOutcome(ctx, -1)
	}
	return judged(out, -1, j)
}

// judged prints a self-judging gate's lines as its output, so they land in its log and tail,
// and hands its verdict to Classify.
func judged(out io.Writer, exitCode int, j gates.Judgement) gates.Outcome {
	for _, line := range j.Lines {
		fmt.Fprintln(out, line)
	}
	return gates.Outcome{ExitCode: exitCode, Judged: &j, Findings: j.Findings}
}
