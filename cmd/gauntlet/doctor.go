package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/doctor"
	"github.com/gauntlet-dev/gauntlet/internal/hookfile"
	"github.com/gauntlet-dev/gauntlet/internal/hosts"
	"github.com/gauntlet-dev/gauntlet/internal/report"
	"github.com/gauntlet-dev/gauntlet/internal/stophook"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

type doctorOptions struct {
	IO         *IOStreams
	color      string
	configFile string
	hosts      []string
	json       bool
	noRun      bool
}

func newDoctorCmd(ios *IOStreams, runF func(*doctorOptions) error) *cobra.Command {
	opts := &doctorOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check that the agent hosts really run gauntlet's stop hook, and show what an agent would be told",
		Long: `Check, for each host whose hook file is in the project (or each --host): the config loads,
.gauntlet/ is ignored by git, the host's file has gauntlet's stop hook, its command resolves to
this gauntlet, stop_hook.timeout is below the host's hook timeout, stop_hook.max_attempts is
within the host's own cap, and the host trusts the project (read from the host's own files where
it keeps that; otherwise the step that grants it). Each finding is ok, warn or problem, with the
fix in one line.

Then a dry run: the stop hook judges the project as now, once, with a synthetic payload, and
shows what each host's agent would be told. It counts no attempt and records nothing in the
stop hook's ledger or history; the gates run and write their logs and last-run.json as in any
run. --no-run skips it.

Exit 0 when no finding is a problem, 1 otherwise.`,
		Args: cobra.NoArgs,
		RunE: runE(func(cmd *cobra.Command, _ []string) error {
			if err := checkColor(opts.color); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runDoctor(cmd.Context(), opts)
		}),
	}
	f := cmd.Flags()
	addColorFlag(f, &opts.color)
	f.StringVarP(&opts.configFile, "config", "c", "", "use this config file instead of searching for .gauntlet.yml")
	f.StringSliceVar(&opts.hosts, "host", nil, "check only this host (repeatable): "+hosts.NameList(", "))
	f.BoolVar(&opts.json, "json", false, "print the findings as JSON")
	f.BoolVar(&opts.noRun, "no-run", false, "skip the dry run of the stop hook (which runs the gates)")
	return cmd
}

func runDoctor(ctx context.Context, opts *doctorOptions) error {
	ios := opts.IO
	var names []hosts.Name
	for _, h := range opts.hosts {
		name, ok := hosts.Parse(h)
		if !ok {
			return usagef("--host must be one of %s, got %q", hosts.NameList(", "), h)
		}
		names = append(names, name)
	}
	wd, err := ios.Getwd()
	if err != nil {
		return fmt.Errorf("working directory: %w", err)
	}
	env := doctorEnv(ios, wd)
	report, cfg := doctor.Diagnose(ctx, doctor.Options{ConfigFile: opts.configFile, Hosts: names}, env)
	if !opts.noRun {
		if cfg != nil && len(report.Hosts) > 0 {
			// The dry run takes as long as the gates (a minute or more): say so before it starts.
			fmt.Fprintf(ios.ErrOut, "gauntlet doctor: running the stop hook once, which runs the %s (--no-run skips this)\n",
				termtext.Count(len(cfg.Gates), "gate"))
		}
		report.DryRuns = doctor.DryRuns(ctx, cfg, report.Hosts, doctor.DryEnv{Getenv: ios.Getenv, Environ: ios.Environ(), Stderr: ios.ErrOut})
	}
	if opts.json {
		enc := json.NewEncoder(ios.Out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(report); err != nil {
			return err
		}
	} else {
		writeDoctor(ios.Out, report, ios.ColorEnabled(opts.color, ios.StdoutTTY))
	}
	if report.Problems > 0 {
		return &verdictExit{gates.VerdictFail}
	}
	return nil
}

func doctorEnv(ios *IOStreams, wd string) doctor.Env {
	home := ios.Getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return doctor.Env{Dir: wd, Home: home, Getenv: ios.Getenv, Resolver: hookfile.SystemResolver(), Version: versionLine(),
		StopHookArgs: func(args []string) (string, error) { return stopHookArgs(ios, args) }}
}

// stopHookArgs parses a hook command's arguments after `stop-hook` with stop-hook's own flags,
// so that doctor accepts exactly what stop-hook would run with (--help among the refused: it
// would print help instead of a reply).
func stopHookArgs(ios *IOStreams, args []string) (string, error) {
	cmd := newStopHookCmd(ios, nil)
	if err := cmd.ParseFlags(args); err != nil {
		return "", err
	}
	if err := cmd.ValidateArgs(cmd.Flags().Args()); err != nil {
		return "", err
	}
	host, err := cmd.Flags().GetString("host")
	if err != nil {
		return "", err
	}
	if _, ok := stophook.ParseHost(host); !ok {
		return "", fmt.Errorf("--host must be auto, %s, got %q", hosts.NameList(", "), host)
	}
	return host, nil
}

func versionLine() string {
	v, c := versionInfo()
	if c != "" && strings.HasPrefix(v, c) {
		// A tagless clone's build: its version is its commit, said once.
		return fmt.Sprintf("gauntlet %s (%s %s/%s)", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	}
	return fmt.Sprintf("gauntlet %s (commit %s, %s %s/%s)", v, c, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func writeDoctor(w io.Writer, r *doctor.Report, colored bool) {
	fmt.Fprintf(w, "gauntlet doctor in %s\n\n", r.Root)
	writeChecks(w, r.Checks, colored)
	for i, d := range r.DryRuns {
		if i == 0 {
			fmt.Fprintf(w, "\nDry run: what the agent is told on stopping now (no attempt counted, nothing recorded)\n")
		}
		reply := strings.TrimSpace(d.Stdout)
		if reply == "" {
			reply = "(empty reply)"
		}
		fmt.Fprintf(w, "  %-8s %s: %s\n", d.Host, d.Decision, termtext.Short(reply, 100))
	}
	if n := len(r.DryRuns); n > 0 && r.DryRuns[0].Told != "" {
		fmt.Fprintf(w, "\n")
		for line := range strings.SplitSeq(strings.TrimRight(r.DryRuns[0].Told, "\n"), "\n") {
			fmt.Fprintf(w, "  | %s\n", line)
		}
	}
	fmt.Fprintf(w, "\n%s, %s\n", termtext.Count(r.Problems, "problem"), termtext.Count(r.Warnings, "warning"))
}

// writeChecks prints one line per check, its fix on the next, the messages in one column as wide
// as the longest check's name ("claude after-edit").
func writeChecks(w io.Writer, checks []doctor.Check, colored bool) {
	subject := func(c doctor.Check) string {
		if c.Host != "" {
			return string(c.Host) + " " + c.Name
		}
		return c.Name
	}
	width := 16
	for _, c := range checks {
		width = max(width, len(subject(c)))
	}
	for _, c := range checks {
		fmt.Fprintf(w, "%s %-*s %s\n", paintLevel(fmt.Sprintf("%-8s", c.Level), c.Level, colored), width, subject(c), c.Message)
		if c.Fix != "" {
			fmt.Fprintf(w, "%-8s %-*s fix: %s\n", "", width, "", c.Fix)
		}
	}
}

// printInitChecks ends init with doctor's checks for the host it installed, without the dry
// run (which would run every gate): a hook the host will skip must not look installed.
func printInitChecks(ctx context.Context, env initEnv, host hosts.Name) {
	denv := doctorEnv(env.ios, env.dir)
	denv.Resolver = env.resolver
	r, _ := doctor.Diagnose(ctx, doctor.Options{Hosts: []hosts.Name{host}}, denv)
	fmt.Fprintf(env.out, "\nChecks (gauntlet doctor --host %s):\n", host)
	writeChecks(env.out, r.Checks, false)
	if r.Problems > 0 {
		fmt.Fprintf(env.out, "%s: fix before relying on the hook\n", termtext.Count(r.Problems, "problem"))
	}
}

// levelStatus colours a check's level as the status it is like: ok as a pass, warn as a
// warning, problem as a failure.
var levelStatus = map[doctor.Level]gates.Status{doctor.OK: gates.StatusPass, doctor.Warn: gates.StatusWarn, doctor.Problem: gates.StatusFail}

// paintLevel colours a check's padded level when colored.
func paintLevel(padded string, level doctor.Level, colored bool) string {
	return report.PaintStatus(padded, levelStatus[level], colored)
}
