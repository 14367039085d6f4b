package todos

import (
	"context"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/runner"
)

// Kind runs gates of kind todos for the runner: it reads the transcript the stop hook names in
// the gate's environment (GAUNTLET_TRANSCRIPT_PATH) and judges the agent's latest todo list.
// No process is started.
type Kind struct{}

var _ runner.Kind = Kind{}

// Run judges one todos gate.
func (Kind) Run(ctx context.Context, gr *runner.GateRun) gates.Outcome {
	path, _ := gr.Getenv("GAUNTLET_TRANSCRIPT_PATH")
	j := Check(ctx, path)
	// A transcript that could not be read before the deadline is that error, the environment's,
	// not a todo list that took too long to judge; fail-fast and interrupts stop the gate as usual.
	if ctx.Err() != nil && !(j.Status == gates.StatusError && gr.TimedOut(ctx)) {
		return gr.Stopped(ctx, -1)
	}
	return gr.Judged(-1, j)
}
