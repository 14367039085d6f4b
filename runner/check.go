package runner

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/filesarg"
	"github.com/gauntlet-dev/gauntlet/internal/oscmd"
)

// runCheck runs a gate of kind check: one command, judged by its exit code and output.
func runCheck(ctx context.Context, g *GateRun) gates.Outcome {
	gate, out, env, done := g.r.invoked(g.Gate, g.Out)
	defer done()
	var exit Exit
	var err error
	if batches := filesarg.Batches(gate, oscmd.Local()); len(batches) > 1 {
		exit, err = executeBatches(ctx, g, batches, out)
	} else {
		argv, aerr := checkArgv(batches[0])
		if aerr != nil {
			return gates.Outcome{ExitCode: -1, StartErr: aerr}
		}
		exit, err = g.Execute(ctx, Process{Argv: argv, Dir: g.Dir(), Env: g.Env(env...)}, out)
	}
	var startErr *StartError
	switch {
	case errors.As(err, &startErr):
		return gates.Outcome{ExitCode: -1, StartErr: startErr.Err}
	case err != nil:
		return gates.Outcome{ExitCode: exit.Code, Internal: fmt.Errorf("running gate %s: %w", g.Gate.Name, err)}
	case exit.Interrupted:
		return g.Stopped(ctx, exit.Code)
	}
	if sig, ok := g.r.stoppedWithRun(exit); ok {
		return gates.Outcome{ExitCode: exit.Code, Cancelled: true, StopSignal: sig}
	}
	return gates.Outcome{ExitCode: exit.Code}
}

func checkArgv(g gates.Gate) ([]string, error) {
	switch {
	case g.Run != "":
		// The shell is found on gauntlet's own PATH (on Unix sh is /bin/sh): a gate's own PATH
		// must not decide which shell parses its command.
		return oscmd.ShellArgv(oscmd.Local(), g.Shell, g.Run)
	case len(g.Argv) > 0:
		return slices.Clone(g.Argv), nil
	default:
		return nil, errors.New("gate has neither run nor argv")
	}
}
