package stophook

import (
	"errors"
	"fmt"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/policy"
	"github.com/gauntlet-dev/gauntlet/lock"
)

// judgeUnlocked notes that the stop is judged without the run lock, which something held past
// lock_wait (or which could not be taken at all): the verdict policy does not let a lock held by
// anything, the agent's own shell included, be a reason to stop unjudged (policy.Lock). The run in
// progress, if it is one, keeps its record and its processes (engine.Request.Unlocked), and only
// its holder shares a verdict. A holder that is not gauntlet is named in the reply (d's notes);
// another gauntlet run (on another state: one on this state is joined) is said on stderr. Both go
// to the history.
func (c *call) judgeUnlocked(cfg *config.Config, l policy.Lock, d policy.Decision) {
	fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: %s; waited %s (stop_hook.lock_wait), judging without the run lock\n",
		l.Err, min(cfg.StopHook.LockWait, cfg.StopHook.Timeout))
	c.note(d.ReplyNote, d.KeptNote)
}

// lockEvidence is what the policy is told of a lock that was not taken: err, whether this call
// waited for a hook judging this very state (awaited), and whether its time ran out.
func lockEvidence(err error, awaited, expired bool) policy.Lock {
	l := policy.Lock{Err: lowerFirst(oneLine(err.Error())), Awaited: awaited, Expired: expired}
	var busy *lock.BusyError
	if errors.As(err, &busy) {
		l.Busy, l.Foreign = true, busy.Foreign != ""
	}
	return l
}
