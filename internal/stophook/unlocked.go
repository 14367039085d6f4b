package stophook

import (
	"errors"
	"fmt"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/lock"
)

// judgeUnlocked notes that the stop is judged without the run lock, which something held past
// lock_wait (or which could not be taken at all). Letting the agent stop then would make the
// lock the cheapest allow there is: `flock .gauntlet/lock sleep 1d` from the agent's shell. So
// the gates run anyway; the run in progress, if it is one, keeps its record and its processes
// (engine.Request.Unlocked), and only its holder shares a verdict. A holder that is not gauntlet
// is named in the reply; another gauntlet run (on another state: one on this state is joined) is
// said on stderr. Both go to the history.
func (c *call) judgeUnlocked(cfg *config.Config, err error) {
	why := lowerFirst(oneLine(err.Error()))
	fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: %s; waited %s (stop_hook.lock_wait), judging without the run lock\n",
		why, min(cfg.StopHook.LockWait, cfg.StopHook.Timeout))
	var busy *lock.BusyError
	reply := ""
	if !errors.As(err, &busy) || busy.Foreign != "" {
		reply = why + ": the gates were judged without it"
	}
	c.note(reply, "judged without the run lock: "+why)
}
