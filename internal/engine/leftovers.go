package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/gauntlet-dev/gauntlet/internal/proc"
	"github.com/gauntlet-dev/gauntlet/internal/state"
)

// RunningFile records the run in progress, relative to the state dir. A run killed with SIGKILL
// cannot stop its gates; the next run (or `gauntlet clean`), once it holds the lock and so knows
// that run is dead, finds the record still there and kills what is left.
const RunningFile = "state/running.json"

type runningRecord struct {
	RunID string `json:"run_id"`
	PID   int    `json:"pid"`
}

// markRunning records runID as the run in progress.
func markRunning(sd *state.Dir, runID string) error {
	data, err := json.Marshal(runningRecord{RunID: runID, PID: os.Getpid()})
	if err != nil {
		return err
	}
	return sd.WriteFileAtomic(RunningFile, data)
}

// clearRunning removes the record of a run that ended by itself.
func clearRunning(sd *state.Dir) {
	_ = sd.RemoveAll(RunningFile)
}

// MayHaveLeftovers reports whether a run is recorded as in progress: only then can a run have
// died with gates running, and is KillLeftovers worth taking the lock for.
func MayHaveLeftovers(sd *state.Dir) bool { return sd.Exists(RunningFile) }

// KillLeftovers kills the processes a dead run left behind and forgets that run; the caller
// holds the lock. The processes are recognised by the run's GAUNTLET_RUN_ID in their
// environment (Linux: /proc), so a pid reused by anyone else is never touched. It returns the
// dead run's id and how many processes were killed ("" and 0 when there was none).
func KillLeftovers(sd *state.Dir) (string, int, error) {
	data, err := sd.ReadFileLimit(RunningFile, 4<<10)
	if errors.Is(err, fs.ErrNotExist) {
		return "", 0, nil
	}
	clearRunning(sd)
	var rec runningRecord
	if err != nil || json.Unmarshal(data, &rec) != nil || rec.RunID == "" {
		return "", 0, nil // an unreadable record names no run to look for
	}
	if !state.ValidRunID(rec.RunID) {
		return "", 0, fmt.Errorf("%s names no run: %q", RunningFile, rec.RunID)
	}
	return rec.RunID, proc.KillMarked("GAUNTLET_RUN_ID=" + rec.RunID), nil
}
