package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// runCheck runs a gate of kind check: one command, judged by its exit code and output.
func (r *run) runCheck(ctx context.Context, g gates.Gate, out io.Writer) gates.Outcome {
	argv, err := checkArgv(g)
	if err != nil {
		return gates.Outcome{ExitCode: -1, StartErr: err}
	}
	p := Process{
		Argv:  argv,
		Dir:   filepath.Join(r.opts.Root, g.Dir),
		Env:   gateEnv(r.opts.Env, g, r.opts.RunID, r.opts.ExtraEnv),
		Marks: gateMarks(g, r.opts.RunID),
	}
	exit, err := r.executor.Execute(ctx, p, out)
	var startErr *StartError
	switch {
	case errors.As(err, &startErr):
		return gates.Outcome{ExitCode: -1, StartErr: startErr.Err}
	case err != nil:
		return gates.Outcome{ExitCode: exit.Code, Internal: fmt.Errorf("running gate %s: %w", g.Name, err)}
	case exit.Interrupted:
		return r.stoppedOutcome(ctx, exit.Code)
	}
	return gates.Outcome{ExitCode: exit.Code}
}

func checkArgv(g gates.Gate) ([]string, error) {
	switch {
	case g.Run != "":
		// An absolute shell: a gate's own PATH must not decide which shell parses its command.
		return []string{"/bin/sh", "-c", g.Run}, nil
	case len(g.Argv) > 0:
		return slices.Clone(g.Argv), nil
	default:
		return nil, errors.New("gate has neither run nor argv")
	}
}
