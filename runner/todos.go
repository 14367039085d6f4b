package runner

import (
	"fmt"
	"io"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/todos"
)

// runTodos runs a gate of kind todos: it reads the transcript the stop hook names in the gate's
// environment and judges the agent's latest todo list. No process is started.
func (r *run) runTodos(g gates.Gate, out io.Writer) (gates.Outcome, *judgement) {
	env := gateEnv(r.opts.Env, g, r.opts.RunID, r.opts.ExtraEnv)
	path, _ := envValue(env, "GAUNTLET_TRANSCRIPT_PATH")
	j := todos.Check(path)
	for _, line := range j.Lines {
		fmt.Fprintln(out, line)
	}
	return gates.Outcome{ExitCode: -1}, &judgement{status: j.Status, reason: j.Reason}
}
