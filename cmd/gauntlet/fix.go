package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/engine"
	"github.com/gauntlet-dev/gauntlet/internal/fix"
	"github.com/gauntlet-dev/gauntlet/internal/remotecache"
	"github.com/gauntlet-dev/gauntlet/internal/report"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
	"github.com/gauntlet-dev/gauntlet/lock"
)

// fixOptions are fix's command line, parsed and checked, and its surroundings.
type fixOptions struct {
	IO         *IOStreams
	configFile string
	names      []string
	wait       time.Duration
	color      string
}

// newFixCmd builds `gauntlet fix`; runF, when not nil, receives the parsed options instead.
func newFixCmd(ios *IOStreams, runF func(*fixOptions) error) *cobra.Command {
	opts := &fixOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "fix [GATE...]",
		Short: "Run the fixers of the gates (default: those that failed last), name the files they changed, and rerun the gates",
		Long: `Run the fix command of each gate named (default: each gate that failed in the last run and has
one), one after the other, and name the files each changed, then run those gates again and exit
with their verdict, as gauntlet run does.

Exit codes: 0 pass or warn, 1 fail, 2 usage or config error (a named gate without a fix), 3 error,
4 another run holds the lock, 130 interrupted.`,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			opts.names = args
			if !slices.Contains([]string{"auto", "always", "never"}, opts.color) {
				return usagef("--color must be auto, always or never, got %q", opts.color)
			}
			if runF != nil {
				return runF(opts)
			}
			return fixGates(cmd.Context(), opts)
		}),
	}
	f := cmd.Flags()
	f.StringVarP(&opts.configFile, "config", "c", "", "use this config file instead of searching for .gauntlet.yml")
	addWaitFlag(f, &opts.wait)
	f.StringVar(&opts.color, "color", "auto", "colour the output: auto, always or never (NO_COLOR is honoured by auto)")
	return cmd
}

func fixGates(parent context.Context, opts *fixOptions) error {
	ios := opts.IO
	cfg, err := loadConfig(ios, opts.configFile)
	if err != nil {
		return err
	}
	targets, err := fixTargets(cfg, opts.names)
	if err != nil {
		return err
	}
	view := &stopOnBrokenPipe{w: ios.Out}
	if len(targets) == 0 {
		_, err := fmt.Fprintln(view, "gauntlet fix: no gate that failed in the last run has a fix; name the gates to fix")
		return err
	}

	tty := ios.StdoutTTY
	colored := ios.ColorEnabled(opts.color, tty)
	env := ios.Environ()
	secrets := cfg.Redactor(env)
	// Made before the signals are watched: Ctrl-C's note goes above its block once it is drawn.
	progress := report.NewProgress(view, report.ProgressOptions{TTY: tty, Color: colored, Secrets: secrets})
	defer progress.Stop()

	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	abort := make(chan struct{})
	stopSignals := forwardSignals(cancel, abort, noteAboveProgress(progress, ios.ErrOut))
	defer stopSignals()

	sd, err := state.Open(cfg.Root)
	if err != nil {
		return err
	}
	defer sd.Close()
	// The fixers and the gates run again under one lock: no run may judge a tree half fixed.
	held, err := lock.AcquireFor(ctx, sd.Path(), opts.wait, lock.Purpose{Kind: lock.KindFix})
	if err != nil {
		return err
	}
	defer held.Release()

	fixed := fix.Run(ctx, targets, fix.Options{
		RunID: state.NewRunID(ios.Now()),
		Root:  cfg.Root,
		Env:   remotecache.WithoutSigningKey(env),
		Grace: killGrace,
		Abort: abort,
	})
	var b bytes.Buffer
	writeFixed(&b, fixed)
	if _, err := io.WriteString(view, secrets.Redact(b.String())); err != nil {
		return err
	}
	if errors.Is(context.Cause(ctx), errInterrupted) {
		return errInterrupted
	}

	run, err := engine.Execute(ctx, engine.Request{
		Config:   cfg,
		Scope:    engine.Scope{Names: fixedGateNames(fixed), CI: ios.IsCI()},
		Locked:   true,
		Env:      env,
		Observer: progress,
		Abort:    abort,
		Grace:    killGrace,
		Starting: func(_ string, toRun []gates.Gate) { progress.Start(toRun) },
	})
	progress.Stop()
	return fixedRunExit(ctx, view, colored, run, err)
}

// fixedGateNames are the gates the fixers ran for: they run again.
func fixedGateNames(fixed []fix.Result) []string {
	names := make([]string, len(fixed))
	for i, f := range fixed {
		names[i] = f.Gate
	}
	return names
}

// fixedRunExit writes the summary of the gates run again after their fixers, and returns fix's
// outcome: what could not be written or recorded is an error only when no gate failed.
func fixedRunExit(ctx context.Context, view io.Writer, colored bool, run *engine.Run, err error) error {
	if errors.Is(context.Cause(ctx), errInterrupted) && run == nil {
		return errInterrupted
	}
	if err != nil && run == nil {
		return err
	}
	fmt.Fprintln(view)
	interrupted := errors.Is(context.Cause(ctx), errInterrupted)
	// The live view showed each gate's end, on a terminal or off it: the summary does not list
	// them again.
	werr := report.WriteText(view, run.Report, report.TextOptions{Color: colored, Interrupted: interrupted, ByStatus: true})
	if err = errors.Join(werr, err); err != nil && run.Verdict != gates.VerdictFail {
		return err
	}
	if interrupted {
		return errInterruptedShown
	}
	return &verdictExit{run.Verdict}
}

// fixTargets are the gates to fix: the ones named (each must exist and have a fix), else the
// ones that failed in the last run and have a fix now.
func fixTargets(cfg *config.Config, names []string) ([]gates.Gate, error) {
	if len(names) > 0 {
		return namedFixTargets(cfg.Gates, names)
	}
	failed, err := lastRunFailures(cfg.Root)
	if err != nil {
		return nil, err
	}
	var out []gates.Gate
	for _, g := range cfg.Gates {
		if failed[g.Name] && g.Fix != "" && g.Enabled {
			out = append(out, g)
		}
	}
	return out, nil
}

// namedFixTargets are the named gates, each of which must exist and have a fix.
func namedFixTargets(all []gates.Gate, names []string) ([]gates.Gate, error) {
	var known []string
	var picked []gates.Gate
	var unknown []string
	for _, g := range all {
		known = append(known, g.Name)
	}
	for _, n := range names {
		i := slices.IndexFunc(all, func(g gates.Gate) bool { return g.Name == n })
		if i < 0 {
			unknown = append(unknown, n)
			continue
		}
		picked = append(picked, all[i])
	}
	if len(unknown) > 0 {
		return nil, &engine.UnknownGateError{Unknown: unknown, Known: known}
	}
	gs, err := fix.Fixable(picked)
	if err != nil {
		return nil, &usageError{err}
	}
	return gs, nil
}

// lastRunFailures says, for each gate of the last run, whether it failed.
func lastRunFailures(root string) (map[string]bool, error) {
	data, err := readLastRun(root, io.Discard)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w in %s (gauntlet run records one; or name the gates to fix)", errNoLastRun, config.DisplayPath(filepath.Join(root, state.Name)))
	}
	if err != nil {
		return nil, err
	}
	last, err := report.ReadJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("last run: %w", err)
	}
	failed := map[string]bool{}
	for _, g := range last.Gates {
		failed[g.Name] = g.Status == gates.StatusFail
	}
	return failed, nil
}

// writeFixed says what each fixer did: its command, how it ended when not with exit 0, and the
// files it changed.
func writeFixed(w io.Writer, fixed []fix.Result) {
	for _, f := range fixed {
		fmt.Fprintf(w, "fix %s: %s", f.Gate, oneLine(termtext.Clean(f.Command)))
		if f.Status != gates.StatusPass {
			fmt.Fprintf(w, "  (%s)", termtext.Line(f.Reason))
		}
		fmt.Fprintln(w)
		switch {
		case !f.Known:
			fmt.Fprintln(w, "  changed: unknown (not a git work tree)")
		case len(f.Changed) == 0:
			fmt.Fprintln(w, "  changed no file")
		default:
			fmt.Fprintf(w, "  changed %s: %s\n", termtext.Count(len(f.Changed), "file"), strings.Join(lines(f.Changed), ", "))
		}
		if f.Status == gates.StatusError {
			if tail := strings.TrimSpace(termtext.Clean(f.Tail)); tail != "" {
				for _, l := range strings.Split(lastLines(tail, 10), "\n") {
					fmt.Fprintln(w, "    "+l)
				}
			}
		}
	}
}

// lines keeps file names to one line each, whatever they hold.
func lines(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = termtext.Line(n)
	}
	return out
}
