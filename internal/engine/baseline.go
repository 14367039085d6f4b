package engine

import (
	"context"
	"os"
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/remotecache"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/lock"
	"github.com/gauntlet-dev/gauntlet/runner"
)

// BaselineRequest is one run of gates for a baseline: everything they report, kept whole.
type BaselineRequest struct {
	Config   *config.Config
	Gates    []gates.Gate
	LockWait time.Duration
	Env      []string // nil: os.Environ()
	Abort    <-chan struct{}
}

// BaselineGate is what one gate reported.
type BaselineGate struct {
	Result   gates.Result
	Findings []gates.Finding
	// Complete is false when the gate reported more findings than a baseline keeps.
	Complete bool
}

// RecordBaseline runs gates on the tree as it is, under the run lock, and returns every finding
// each reported (new_only and the per-gate cache aside: a baseline is all of it).
func RecordBaseline(ctx context.Context, req BaselineRequest) ([]BaselineGate, error) {
	cfg := req.Config
	sd, err := state.Open(cfg.Root)
	if err != nil {
		return nil, &StateError{err}
	}
	defer sd.Close()
	held, err := lock.AcquireFor(ctx, sd.Path(), req.LockWait, lock.Purpose{Kind: lock.KindBaseline})
	if err != nil {
		return nil, err
	}
	defer held.Release()

	runID := state.NewRunID(time.Now())
	logs, logPrefix, err := sd.NewRunLogs(runID)
	if err != nil {
		return nil, &StateError{err}
	}
	defer logs.Close()
	if err := startBaselineRun(sd, cfg.KeepRuns, runID); err != nil {
		return nil, err
	}
	defer clearRunning(sd)

	env := req.Env
	if env == nil {
		env = os.Environ()
	}
	secrets := cfg.Redactor(env)
	env = remotecache.WithoutSigningKey(env)
	gs := make([]gates.Gate, len(req.Gates))
	for i, g := range req.Gates {
		g.NewOnly, g.Cache = false, false
		gs[i] = g
	}
	readers, collectors := collectReaders(cfg.Root, env, gs)
	ran := runner.Run(ctx, gs, runner.Options{
		RunID: runID, Root: cfg.Root, Logs: logs, LogPrefix: logPrefix, Jobs: cfg.Jobs,
		Env: env, Abort: req.Abort, Readers: readers,
	})
	out := make([]BaselineGate, len(ran))
	for i, r := range ran {
		c := collectors[r.Name]
		// The baseline is committed: findings go through the same redaction as a report's.
		clean := sanitizeResult(gates.Result{Findings: c.findings}, secrets)
		out[i] = BaselineGate{Result: sanitizeResult(r, secrets), Findings: clean.Findings, Complete: c.complete}
	}
	return out, nil
}

// startBaselineRun does what every run does before its gates, under the lock: older runs' logs
// pruned, a killed run's leftovers killed, this run marked as running (the caller clears it).
func startBaselineRun(sd *state.Dir, keepRuns int, runID string) error {
	if err := sd.PruneRuns(keepRuns, runID); err != nil {
		return &StateError{err}
	}
	if _, _, err := KillLeftovers(sd); err != nil {
		return &StateError{err}
	}
	if err := markRunning(sd, runID); err != nil {
		return &StateError{err}
	}
	return nil
}
