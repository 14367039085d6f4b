// Package hookfile puts gauntlet's stop hook into an agent host's hook file, merged into what is
// already there, and finds it there again. Where each host keeps the file and what the entry
// looks like come from the hosts table.
package hookfile

import (
	"fmt"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/hosts"
)

// HookTimeoutSeconds is how long a host lets the hook run: above stop_hook.timeout (9m by
// default), so that gauntlet ends its own gates and answers before the host gives up on it.
const HookTimeoutSeconds = 600

// hookTimeoutMargin is how much longer than stop_hook.timeout the host waits: gauntlet needs
// the time to stop its gates and answer after its own deadline.
const hookTimeoutMargin = time.Minute

// HookTimeoutFor is the host hook timeout, in seconds, for a stop_hook.timeout: the default 600
// unless the stop hook's own deadline needs more.
func HookTimeoutFor(stopHook time.Duration) int {
	need := int((stopHook + hookTimeoutMargin + time.Second - 1) / time.Second)
	return max(HookTimeoutSeconds, need)
}

// cursorLoopLimit is the loop_limit init writes for Cursor: stop_hook.max_attempts' default, so
// that gauntlet's retry-limit message comes before Cursor's own cap.
const cursorLoopLimit = 3

// entry is gauntlet's entry in host's hook file, in the host's shape.
func entry(h hosts.Host, command string, seconds int) *object {
	switch h.Hook.Entry {
	case hosts.FlatCommand:
		return newObject().set(h.Hook.CommandKey, command).set(h.Cap.Key, cursorLoopLimit)
	case hosts.BashCommand:
		// Copilot runs the bash key's command on Linux and macOS and the powershell key's on
		// Windows: both, so that the committed file gates every teammate's agent.
		return newObject().set("type", "command").set(h.Hook.CommandKey, command).
			set("powershell", powerShellCommand(command)).
			set(h.TimeoutKey, h.TimeoutValue(time.Duration(seconds)*time.Second))
	default:
		c := newObject().set("type", "command").set(h.Hook.CommandKey, command).
			set(h.TimeoutKey, h.TimeoutValue(time.Duration(seconds)*time.Second))
		return newObject().set("hooks", []any{c})
	}
}

// FilePath is where host keeps its project hooks, relative to the repository root and
// slash-separated. shared picks Claude Code's committed settings.json over its personal
// settings.local.json; the other hosts have one project file, which is shared already.
func FilePath(host hosts.Name, shared bool) (string, error) {
	h, ok := hosts.Get(host)
	if !ok {
		return "", fmt.Errorf("no hook file known for host %q", host)
	}
	if shared && h.Hook.Shared != "" {
		return h.Hook.Shared, nil
	}
	return h.Hook.Files[0], nil
}
