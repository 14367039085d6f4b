package main

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/gauntlet-dev/gauntlet/internal/report"
	"github.com/gauntlet-dev/gauntlet/internal/shard"
)

// maxMergeInputBytes bounds each report read by `report merge`, as report.ReadJSON does.
const maxMergeInputBytes = 64 << 20

func newReportCmd(ios *IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "report",
		Short: "Work with JSON reports of earlier runs (merge the reports of shards)",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newReportMergeCmd(ios, nil))
	return cmd
}

// mergeOptions are report merge's command line and its surroundings.
type mergeOptions struct {
	IO         *IOStreams
	files      []string
	outputs    []report.Output
	color      string
	configFile string
}

func newReportMergeCmd(ios *IOStreams, runF func(*mergeOptions) error) *cobra.Command {
	opts := &mergeOptions{IO: ios}
	var (
		formats []string
		output  string
	)
	cmd := &cobra.Command{
		Use:   "merge FILE...",
		Short: "Combine the JSON reports of shards into one verdict and report",
		Long: `Combine the JSON reports of the shards of one run (gauntlet run --shard K/N --format json)
into one report: every gate once, one verdict by the same rule as a single run, the wall time
from the first start to the last end. It is rendered in --format like a run (repeatable, each
FORMAT or FORMAT=FILE), with run's exit code: 0 pass or warn, 1 fail, 3 error.

Refused with exit 2: reports of different configs, a gate that ran in two reports, a split with
a shard missing or given twice (also beside an unsharded report), a file that is not a gauntlet
JSON report (a gate name the config would refuse among them), and two reports to one
destination. Text read from the reports is cleaned of escape sequences and control characters
before it is shown.`,
		Args: cobra.MinimumNArgs(1),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			opts.files = args
			outs, err := parseOutputs(ios, formats, output)
			if err != nil {
				return err
			}
			opts.outputs = outs
			if !slices.Contains([]string{"auto", "always", "never"}, opts.color) {
				return usagef("--color must be auto, always or never, got %q", opts.color)
			}
			if runF != nil {
				return runF(opts)
			}
			return mergeReports(opts)
		}),
	}
	f := cmd.Flags()
	addOutputFlags(f, &formats, &output)
	f.StringVar(&opts.color, "color", "auto", "colour the output: auto, always or never (NO_COLOR is honoured by auto)")
	f.StringVarP(&opts.configFile, "config", "c", "", "order the gates as this config does (default: the config found here, when the reports ran it)")
	return cmd
}

func mergeReports(opts *mergeOptions) error {
	ios := opts.IO
	inputs, err := readMergeInputs(opts.files)
	if err != nil {
		return err
	}
	order, err := configOrder(ios, opts.configFile, inputs[0].Report.ConfigDigest)
	if err != nil {
		return err
	}
	merged, err := report.Merge(inputs, order)
	if err != nil {
		return err
	}

	// As in run: the terminal view goes to stdout unless stdout carries a machine report.
	view, tty := ios.Out, ios.StdoutTTY
	stdoutFormat, anyToStdout := report.StdoutFormat(opts.outputs)
	if anyToStdout && !stdoutFormat.OnTerminal() {
		view, tty = ios.ErrOut, ios.StderrTTY
	}
	if err := report.WriteText(view, merged, report.TextOptions{Color: ios.ColorEnabled(opts.color, tty)}); err != nil {
		return fmt.Errorf("write summary: %w", err)
	}
	// Unlike run, annotations and the step summary come only with --format github: a merge is
	// always asked for explicitly, and a second merge in the same job (say, to keep the merged
	// JSON as the next run's timings) must not annotate every failure twice.
	if slices.ContainsFunc(opts.outputs, func(o report.Output) bool { return o.Format == report.FormatGitHub }) {
		if anyToStdout && stdoutFormat == report.FormatGitHub {
			if err := report.WriteGitHub(view, merged); err != nil {
				return fmt.Errorf("write GitHub annotations: %w", err)
			}
		}
		if err := appendStepSummary(ios, merged); err != nil {
			fmt.Fprintf(ios.ErrOut, "gauntlet: %s\n", err)
		}
	}
	if err := report.WriteOutputs(ios.Out, opts.outputs, merged); err != nil {
		return err
	}
	return &verdictExit{merged.Verdict}
}

// readMergeInputs reads the shards' JSON reports.
func readMergeInputs(files []string) ([]report.MergeInput, error) {
	inputs := make([]report.MergeInput, 0, len(files))
	for _, file := range files {
		data, err := shard.ReadFile(file, maxMergeInputBytes)
		if err != nil {
			return nil, usagef("report %s: %v", file, err)
		}
		r, err := report.ReadJSON(bytes.NewReader(data))
		if err != nil {
			return nil, usagef("report %s: %v", file, err)
		}
		inputs = append(inputs, report.MergeInput{Source: file, Report: r})
	}
	return inputs, nil
}

// configOrder is the gate order of the config, when one can be loaded and the reports ran it;
// otherwise nil, and the merged report orders gates by name. A merge on a machine without the
// checkout is normal, so only a -c FILE that cannot be loaded is an error.
func configOrder(ios *IOStreams, file, digest string) ([]string, error) {
	cfg, err := loadConfig(ios, file)
	if err != nil {
		if file != "" {
			return nil, err
		}
		return nil, nil
	}
	if cfg.ContentDigest != digest {
		return nil, nil
	}
	names := make([]string, len(cfg.Gates))
	for i, g := range cfg.Gates {
		names[i] = g.Name
	}
	return names, nil
}
