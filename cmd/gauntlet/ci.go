package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/engine"
	"github.com/gauntlet-dev/gauntlet/internal/shard"
)

func newCICmd(ios *IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ci",
		Short: "Helpers for CI systems (the matrix of a sharded run)",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newCIMatrixCmd(ios, nil))
	return cmd
}

type matrixOptions struct {
	IO         *IOStreams
	configFile string
	shards     int
	maxMinutes float64
	timings    string
}

// matrixEntry is one shard in the include list: what a job name or a step may want to show.
type matrixEntry struct {
	Shard      string `json:"shard"`
	Gates      string `json:"gates"`       // space-separated, in config order
	EstimateMS int64  `json:"estimate_ms"` // the shard's planned time, from the timings
}

type matrix struct {
	Shard   []string      `json:"shard"`
	Include []matrixEntry `json:"include"`
}

func newCIMatrixCmd(ios *IOStreams, runF func(*matrixOptions) error) *cobra.Command {
	opts := &matrixOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "matrix (--shards N | --max-minutes M)",
		Short: "Print a GitHub Actions strategy.matrix that splits the gates into shards",
		Long: `Print, on one line, the JSON a GitHub Actions strategy.matrix takes through fromJSON:
  {"shard":["1/3","2/3","3/3"],"include":[{"shard":"1/3","gates":"lint vet","estimate_ms":61000},...]}
Each job runs: gauntlet run --shard ${{ matrix.shard }}

--shards N splits into N shards. --max-minutes M picks the fewest shards whose longest one is
planned to take at most M minutes, from the recorded gate durations (--timings FILE, else
those of the last unsharded run); at most 256 shards and one per gate that can run.`,
		Args: cobra.NoArgs,
		RunE: runE(func(cmd *cobra.Command, _ []string) error {
			flags := cmd.Flags()
			bySize, byTime := flags.Changed("shards"), flags.Changed("max-minutes")
			switch {
			case bySize == byTime:
				return usagef("give exactly one of --shards N and --max-minutes M")
			case bySize && (opts.shards < 1 || opts.shards > shard.MaxShards):
				return usagef("--shards must be between 1 and %d, got %d", shard.MaxShards, opts.shards)
			case byTime && !(opts.maxMinutes > 0):
				return usagef("--max-minutes must be positive, got %v", opts.maxMinutes)
			}
			if runF != nil {
				return runF(opts)
			}
			return printMatrix(opts)
		}),
	}
	f := cmd.Flags()
	f.StringVarP(&opts.configFile, "config", "c", "", "use this config file instead of searching for .gauntlet.yml")
	f.IntVar(&opts.shards, "shards", 0, "split into N shards")
	f.Float64Var(&opts.maxMinutes, "max-minutes", 0, "use the fewest shards whose longest is planned to fit M minutes")
	f.StringVar(&opts.timings, "timings", "", "gate durations: a JSON report or a {\"gate\": ms} object (default: the last unsharded run's)")
	return cmd
}

func printMatrix(opts *matrixOptions) error {
	ios := opts.IO
	cfg, err := loadConfig(ios, opts.configFile)
	if err != nil {
		return err
	}
	timings, err := loadTimings(ios.ErrOut, opts.timings, cfg.Root)
	if err != nil {
		return err
	}
	ci := ios.IsCI()
	var plan shard.Plan
	if opts.shards > 0 {
		plan = engine.ShardPlan(cfg, ci, timings, opts.shards)
	} else {
		budget := time.Duration(opts.maxMinutes * float64(time.Minute))
		plan, err = fitBudget(ios, cfg, ci, timings, budget)
		if err != nil {
			return err
		}
	}

	n := len(plan.Shards)
	m := matrix{Shard: make([]string, n), Include: make([]matrixEntry, n)}
	for i, gs := range plan.Shards {
		spec := shard.Spec{K: i + 1, N: n}.String()
		m.Shard[i] = spec
		m.Include[i] = matrixEntry{Shard: spec, Gates: strings.Join(gs, " "), EstimateMS: plan.Loads[i].Milliseconds()}
	}
	// One line: it goes into $GITHUB_OUTPUT as matrix=<json>.
	data, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("encode matrix: %w", err)
	}
	_, err = fmt.Fprintf(ios.Out, "%s\n", data)
	return err
}

// fitBudget finds the fewest shards whose longest fits the budget. More shards than gates that
// can run only adds idle machines, so that is the cap; when even then the longest gate alone is
// over budget, it says so on stderr and uses the cap.
func fitBudget(ios *IOStreams, cfg *config.Config, ci bool, timings shard.Timings, budget time.Duration) (shard.Plan, error) {
	one := engine.ShardPlan(cfg, ci, timings, 1)
	active := 0
	for _, d := range one.Estimate {
		if d > 0 {
			active++
		}
	}
	if active > 0 && len(one.Unknown) == active {
		return shard.Plan{}, usagef("--max-minutes needs recorded gate durations: none of the gates is in the timings (give --timings FILE: a JSON report of an earlier run)")
	}
	limit := min(max(active, 1), shard.MaxShards)
	var plan shard.Plan
	for n := 1; n <= limit; n++ {
		plan = engine.ShardPlan(cfg, ci, timings, n)
		if plan.Longest() <= budget {
			return plan, nil
		}
	}
	fmt.Fprintf(ios.ErrOut, "gauntlet: no split fits %s: with %d shards the longest is planned at %s\n",
		budget, limit, plan.Longest().Round(time.Second))
	return plan, nil
}
