package engine

import (
	"github.com/gauntlet-dev/gauntlet/internal/state"
)

// openState is the run's state directory: the caller's (Request.State), which the caller closes,
// or the project's own .gauntlet.
func openState(req Request) (*state.Dir, func(), error) {
	if req.State != nil {
		return req.State, func() {}, nil
	}
	sd, err := state.Open(req.Config.Root)
	if err != nil {
		return nil, nil, err
	}
	return sd, func() { sd.Close() }, nil
}

// claimRun makes runID the run in progress, after killing what a dead run left running, and
// returns what ends the claim. A run without the lock (Request.Unlocked) claims nothing: the run
// recorded as in progress is the live holder's, and its gates are no leftovers.
func claimRun(sd *state.Dir, runID string, unlocked bool) (deadRun string, leftovers int, done func(), err error) {
	if unlocked {
		return "", 0, func() {}, nil
	}
	deadRun, leftovers, err = KillLeftovers(sd)
	if err != nil {
		return "", 0, nil, err
	}
	if err := markRunning(sd, runID); err != nil {
		return "", 0, nil, err
	}
	return deadRun, leftovers, func() { clearRunning(sd) }, nil
}
