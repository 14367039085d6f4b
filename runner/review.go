package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/review"
)

// runReview runs a gate of kind review: the diff and prompt go to the reviewer CLI on stdin,
// through the same executor as checks (own process group, gate timeout), and its answer is
// judged into pass, fail or error.
func (r *run) runReview(ctx context.Context, g gates.Gate, out io.Writer) gates.Outcome {
	if g.Review == nil {
		return gates.Outcome{ExitCode: -1, Internal: fmt.Errorf("review gate %s has no review settings", g.Name)}
	}
	job, err := review.Prepare(ctx, review.Request{Root: r.opts.Root, Base: r.opts.Base, Review: *g.Review})
	if err != nil {
		if ctx.Err() != nil {
			return r.stoppedOutcome(ctx, -1)
		}
		reason := "review not run: " + err.Error()
		return judged(out, -1, gates.Judgement{Status: gates.StatusError, Reason: reason, Lines: []string{reason}})
	}
	defer job.Close()
	if job.NothingToReview != "" {
		return judged(out, -1, gates.Judgement{Status: gates.StatusPass, Reason: job.NothingToReview, Lines: []string{job.NothingToReview}})
	}

	env := gateEnv(r.opts.Env, g, r.opts.RunID, slices.Concat(r.opts.ExtraEnv, job.Env))
	// A reviewer started from inside a Claude Code session must not believe it is nested in one.
	env = withoutEnv(env, "CLAUDECODE")
	p := Process{Argv: job.Argv, Dir: filepath.Join(r.opts.Root, g.Dir), Env: env, Stdin: bytes.NewReader(job.Stdin), Marks: gateMarks(g, r.opts.RunID)}
	var answer review.Output
	exit, err := r.executor.Execute(ctx, p, &answer)

	var startErr *StartError
	var j review.Judgement
	switch {
	case errors.As(err, &startErr):
		j = job.StartFailed(startErr.Err)
	case err != nil:
		return gates.Outcome{ExitCode: exit.Code, Internal: fmt.Errorf("running gate %s: %w", g.Name, err)}
	case exit.Interrupted:
		out.Write(answer.Bytes())
		return r.stoppedOutcome(ctx, exit.Code)
	default:
		j = job.Judge(exit.Code, answer.Bytes())
	}
	return judged(out, exit.Code, j)
}
