// Package review is the review gate kind: it prepares the change against the base, with a prompt,
// for a reviewer CLI on stdin, runs the CLI through the runner's executor (Kind), and judges the
// reviewer's answer.
package review

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/preflight"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// Request is one review gate about to run.
type Request struct {
	// Root is the absolute project root: the diff and prompt_file are relative to it.
	Root string
	// Base is the base ref; "" means auto, as for change scoping.
	Base   string
	Review gates.Review
	// Snapshot is the run's reading of the repository, whose diff the review shares; nil reads
	// the repository for this review alone.
	Snapshot *snapshot.Snapshot
	// Dir is the directory the reviewer runs in; "" is Root.
	Dir string
	// Env is the gate's environment, where a reviewer's own settings are looked up.
	Env []string
	// Redact hides secret values in the text a review composes from the reviewer's output; nil
	// keeps it as it is.
	Redact func(string) string
	// Stop: the review judges an agent's stop. prompt_file is read as the base of the change
	// holds it, when it is there (see instructionsAtBase), and an answer without a verdict is a
	// failure (see answeredWithoutVerdict).
	Stop bool
}

// Job is a prepared review: what to run, what to feed it, and how to judge its answer.
type Job struct {
	// Argv is the reviewer's command line; it never holds the diff.
	Argv []string
	// Stdin is the prompt: instructions, answer format, notes and the diff.
	Stdin []byte
	// Env holds extra KEY=VALUE entries for the reviewer.
	Env []string
	// NothingToReview is set, with a note saying so, when the change is empty: no reviewer
	// needs to run and the gate passes.
	NothingToReview string

	rev     reviewer
	redact  func(string) string
	added   snapshot.AddedLines
	root    string
	tempDir string
	stop    bool
	// instructions are the review's instructions, and req the request it was prepared for, for
	// its control review (Control); dir is where the control runs.
	instructions string
	req          Request
	dir          string
	// unanswered: at a stop, the model answered without a verdict (Unanswered).
	unanswered bool
	// cut says the diff was cut at max_diff_bytes; notShown are the files it left out.
	cut      bool
	notShown []string
}

// Judgement is a review gate's own verdict: pass, fail or error, why, and the lines that
// explain it (one per finding), for the gate's log and tail.
type Judgement = gates.Judgement

// Prepare computes the diff and the prompt. Its error means the review cannot run at all (no
// git, an unreadable prompt_file): the environment's problem, not the change's.
func Prepare(ctx context.Context, req Request) (*Job, error) {
	r := req.Review
	instructions, err := requestInstructions(ctx, req)
	if err != nil {
		return nil, err
	}
	maxBytes := r.MaxDiffBytes
	if maxBytes <= 0 {
		maxBytes = gates.DefaultMaxDiffBytes
	}
	patch, err := reviewPatch(ctx, req, maxBytes)
	if err != nil {
		return nil, err
	}
	j := &Job{root: req.Root, req: req, stop: req.Stop, cut: patch.Cut, notShown: patch.NotShown, added: snapshot.ParseAdded(patch.Text), redact: req.Redact}
	if len(patch.Text) == 0 && !patch.Cut {
		j.NothingToReview = nothingToReview(patch)
		return j, nil
	}
	if err := j.startReviewer(req); err != nil {
		return nil, err
	}
	j.Stdin, j.instructions = buildPrompt(instructions, patch, maxBytes), instructions
	return j, nil
}

// requestInstructions are the review's instructions: prompt_file at the base of the change when
// the request asks for it and the base holds the file, else as loadInstructions reads them.
func requestInstructions(ctx context.Context, req Request) (string, error) {
	r := req.Review
	if req.Stop && req.Snapshot != nil && r.Prompt == "" && r.PromptFile != "" {
		text, found, err := instructionsAtBase(ctx, req.Snapshot, r.PromptFile)
		if err != nil {
			return "", fmt.Errorf("prompt_file %s at the base: %w", r.PromptFile, err)
		}
		if found {
			return text, nil
		}
	}
	return loadInstructions(ctx, req.Root, r.Prompt, r.PromptFile)
}

// reviewPatch is the diff the review reads: the run's snapshot's, or one read for the review.
func reviewPatch(ctx context.Context, req Request, maxBytes int64) (*snapshot.Patch, error) {
	snap := req.Snapshot
	if snap == nil {
		snap = snapshot.New(req.Root, snapshot.Options{Base: req.Base, PatchBytes: maxBytes})
	}
	patch, err := snap.Patch(ctx, snapshot.PatchOptions{MaxBytes: maxBytes, Skip: LooksSecret})
	if err != nil {
		return nil, fmt.Errorf("no diff to review: %w", err)
	}
	return patch, nil
}

// nothingToReview says why an empty diff is no review, naming the files never sent.
func nothingToReview(patch *snapshot.Patch) string {
	why := "nothing to review: no change against " + patch.Against
	if len(patch.LeftOut) > 0 {
		why += " but files that are never sent (" + strings.Join(patch.LeftOut, ", ") + ")"
	}
	return why
}

// startReviewer readies the reviewer's command line and environment, with a temporary
// directory of its own for the CLIs that need one.
func (j *Job) startReviewer(req Request) error {
	r := req.Review
	if r.CLI == CLICodex || r.CLI == CLIGemini {
		var err error
		if j.tempDir, err = os.MkdirTemp("", "gauntlet-review-"); err != nil {
			return fmt.Errorf("temporary directory for %s: %w", r.CLI, err)
		}
	}
	dir := req.Dir
	if dir == "" {
		dir = req.Root
	}
	rev, err := newReviewer(r.CLI, r.Model, j.tempDir, dir, req.Env)
	if err != nil {
		j.Close()
		return err
	}
	j.rev = rev
	j.Argv = j.rev.argv()
	if g, ok := j.rev.(geminiCLI); ok {
		j.Env = append(j.Env, g.setup.env...)
	}
	if _, custom := j.rev.(customCLI); custom && r.Model != "" {
		j.Env = append(j.Env, "GAUNTLET_REVIEW_MODEL="+r.Model)
	}
	return nil
}

// Close removes the job's temporary files.
func (j *Job) Close() error {
	if j.tempDir == "" {
		return nil
	}
	err := os.RemoveAll(j.tempDir)
	j.tempDir = ""
	return err
}

// Judge reads the reviewer's answer (exit code and output) into the gate's judgement. No
// verdict is an error; at a stop, one the model answered without is Unanswered, and the control
// review decides (Controlled).
func (j *Job) Judge(exitCode int, output []byte) Judgement {
	v, cause := j.rev.answer(exitCode, output)
	if v == nil {
		j.unanswered = j.stop && answeredWithoutVerdict(cause)
		return j.noVerdict(cause, output)
	}
	return j.partial(judgeVerdict(v, j.added, j.root))
}

// maxNamedUnseen bounds the files a partial review's reason names.
const maxNamedUnseen = 10

// partial keeps a pass of a review whose diff was cut from passing: the reviewer judged only part
// of the change (a file sorting first, padded past max_diff_bytes, pushes the rest out), so the
// review warns, naming what it did not see.
func (j *Job) partial(jm Judgement) Judgement {
	if !j.cut || jm.Status != gates.StatusPass {
		return jm
	}
	unseen := "the rest of the change"
	if n := len(j.notShown); n > 0 {
		named := j.notShown[:min(n, maxNamedUnseen)]
		unseen = strings.Join(named, ", ")
		if n > len(named) {
			unseen += fmt.Sprintf(" and %d more", n-len(named))
		}
	}
	reason := "the diff was cut at max_diff_bytes; not shown to the reviewer: " + unseen
	jm.Status, jm.Reason = gates.StatusWarn, reason
	jm.Lines = append(jm.Lines, reason)
	return jm
}

// answeredWithoutVerdict says the cause is the model's own answer holding no verdict (or being
// empty) while its CLI ran, logged in and under no limit: nothing of the environment explains it,
// and the diff the model read can ask for exactly that ("do not give a verdict").
func answeredWithoutVerdict(cause string) bool {
	return kindOf(cause) == "" && (strings.HasPrefix(cause, "no parseable verdict in its ") || cause == "its answer was empty")
}

// StartFailed is the judgement when the reviewer could not be started at all.
func (j *Job) StartFailed(err error) Judgement {
	cause := "could not start: " + err.Error()
	if errors.Is(err, exec.ErrNotFound) {
		cause = j.Argv[0] + " is not installed (not found on PATH)"
		if hint, ok := preflight.InstallHint(j.Argv[0]); ok {
			cause += "; install it: " + hint
		}
	}
	return noVerdict(j.rev.name(), cause, nil)
}

// What is kept of the model's answer when it holds no verdict: its start, which says what the
// model made of the request, in at most maxAnswerLines lines of maxAnswerLineBytes and
// maxAnswerBytes in all.
const (
	maxAnswerBytes     = 4096
	maxAnswerLines     = 40
	maxAnswerLineBytes = 500
)

// noVerdict is the judgement without a verdict: the reason with its cause, the model's answer as
// the CLI reported it, and the end of the CLI's output, every line redacted.
func (j *Job) noVerdict(cause string, output []byte) Judgement {
	jm := noVerdict(j.rev.name(), cause, output)
	if said := answerLines(j.rev.said(output)); len(said) > 0 {
		// Beside the reason, after the output's end, so that the shortest tail still shows it.
		last := len(jm.Lines) - 1
		lines := append(slices.Clone(jm.Lines[:last]), "the model answered:")
		jm.Lines = append(append(lines, said...), jm.Lines[last])
	}
	if j.redact != nil {
		jm.Reason = j.redact(jm.Reason)
		for i, l := range jm.Lines {
			jm.Lines[i] = j.redact(l)
		}
	}
	return jm
}

// answerLines is the start of an answer, bounded, each line indented.
func answerLines(answer string) []string {
	text := strings.TrimSpace(string(termtext.Strip(nil, []byte(answer))))
	if text == "" {
		return nil
	}
	var lines []string
	kept := 0
	all := strings.Split(text, "\n")
	for i, l := range all {
		l = "  " + termtext.Short(l, maxAnswerLineBytes)
		if i == maxAnswerLines || kept+len(l) > maxAnswerBytes {
			lines = append(lines, fmt.Sprintf("  … (%d more lines of the answer not shown)", len(all)-i))
			break
		}
		kept += len(l)
		lines = append(lines, l)
	}
	return lines
}

// withRedact makes the job hide secret values in what it composes from the reviewer's output.
func (j *Job) withRedact(redact func(string) string) *Job {
	j.redact = redact
	return j
}

// maxOutputLines is how much of a reviewer's output an error shows, to help tell why.
const maxOutputLines = 20

func noVerdict(name, cause string, output []byte) Judgement {
	reason := "no verdict from " + name
	if kind := kindOf(cause); kind != "" {
		reason += " (" + kind + ")"
	}
	reason += ": " + cause
	var lines []string
	if tail := lastLines(output, maxOutputLines); len(tail) > 0 {
		lines = append(lines, "reviewer output (last lines):")
		lines = append(lines, tail...)
	}
	return Judgement{Status: gates.StatusError, Reason: reason, Lines: append(lines, reason)}
}

func lastLines(output []byte, n int) []string {
	text := strings.TrimRight(string(termtext.Strip(nil, output)), "\n\t ")
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	lines = lines[max(0, len(lines)-n):]
	for i, l := range lines {
		lines[i] = "  " + termtext.Short(l, 500)
	}
	return lines
}
