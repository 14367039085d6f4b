package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/engine"
	"github.com/gauntlet-dev/gauntlet/internal/report"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/internal/stophook"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
	"github.com/gauntlet-dev/gauntlet/lock"
)

type statusOptions struct {
	IO         *IOStreams
	color      string
	configFile string
	json       bool
	// html is where --html writes the history page: "-" is stdout, "" means no page.
	html string
}

func newStatusCmd(ios *IOStreams, runF func(*statusOptions) error) *cobra.Command {
	opts := &statusOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show the last run: its verdict and each gate's status, duration and log",
		Long: `Show the last run recorded in .gauntlet/last-run.json, as the summary of gauntlet run
showed it. --json prints the stored report as it is.

While something holds the run lock (a run, the stop hook, its background judge, fix, clean,
baseline), status says so first in one line: what, its pid, since when, its gates; or which
holder ended without releasing it (killed, or it crashed). The lock is not taken to look:
--json adds the same as run_lock.

When the stop hook has made decisions (.gauntlet/state/history.jsonl), status first names every
agent it let go with gates still failing (retry limit, gates not run) that has not passed since,
then its last decisions; --json adds them to the report as stop_hook_history and
stop_hook_released.

--html[=FILE] draws the history of runs and stops as one self-contained HTML page instead, into
.gauntlet/history.html (its path printed), into FILE, or to stdout with --html=-: runs per day
and the last runs with what failed, stop-hook decisions per day, the gates that blocked most,
each gate's durations and results, flaky gates and the agents let go with gates failing.

The exit code does not reflect the last verdict: it is 0 whenever the report could be read,
and also when there is no run yet (a message on stderr says so).`,
		Args: cobra.NoArgs,
		RunE: runE(func(*cobra.Command, []string) error {
			if err := checkColor(opts.color); err != nil {
				return err
			}
			if opts.json && opts.html != "" {
				return usagef("--json and --html each print something else; give one")
			}
			if runF != nil {
				return runF(opts)
			}
			return showStatus(opts)
		}),
	}
	f := cmd.Flags()
	addColorFlag(f, &opts.color)
	f.StringVarP(&opts.configFile, "config", "c", "", "the project of this config file instead of searching for .gauntlet.yml")
	f.BoolVar(&opts.json, "json", false, "print the stored JSON report")
	f.StringVar(&opts.html, "html", "", "draw the history of runs and stops as an HTML page, into .gauntlet/, into `FILE` (--html=FILE), or to stdout (--html=-)")
	f.Lookup("html").NoOptDefVal = historyPageDefault
	return cmd
}

func showStatus(opts *statusOptions) error {
	ios := opts.IO
	now := ios.Now()
	root, err := statusRoot(ios, opts.configFile)
	if err != nil {
		return err
	}
	history := readHookHistory(root, ios.ErrOut)
	if opts.html != "" {
		return writeHistoryPage(ios, opts.html, root, history, now)
	}
	// Looked at without taking the lock: a run starting now must not find it busy.
	held := lock.Probe(filepath.Join(root, state.Name))
	colored := ios.ColorEnabled(opts.color, ios.StdoutTTY)
	data, err := readLastRun(root, ios.ErrOut)
	if errors.Is(err, fs.ErrNotExist) {
		return showStatusWithoutRun(ios, opts.json, colored, root, history, held, now)
	}
	if err != nil {
		return err
	}
	r, err := report.ReadJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("last run %s: %w", config.DisplayPath(filepath.Join(root, state.Name, engine.LastRunFile)), err)
	}
	if opts.json {
		if extras := statusExtras(history, held); len(extras) > 0 {
			return writeStatusJSON(ios.Out, data, extras...)
		}
		_, err := ios.Out.Write(data)
		return err
	}
	if err := writeStatusTop(ios.Out, history, held, now, colored); err != nil {
		return err
	}
	if err := writeRunHeader(ios.Out, r, now); err != nil {
		return err
	}
	return report.WriteText(ios.Out, r, report.TextOptions{Color: colored})
}

// statusExtras are the objects whose fields status --json adds to the report: the lock's
// holder and the stop hook's history, each when there is something to say.
func statusExtras(history stophook.History, held lock.Activity) []any {
	var extras []any
	if j := lockJSON(held); j != nil {
		extras = append(extras, struct {
			RunLock *runLockJSON `json:"run_lock"`
		}{j})
	}
	if shown(history) {
		extras = append(extras, historyJSON(history))
	}
	return extras
}

// writeStatusTop is what status shows above the last run: the lock's holder in one line, then
// the stop hook's history, each when there is something to say, each followed by a blank line.
func writeStatusTop(w io.Writer, history stophook.History, held lock.Activity, now time.Time, colored bool) error {
	if line := describeLock(held, now); line != "" {
		if _, err := fmt.Fprintf(w, "%s\n\n", line); err != nil {
			return err
		}
	}
	if !shown(history) {
		return nil
	}
	if err := writeHistory(w, history, now, colored); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w)
	return err
}

// showStatusWithoutRun shows what holds the lock and the stop hook's history, when there is
// something to show, in a project with no run recorded, and says that none is.
func showStatusWithoutRun(ios *IOStreams, asJSON, colored bool, root string, history stophook.History, held lock.Activity, now time.Time) error {
	var err error
	switch extras := statusExtras(history, held); {
	case asJSON && len(extras) > 0:
		err = writeStatusJSON(ios.Out, []byte("{}"), extras...)
	case !asJSON && shown(history):
		if line := describeLock(held, now); line != "" {
			_, err = fmt.Fprintf(ios.Out, "%s\n\n", line)
		}
		if err == nil {
			err = writeHistory(ios.Out, history, now, colored)
		}
	case !asJSON:
		if line := describeLock(held, now); line != "" {
			_, err = fmt.Fprintln(ios.Out, line)
		}
	}
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(ios.ErrOut, "gauntlet: no run recorded yet in %s (gauntlet run records one)\n",
		config.DisplayPath(filepath.Join(root, state.Name)))
	return err
}

// statusRoot is the project status is about: the config's, else (in a git repository without one)
// the repository, when the stop hook recorded its stops there in the user's state directory.
func statusRoot(ios *IOStreams, configFile string) (string, error) {
	root, err := projectRoot(ios, configFile)
	if !errors.Is(err, config.ErrNotFound) || configFile != "" {
		return root, err
	}
	wd, werr := ios.Getwd()
	if werr != nil {
		return "", err
	}
	repo := stophook.RepoRoot(wd)
	if repo == "" {
		return "", err
	}
	if _, kept, _ := stophook.ReadKeptHistory(filepath.Join(repo, state.Name)); !kept {
		return "", err
	}
	return repo, nil
}

// readLastRun reads the stored report without creating .gauntlet/ when there is none: looking
// must not change the project. When .gauntlet is there but cannot be used, the report of the run
// the stop hook kept in the user's state directory stands in, said on stderr.
func readLastRun(root string, stderr io.Writer) ([]byte, error) {
	stateDir := filepath.Join(root, state.Name)
	if _, err := os.Lstat(stateDir); err != nil {
		return nil, fmt.Errorf("state dir: %w", err)
	}
	sd, err := state.Open(root)
	if err != nil {
		kept, kerr := stophook.OpenKeptState(stateDir)
		if kept == nil || kerr != nil {
			return nil, err
		}
		fmt.Fprintf(stderr, "gauntlet: %v; showing the last run kept in %s\n", err, kept.Path())
		sd = kept
	}
	defer sd.Close()
	return sd.ReadFile(engine.LastRunFile)
}

func writeRunHeader(w io.Writer, r report.Report, now time.Time) error {
	when := r.StartedAt
	if started, err := time.Parse(time.RFC3339, r.StartedAt); err == nil {
		when = fmt.Sprintf("%s (%s)", started.Local().Format("2006-01-02 15:04:05 MST"), ago(now.Sub(started)))
	}
	_, err := fmt.Fprintf(w, "last run %s, started %s, took %s\n\n", r.RunID, when, report.FormatDuration(r.Duration()))
	return err
}

// ago phrases an age at the precision a reader wants: seconds for a run just finished, days for
// one from last week.
func ago(d time.Duration) string {
	switch {
	case d < 0:
		return "in the future; is the clock right?"
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%s ago", termtext.Count(int(d/time.Minute), "minute"))
	case d < 48*time.Hour:
		return fmt.Sprintf("%s ago", termtext.Count(int(d/time.Hour), "hour"))
	default:
		return fmt.Sprintf("%s ago", termtext.Count(int(d/(24*time.Hour)), "day"))
	}
}
