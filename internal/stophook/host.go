package stophook

import "strings"

// Host is an agent host whose stop-hook dialect gauntlet speaks.
type Host string

const (
	HostClaude  Host = "claude"
	HostCodex   Host = "codex"
	HostCursor  Host = "cursor"
	HostGemini  Host = "gemini"
	HostCopilot Host = "copilot"
)

// Hosts lists every host, in the order help texts show them.
func Hosts() []Host {
	return []Host{HostClaude, HostCodex, HostCursor, HostGemini, HostCopilot}
}

// ParseHost reads a --host value. "auto" (and an empty value) gives ("", true): detect the host
// from the payload.
func ParseHost(s string) (Host, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "auto" || s == "" {
		return "", true
	}
	for _, h := range Hosts() {
		if string(h) == s {
			return h, true
		}
	}
	return "", false
}

// DetectHost tells the host from the shape of its payload. The checks go from the most specific
// marker to the least: Cursor also sends "model", so Codex is only recognised by turn_id and
// model together once Cursor and the others are ruled out. Claude Code is the default because it
// sends nothing the others lack.
func DetectHost(p Payload) Host {
	switch {
	case p.HookEventName == "AfterAgent":
		return HostGemini
	case p.HookEventName == "stop" || p.seen&seenLoopCount != 0:
		return HostCursor
	case p.HookEventName == "agentStop" || p.HookEventName == "subagentStop" ||
		p.seen&(seenCopilotSession|seenStopReason) != 0:
		return HostCopilot
	case p.seen&seenTurnID != 0 && p.seen&seenModel != 0:
		return HostCodex
	default:
		return HostClaude
	}
}
