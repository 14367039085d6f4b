package review

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/runner"
)

// Kind runs gates of kind review for the runner: the diff and prompt go to the reviewer CLI on
// stdin, through the runner's executor like a check (own process group, gate timeout), and its
// answer is judged into pass, fail or error.
type Kind struct {
	// Snapshot is the run's reading of the repository: the review's diff is cut from the run's
	// one diff against the base.
	Snapshot *snapshot.Snapshot
	// Redact hides secret values in what the review composes from the reviewer's output (the
	// model's answer, the end of the output, the reason); nil leaves them.
	Redact func(string) string
	// Stop: the run judges a stop, whose reviewer's instructions are the base's.
	Stop bool
	// ControlDir, at a stop, makes the project's root in the base's checkout, where the control
	// review of an answer without a verdict runs (see Control); nil, or its error, runs it in the
	// gate's own directory.
	ControlDir func(context.Context) (string, error)
}

var _ runner.Kind = Kind{}

// Run runs one review gate.
func (k Kind) Run(ctx context.Context, gr *runner.GateRun) gates.Outcome {
	g := gr.Gate
	if g.Review == nil {
		return gates.Outcome{ExitCode: -1, Internal: fmt.Errorf("review gate %s has no review settings", g.Name)}
	}
	job, err := Prepare(ctx, Request{Root: gr.Root, Review: *g.Review, Snapshot: k.Snapshot, Dir: gr.Dir(), Env: gr.Env(), Redact: k.Redact,
		Stop: k.Stop})
	if err != nil {
		if ctx.Err() != nil {
			return gr.Stopped(ctx, -1)
		}
		reason := "review not run: " + err.Error()
		return gr.Judged(-1, gates.Judgement{Status: gates.StatusError, Reason: reason, Lines: []string{reason}})
	}
	defer job.Close()
	if job.NothingToReview != "" {
		return gr.Judged(-1, gates.Judgement{Status: gates.StatusPass, Reason: job.NothingToReview, Lines: []string{job.NothingToReview}})
	}

	// A reviewer started from inside a Claude Code session must not believe it is nested in one;
	// a built-in one gets only what it needs of the environment (reviewerEnv).
	env := reviewerEnv(g.Review.CLI, withoutEnv(gr.Env(job.Env...), "CLAUDECODE"), slices.Concat(g.Env, job.Env))
	var answer Output
	exit, err := gr.Execute(ctx, runner.Process{Argv: job.Argv, Dir: gr.Dir(), Env: env, Stdin: bytes.NewReader(job.Stdin)}, &answer)

	var startErr *runner.StartError
	var j Judgement
	switch {
	case errors.As(err, &startErr):
		j = job.StartFailed(startErr.Err)
	case err != nil:
		return gates.Outcome{ExitCode: exit.Code, Internal: fmt.Errorf("running gate %s: %w", g.Name, err)}
	case exit.Interrupted:
		// What a CLI does with SIGTERM (die of it, exit 0, exit 143) says nothing about the
		// review: a stopped reviewer has no exit status, the same for every CLI.
		gr.Out.Write(answer.Bytes())
		o := gr.Stopped(ctx, -1)
		if o.TimedOut {
			o.Cause = limitCause(answer.Bytes(), k.Redact)
		}
		return o
	default:
		j = job.Judge(exit.Code, answer.Bytes())
		if job.Unanswered() {
			return k.control(ctx, gr, job, exit.Code, j)
		}
	}
	return gr.Judged(exit.Code, j)
}

// control runs the control review of a stop's review answered without a verdict (see Control),
// in the base's checkout: its verdict, or its lack of one, decides whether first fails or stays
// an error. A control that cannot run leaves first an error: the environment's, as any reviewer
// that cannot run.
func (k Kind) control(ctx context.Context, gr *runner.GateRun, job *Job, exitCode int, first Judgement) gates.Outcome {
	g := gr.Gate
	ctl, err := job.Control(k.controlDir(ctx, gr))
	if err != nil {
		return gr.Judged(exitCode, Controlled(first, Judgement{Status: gates.StatusError, Reason: "the control review did not run: " + err.Error()}))
	}
	defer ctl.Close()
	env := reviewerEnv(g.Review.CLI, withoutEnv(gr.Env(ctl.Env...), "CLAUDECODE"), slices.Concat(g.Env, ctl.Env))
	var answer Output
	exit, err := gr.Execute(ctx, runner.Process{Argv: ctl.Argv, Dir: ctl.dir, Env: env, Stdin: bytes.NewReader(ctl.Stdin)}, &answer)
	if err != nil || exit.Interrupted {
		if ctx.Err() != nil {
			return gr.Stopped(ctx, -1)
		}
		return gr.Judged(exitCode, Controlled(first, Judgement{Status: gates.StatusError, Reason: fmt.Sprintf("the control review did not run: %v", err)}))
	}
	return gr.Judged(exitCode, Controlled(first, ctl.Judge(exit.Code, answer.Bytes())))
}

// controlDir is where the control review runs: the gate's directory in the base's checkout, so
// that nothing the change wrote in the work tree (an AGENTS.md or CLAUDE.md a reviewer CLI reads
// by itself) reaches it; the gate's own directory when the base cannot be checked out.
func (k Kind) controlDir(ctx context.Context, gr *runner.GateRun) string {
	if k.ControlDir == nil {
		return gr.Dir()
	}
	base, err := k.ControlDir(ctx)
	if err != nil {
		return gr.Dir()
	}
	dir := filepath.Join(base, filepath.FromSlash(gr.Gate.Dir))
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return base
	}
	return dir
}

// withoutEnv drops every entry of key.
func withoutEnv(env []string, key string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return k == key
	})
}

// limitCause names the usage or rate limit a reviewer stopped at its timeout was waiting out:
// Gemini CLI retries a 429 with backoff until it is stopped, and only its retry lines say why
// ("Attempt 3 failed with status 429. Retrying with backoff... Quota exceeded ..."). nil when
// the output names no limit.
func limitCause(output []byte, redact func(string) string) *gates.Cause {
	line := lastLimitLine(output)
	if line == "" {
		return nil
	}
	if redact != nil {
		line = redact(line)
	}
	return &gates.Cause{ID: "review-usage-limit", Summary: "the reviewer was held back by a usage or rate limit: " + line,
		Fix: "wait for the provider's limit to reset, or raise the quota of the reviewer's account", Line: line}
}
