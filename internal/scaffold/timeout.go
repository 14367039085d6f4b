package scaffold

import (
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
)

// HookDeadline is the stop hook's deadline that fits the gates written.
type HookDeadline struct {
	Timeout time.Duration // stop_hook.timeout
	Raised  bool          // above the default, and so written in the config
	Slowest Gate          // the gate with the longest timeout
}

// hookMargin is the time the stop hook needs beyond its slowest gate: to start, to stop the
// gates' processes and to answer the host.
const hookMargin = time.Minute

// StopHookTimeout checks the stop hook's default deadline against the slowest gate: a gate whose
// timeout is longer would be killed by the hook's deadline on a cold first run and reported as
// timed out. Gates run in parallel, so the slowest one, not the sum, sets the deadline.
func StopHookTimeout(gates []Gate) HookDeadline {
	d := HookDeadline{Timeout: config.DefaultStopHookTimeout}
	for _, g := range gates {
		t := g.Timeout
		if t == 0 {
			t = config.DefaultTimeout
		}
		if t > d.Slowest.Timeout {
			d.Slowest = g
			d.Slowest.Timeout = t
		}
	}
	if need := d.Slowest.Timeout + hookMargin; need > d.Timeout {
		d.Timeout, d.Raised = need, true
	}
	return d
}
