// Package hookfile puts gauntlet's stop hook into an agent host's hook file, merged into what is
// already there.
package hookfile

import (
	"fmt"
	"time"
)

// The hosts by the names `--host` uses. They are spelled out here rather than taken from the
// hook package so that writing a settings file does not depend on the stop-hook machinery.
const (
	Claude  = "claude"
	Codex   = "codex"
	Cursor  = "cursor"
	Gemini  = "gemini"
	Copilot = "copilot"
)

// Hosts lists every host a hook can be installed for.
func Hosts() []string { return []string{Claude, Codex, Cursor, Gemini, Copilot} }

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

// cursorLoopLimit is Cursor's own cap on follow-ups, matching stop_hook.max_attempts' default.
const cursorLoopLimit = 3

// hostFile says where one host keeps its hooks and what gauntlet's entry looks like there.
type hostFile struct {
	path       string // relative to the repository root
	sharedPath string // with --shared, when the host has a separate shared file
	event      string // the key under "hooks"
	version    bool   // the file needs a top-level "version": 1
	entry      func(command string, seconds int) *object
}

// commandGroup is the Claude Code shape, which Codex and Gemini share: a matcher group holding a
// list of command hooks.
func commandGroup(unit int) func(string, int) *object {
	return func(command string, seconds int) *object {
		h := newObject().set("type", "command").set("command", command).set("timeout", seconds*unit)
		return newObject().set("hooks", []any{h})
	}
}

var hostFiles = map[string]hostFile{
	Claude: {path: ".claude/settings.local.json", sharedPath: ".claude/settings.json", event: "Stop",
		entry: commandGroup(1)},
	Codex: {path: ".codex/hooks.json", event: "Stop",
		entry: commandGroup(1)},
	Cursor: {path: ".cursor/hooks.json", event: "stop", version: true,
		entry: func(command string, _ int) *object {
			return newObject().set("command", command).set("loop_limit", cursorLoopLimit)
		}},
	// Gemini counts hook timeouts in milliseconds.
	Gemini: {path: ".gemini/settings.json", event: "AfterAgent",
		entry: commandGroup(1000)},
	Copilot: {path: ".github/hooks/gauntlet.json", event: "agentStop", version: true,
		entry: func(command string, seconds int) *object {
			return newObject().set("type", "command").set("bash", command).set("timeoutSec", seconds)
		}},
}

// FilePath is where host keeps its project hooks, relative to the repository root and
// slash-separated. shared picks Claude Code's committed settings.json over its personal
// settings.local.json; the other hosts have one project file, which is shared already.
func FilePath(host string, shared bool) (string, error) {
	f, ok := hostFiles[host]
	if !ok {
		return "", fmt.Errorf("no hook file known for host %q", host)
	}
	if shared && f.sharedPath != "" {
		return f.sharedPath, nil
	}
	return f.path, nil
}
