package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/atomicfile"
	"github.com/gauntlet-dev/gauntlet/internal/baseline"
	"github.com/gauntlet-dev/gauntlet/internal/engine"
	"github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

type baselineOptions struct {
	IO         *IOStreams
	configFile string
	wait       time.Duration
	names      []string
}

func newBaselineCmd(ios *IOStreams, runF func(*baselineOptions) error) *cobra.Command {
	opts := &baselineOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "baseline [GATE...]",
		Short: "Record what the new_only gates report at this commit, for new_only to compare with",
		Long: `Run the named gates (default: every enabled check gate with new_only) on this commit and
record everything each reports in ` + baseline.FileName + ` at the project root: the commit, the
gate's definition, whether it failed, and its findings (file, line, rule, message). Commit the
file: new_only then sets a finding aside when the baseline committed at the base of a change has
the same finding, instead of running the gate at the base. The baseline is read as committed at
the base, never from the working tree, so a change cannot excuse its own findings by editing it.

The tree must have no changes (the baseline describes a commit). Naming gates updates their
entries and keeps the others. Exit 0 when written, 2 for a usage problem or a tree with changes,
3 when a gate could not be judged (nothing is written then), 4 when another run holds the lock.`,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			opts.names = args
			if runF != nil {
				return runF(opts)
			}
			return writeBaseline(cmd.Context(), opts)
		}),
	}
	f := cmd.Flags()
	f.StringVarP(&opts.configFile, "config", "c", "", "use this config file instead of searching for .gauntlet.yml")
	addWaitFlag(f, &opts.wait)
	return cmd
}

func writeBaseline(ctx context.Context, opts *baselineOptions) error {
	io, names := opts.IO, opts.names
	cfg, err := loadConfig(io, opts.configFile)
	if err != nil {
		return err
	}
	chosen, err := baselineGates(cfg, names)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	commit, err := cleanCommit(ctx, cfg.Root)
	if err != nil {
		return err
	}
	path := filepath.Join(cfg.Root, baseline.FileName)
	file, err := baselineToUpdate(path, len(names) > 0)
	if err != nil {
		return err
	}

	recorded, err := engine.RecordBaseline(ctx, engine.BaselineRequest{Config: cfg, Gates: chosen, LockWait: opts.wait, Env: io.Environ()})
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return errInterrupted
	}
	if failed := unjudgedGates(recorded); len(failed) > 0 {
		for _, msg := range failed {
			fmt.Fprintf(io.ErrOut, "gauntlet: %s\n", msg)
		}
		fmt.Fprintf(io.ErrOut, "gauntlet: nothing written to %s\n", baseline.FileName)
		return &verdictExit{gates.VerdictError}
	}
	addToBaseline(io.Out, file, recorded, chosen, commit, cfg.Root)
	data, err := file.Encode()
	if err != nil {
		return err
	}
	if err := atomicfile.Write(path, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", baseline.FileName, err)
	}
	fmt.Fprintf(io.Out, "wrote %s for commit %s (%s): commit it, and new_only compares with it\n",
		config.DisplayPath(path), commit[:12], termtext.Count(len(recorded), "gate"))
	return nil
}

// baselineToUpdate is the baseline file the recorded gates go into: when gates are named, the
// one at path (they update their entries; the others stay as they are), else a new one.
func baselineToUpdate(path string, named bool) (*baseline.File, error) {
	file := &baseline.File{SchemaVersion: baseline.SchemaVersion, Gates: map[string]baseline.GateEntry{}}
	if !named {
		return file, nil
	}
	data, err := safefile.ReadFile(path, baseline.MaxFileBytes, time.Now().Add(10*time.Second))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return file, nil
	case err != nil:
		return nil, usagef("%s: %v", baseline.FileName, err)
	}
	if file, err = baseline.ParseFile(data); err != nil {
		return nil, usagef("%v (remove it, or run gauntlet baseline without gate names to write it anew)", err)
	}
	return file, nil
}

// unjudgedGates says which recorded gates could not be judged: their findings are no baseline.
func unjudgedGates(recorded []engine.BaselineGate) []string {
	var failed []string
	for _, r := range recorded {
		switch r.Result.Status {
		case gates.StatusPass, gates.StatusFail, gates.StatusWarn:
			continue
		}
		msg := fmt.Sprintf("%s could not be judged: %s", r.Result.Name, r.Result.Reason)
		if r.Result.Log != "" {
			msg += " (log: " + r.Result.Log + ")"
		}
		failed = append(failed, msg)
	}
	return failed
}

// addToBaseline puts each recorded gate's entry into file, saying what it holds.
func addToBaseline(out io.Writer, file *baseline.File, recorded []engine.BaselineGate, chosen []gates.Gate, commit, root string) {
	byName := map[string]gates.Gate{}
	for _, g := range chosen {
		byName[g.Name] = g
	}
	for _, r := range recorded {
		e := baselineEntry(r, byName[r.Result.Name], commit, root)
		file.Gates[r.Result.Name] = e
		fmt.Fprintln(out, baselineLine(r, e))
	}
}

// baselineEntry is the baseline's entry for a recorded gate.
func baselineEntry(r engine.BaselineGate, g gates.Gate, commit, root string) baseline.GateEntry {
	e := baseline.GateEntry{
		Commit:     commit,
		Definition: baseline.Definition(g),
		Failed:     r.Result.Status != gates.StatusPass,
		Findings:   []baseline.Entry{},
	}
	for _, f := range r.Findings {
		e.Findings = append(e.Findings, baseline.EntryOf(f, root))
	}
	return e
}

// baselineLine is the line baseline prints for a recorded gate.
func baselineLine(r engine.BaselineGate, e baseline.GateEntry) string {
	verdict := "passes"
	if e.Failed {
		verdict = "fails"
	}
	more := ""
	if !r.Complete {
		more = fmt.Sprintf(" (more than %d: only those kept)", baseline.MaxFindings)
	}
	return fmt.Sprintf("%s: %s%s, %s", r.Result.Name, termtext.Count(len(e.Findings), "finding"), more, verdict)
}

// baselineGates are the named gates, or every enabled check gate with new_only.
func baselineGates(cfg *config.Config, names []string) ([]gates.Gate, error) {
	var out []gates.Gate
	if len(names) == 0 {
		for _, g := range cfg.Gates {
			if g.Enabled && g.NewOnly && isCheckGate(g) {
				out = append(out, g)
			}
		}
		if len(out) == 0 {
			return nil, usagef("no enabled check gate has new_only: name the gates to record")
		}
		return out, nil
	}
	for _, name := range slices.Compact(slices.Sorted(slices.Values(names))) {
		i := slices.IndexFunc(cfg.Gates, func(g gates.Gate) bool { return g.Name == name })
		if i < 0 {
			return nil, usagef("unknown gate %q", name)
		}
		if !isCheckGate(cfg.Gates[i]) {
			return nil, usagef("gate %q is a %s gate: only check gates' findings are compared with a base", name, cfg.Gates[i].Kind)
		}
		out = append(out, cfg.Gates[i])
	}
	return out, nil
}

func isCheckGate(g gates.Gate) bool { return g.Kind == gates.KindCheck || g.Kind == "" }

// cleanCommit is HEAD, provided the project has no changes besides gauntlet's own files: the
// baseline is compared with the commit it names.
func cleanCommit(ctx context.Context, root string) (string, error) {
	head, err := git.Output(ctx, root, 256, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return "", usagef("gauntlet baseline needs a git repository with a commit: %v", err)
	}
	status, err := git.Output(ctx, root, 1<<20, "status", "--porcelain", "-z", "--untracked-files=normal", "--",
		".", ":(exclude)"+".gauntlet", ":(exclude)"+baseline.FileName)
	if err != nil {
		return "", fmt.Errorf("read the tree's changes: %w", err)
	}
	var changed []string
	for _, entry := range git.SplitNUL(status) {
		if len(entry) > 3 && entry[2] == ' ' {
			changed = append(changed, entry[3:])
		}
	}
	if len(changed) > 0 {
		shown := changed[:min(3, len(changed))]
		more := ""
		if len(changed) > 3 {
			more = fmt.Sprintf(" and %d more", len(changed)-3)
		}
		return "", usagef("the tree has changes (%s%s): commit or stash them first; a baseline describes a commit",
			strings.Join(shown, ", "), more)
	}
	return strings.TrimSpace(string(head)), nil
}
