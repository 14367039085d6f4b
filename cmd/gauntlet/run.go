package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/cipush"
	"github.com/gauntlet-dev/gauntlet/internal/engine"
	"github.com/gauntlet-dev/gauntlet/internal/report"
	"github.com/gauntlet-dev/gauntlet/internal/shard"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// killGrace is the time between SIGTERM and SIGKILL for a stopped gate; 0 is the runner's
// default. The end-to-end tests lengthen it to tell a second Ctrl-C apart from the grace running out.
var killGrace time.Duration

// runOptions are run's command line, parsed and checked, and its surroundings.
type runOptions struct {
	IO         *IOStreams
	configFile string
	// jobs, failFast and timeout override the config only when given (their *Set fields).
	jobs        int
	jobsSet     bool
	failFast    bool
	failFastSet bool
	timeout     time.Duration
	timeoutSet  bool
	all         bool
	base        string
	outputs     []report.Output
	wait        time.Duration
	verbose     bool
	color       string
	shard       engine.Shard
	names       []string
	noCache     bool
	newOnly     bool
	timings     string
	// notTheChange and ran are init's first run: the files init wrote are not a change, and
	// init reads the run to mark the gates that failed in the config it wrote.
	notTheChange []string
	ran          func(*engine.Run)
}

// newRunCmd builds `gauntlet run`; runF, when not nil, receives the parsed options instead of
// running the gates (the tests' seam).
func newRunCmd(ios *IOStreams, runF func(*runOptions) error) *cobra.Command {
	opts := &runOptions{IO: ios}
	var (
		shard   string
		formats []string
		output  string
	)
	cmd := &cobra.Command{
		Use:   "run [GATE...]",
		Short: "Run the gates (all, or the ones named) and report the verdict",
		Long: `Run the gates of .gauntlet.yml in parallel under a lock and report one verdict.

--format is repeatable, each FORMAT (to stdout, at most one) or FORMAT=FILE, so that one run
writes every report a CI needs: --format text --format sarif=gauntlet.sarif --format junit=junit.xml.
Two reports to one destination are a usage error.

Exit codes: 0 pass or warn, 1 fail, 2 usage or config error, 3 error (a gate could not run),
4 another run holds the lock, 130 interrupted.`,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			opts.names = args
			flags := cmd.Flags()
			opts.jobsSet, opts.failFastSet, opts.timeoutSet = flags.Changed("jobs"), flags.Changed("fail-fast"), flags.Changed("timeout")
			if opts.jobsSet && opts.jobs < 1 {
				return usagef("--jobs must be at least 1, got %d", opts.jobs)
			}
			if opts.timeoutSet && opts.timeout <= 0 {
				return usagef("--timeout must be a positive duration, got %s", opts.timeout)
			}
			outs, err := parseOutputs(ios, formats, output)
			if err != nil {
				return err
			}
			opts.outputs = outs
			if !slices.Contains([]string{"auto", "always", "never"}, opts.color) {
				return usagef("--color must be auto, always or never, got %q", opts.color)
			}
			if flags.Changed("shard") {
				s, err := parseShard(shard, ios.Getenv)
				if err != nil {
					return &usageError{err}
				}
				opts.shard = s
			}
			if runF != nil {
				return runF(opts)
			}
			return runGates(cmd.Context(), opts)
		}),
	}
	f := cmd.Flags()
	f.StringVarP(&opts.configFile, "config", "c", "", "use this config file instead of searching for .gauntlet.yml")
	f.IntVarP(&opts.jobs, "jobs", "j", 0, "run at most N gates at once (default: the config's jobs)")
	f.BoolVar(&opts.failFast, "fail-fast", false, "on the first failure, cancel the other gates")
	f.DurationVar(&opts.timeout, "timeout", 0, "default per-gate timeout (overrides the config's timeout)")
	f.BoolVar(&opts.all, "all", false, "ignore paths scoping: run every enabled gate")
	f.StringVar(&opts.base, "base", "", "base ref for change scoping (default: the config's base, else auto)")
	addOutputFlags(f, &formats, &output)
	addWaitFlag(f, &opts.wait)
	f.BoolVarP(&opts.verbose, "verbose", "v", false, "stream every gate's output live, each line prefixed with the gate name")
	f.StringVar(&opts.color, "color", "auto", "colour the output: auto, always or never (NO_COLOR is honoured by auto)")
	f.BoolVar(&opts.noCache, "no-cache", false, "run every gate, even those whose pass the cache holds")
	f.BoolVar(&opts.newOnly, "new-only", false, "fail only on what the change broke: failures the base has too (measured there) are reported, not failed")
	f.StringVar(&shard, "shard", "", "run only shard K of N of the selected gates, balanced by known durations, e.g. 2/4; auto: from the CI's variables")
	f.StringVar(&opts.timings, "timings", "", "gate durations that balance --shard: a JSON report or a {\"gate\": ms} object (default: the last unsharded run's)")
	return cmd
}

func runGates(parent context.Context, opts *runOptions) error {
	ios := opts.IO
	cfg, err := loadConfig(ios, opts.configFile)
	if err != nil {
		return err
	}
	applyOverrides(cfg, opts)
	var timings shard.Timings
	if opts.shard.N > 1 {
		if timings, err = loadTimings(ios.ErrOut, opts.timings, cfg.Root); err != nil {
			return err
		}
	}
	out := runOutputsFor(ios, opts)
	env := ios.Environ()
	progress := report.NewProgress(out.view, report.ProgressOptions{TTY: out.tty, Color: out.colored, Verbose: opts.verbose, Secrets: cfg.Redactor(env)})
	defer progress.Stop()

	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	abort := make(chan struct{})
	stopSignals := forwardSignals(cancel, abort, noteAboveProgress(progress, ios.ErrOut))
	defer stopSignals()

	run, err := engine.Execute(ctx, engine.Request{
		Config:   cfg,
		Scope:    runScope(ios, opts, timings),
		LockWait: opts.wait,
		Env:      env,
		Observer: progress,
		Abort:    abort,
		Grace:    killGrace,
		Starting: func(_ string, toRun []gates.Gate) { progress.Start(toRun) },
		NoCache:  opts.noCache,
		Blame:    true,
		NewOnly:  opts.newOnly,
		Counts:   newOnlyCounts(opts.newOnly),

		NotTheChange: opts.notTheChange,
	})
	progress.Stop()
	reportLeftovers(ios.ErrOut, run)
	if errors.Is(context.Cause(ctx), errInterrupted) && run == nil {
		return errInterrupted
	}
	if err != nil && run == nil {
		return err
	}
	reportRunErrors(ios.ErrOut, run)
	if opts.ran != nil {
		opts.ran(run)
	}
	interrupted := errors.Is(context.Cause(ctx), errInterrupted)
	// The run happened but could not be recorded when err is set.
	ioErr := errors.Join(writeRunResults(ios, opts, cfg, out, run, interrupted), err)
	return runExit(ios.ErrOut, run.Verdict, ioErr, interrupted)
}

// runScope is what the command line asks the run to be about.
func runScope(ios *IOStreams, opts *runOptions, timings shard.Timings) engine.Scope {
	scope := changeScope(ios, opts.names, opts.all, opts.base)
	scope.Shard, scope.Timings = opts.shard, timings
	return scope
}

// changeScope is how `run` and `list` scope by the change: with nothing changed against the base
// every gate runs, and a CI push is scoped to the pushed range the CI names (a pull request to its
// base), unless --base, --all or gate names say otherwise.
func changeScope(ios *IOStreams, names []string, all bool, base string) engine.Scope {
	scope := engine.Scope{Names: names, All: all, Base: base, CI: ios.IsCI(), AllWhenUnchanged: true}
	if base == "" && !all && len(names) == 0 {
		push := cipush.FromEnv(ios.Getenv)
		scope.Pushed, scope.PullRequest, scope.Unscoped = push.Before, push.PullRequest, push.NoRange
	}
	return scope
}

// runOutputs are where run writes: the terminal view goes to stdout unless stdout carries a
// machine report.
type runOutputs struct {
	view, stdout                io.Writer
	tty, colored                bool
	stdoutFormat                report.Format
	anyToStdout, reportToStdout bool
}

func runOutputsFor(ios *IOStreams, opts *runOptions) runOutputs {
	out := runOutputs{view: ios.Out, tty: ios.StdoutTTY}
	out.stdoutFormat, out.anyToStdout = report.StdoutFormat(opts.outputs)
	out.reportToStdout = out.anyToStdout && !out.stdoutFormat.OnTerminal()
	if out.reportToStdout {
		out.view, out.tty = ios.ErrOut, ios.StderrTTY
	}
	out.colored = ios.ColorEnabled(opts.color, out.tty)
	// Once nobody reads the view, printing stops but the run goes on to its end and its record.
	out.view = &stopOnBrokenPipe{w: out.view}
	out.stdout = out.view
	if out.reportToStdout {
		out.stdout = &stopOnBrokenPipe{w: ios.Out}
	}
	return out
}

// reportLeftovers names the processes of an earlier, killed run that this run had to kill.
func reportLeftovers(stderr io.Writer, run *engine.Run) {
	if run != nil && run.Leftovers > 0 {
		fmt.Fprintf(stderr, "gauntlet: killed %s left running by run %s, which was killed before it could stop its gates\n",
			termtext.Count(run.Leftovers, "process"), run.LeftoversOf)
	}
}

// reportRunErrors says what the run could not check or keep but went on without.
func reportRunErrors(stderr io.Writer, run *engine.Run) {
	if run.IntegrityErr != nil {
		fmt.Fprintf(stderr, "gauntlet: %v\n", run.IntegrityErr)
	}
	if run.CacheErr != nil {
		fmt.Fprintf(stderr, "gauntlet: %v\n", run.CacheErr)
	}
}

// writeRunResults writes the summary, the annotations, the step summary and the reports, and
// returns what could not be written: gauntlet's own problem.
func writeRunResults(ios *IOStreams, opts *runOptions, cfg *config.Config, out runOutputs, run *engine.Run, interrupted bool) error {
	// Annotations belong on the terminal under GitHub Actions (its log reads them), whatever
	// the report formats and wherever they go; elsewhere only when the github format goes to stdout.
	onActions := ios.OnGitHubActions()
	annotate := onActions || out.anyToStdout && out.stdoutFormat == report.FormatGitHub
	var ioErr error
	if anyHTML(opts.outputs) {
		run.Report.Origin = runOrigin(context.Background(), cfg)
	}
	if werr := report.WriteText(out.view, run.Report, summaryOptions(cfg, out, run, interrupted, annotate)); werr != nil {
		ioErr = errors.Join(ioErr, fmt.Errorf("write summary: %w", werr))
	}
	if annotate {
		if werr := report.WriteGitHub(out.view, run.Report); werr != nil {
			ioErr = errors.Join(ioErr, fmt.Errorf("write GitHub annotations: %w", werr))
		}
	}
	if onActions {
		if werr := appendStepSummary(ios, run.Report); werr != nil {
			fmt.Fprintf(ios.ErrOut, "gauntlet: %s\n", werr)
		}
	}
	if werr := report.WriteOutputs(out.stdout, opts.outputs, run.Report); werr != nil {
		ioErr = errors.Join(ioErr, werr)
	}
	return ioErr
}

// anyHTML says whether a page is among the reports: only a page names the run's origin, which
// costs three calls of git.
func anyHTML(outs []report.Output) bool {
	for _, o := range outs {
		if o.Format == report.FormatHTML {
			return true
		}
	}
	return false
}

// summaryOptions are how the terminal summary is written.
func summaryOptions(cfg *config.Config, out runOutputs, run *engine.Run, interrupted, annotate bool) report.TextOptions {
	// The view showed every gate's end already, as a finish line or in the live block left on
	// screen: the summary does not list them again. Under GitHub Actions the table stays, beside
	// the annotations and the step summary that read it.
	text := report.TextOptions{Color: out.colored, Interrupted: interrupted, ByStatus: !annotate}
	if cfg.FailFast {
		text.FirstFailure = run.FirstFailure
	}
	if annotate {
		// The annotations fold each gate's output into a group; printed here too, every output
		// would appear twice in the log.
		text.TailLines = -1
	}
	return text
}

// runExit is run's outcome. What could not be written (the summary, the report, the run's
// record) makes the exit code an error only when no gate failed: fail wins over error.
func runExit(stderr io.Writer, verdict gates.Verdict, ioErr error, interrupted bool) error {
	if ioErr != nil && verdict != gates.VerdictFail {
		return ioErr
	}
	if ioErr != nil {
		fmt.Fprintf(stderr, "gauntlet: %v\n", ioErr)
	}
	if interrupted {
		return errInterruptedShown
	}
	return &verdictExit{verdict}
}

// noteAboveProgress writes a line of gauntlet's own above the live view's block while one is
// redrawn (a line beside it would throw the redraw a row off), else on stderr.
func noteAboveProgress(progress *report.Progress, stderr io.Writer) func(string) {
	return func(line string) {
		if !progress.Note(line) {
			fmt.Fprintln(stderr, line)
		}
	}
}

// applyOverrides lets flags win over the config. --timeout replaces the default timeout only for
// gates that did not set their own.
func applyOverrides(cfg *config.Config, opts *runOptions) {
	if opts.jobsSet {
		cfg.Jobs = opts.jobs
	}
	if opts.failFastSet {
		cfg.FailFast = opts.failFast
	}
	if opts.timeoutSet {
		cfg.SetDefaultTimeout(opts.timeout)
	}
}

func appendStepSummary(ios *IOStreams, r report.Report) error {
	path := ios.Getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("GitHub step summary: %w", err)
	}
	if err := report.StepSummary(f, r); err != nil {
		f.Close()
		return fmt.Errorf("GitHub step summary: %w", err)
	}
	return f.Close()
}

// forwardSignals turns the first Ctrl-C (or SIGTERM) into a graceful stop of every gate and the
// second into an immediate kill. The returned func ends the watcher; nothing outlives the run.
func forwardSignals(cancel context.CancelCauseFunc, abort chan<- struct{}, note func(string)) func() {
	sigs := make(chan os.Signal, 2)
	// SIGHUP: a closed terminal or SSH session stops the gates like Ctrl-C, not gauntlet alone.
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		select {
		case <-sigs:
			note("gauntlet: interrupted; stopping gates (interrupt again to kill them now)")
			cancel(errInterrupted)
		case <-done:
			return
		}
		select {
		case <-sigs:
			close(abort)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(sigs)
		select {
		case <-done:
		default:
			close(done)
		}
		<-finished
	}
}

// stopOnBrokenPipe passes writes on until the reader has gone (EPIPE), then swallows them: the
// run must still finish and be recorded when its output has nowhere to go.
type stopOnBrokenPipe struct {
	w      io.Writer
	broken bool
}

// Unwrap names the writer underneath, so that the live view finds its terminal's width.
func (s *stopOnBrokenPipe) Unwrap() io.Writer { return s.w }

func (s *stopOnBrokenPipe) Write(p []byte) (int, error) {
	if s.broken {
		return len(p), nil
	}
	n, err := s.w.Write(p)
	if isBrokenPipe(err) {
		s.broken = true
		return len(p), nil
	}
	return n, err
}

// newOnlyCounts is which failures fail a run: with --new-only, only regressions (a failure the
// base has too, or a flaky test, is reported and does not fail it); else every one.
func newOnlyCounts(newOnly bool) func(gates.Blame) bool {
	if !newOnly {
		return nil
	}
	return func(b gates.Blame) bool { return b.Blocks(false) }
}
