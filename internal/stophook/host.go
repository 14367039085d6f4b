package stophook

import (
	"strings"

	"github.com/gauntlet-dev/gauntlet/internal/hosts"
)

// Host is an agent host whose stop-hook dialect gauntlet speaks; the hosts table describes it.
type Host = hosts.Name

// The hosts by their stop-hook names, for this package's switches.
const (
	HostClaude  = hosts.Claude
	HostCodex   = hosts.Codex
	HostCursor  = hosts.Cursor
	HostGemini  = hosts.Gemini
	HostCopilot = hosts.Copilot
)

// Hosts lists every host, in the order help texts show them.
func Hosts() []Host { return hosts.Names() }

// ParseHost reads a --host value. "auto" (and an empty value) gives ("", true): detect the host
// from the payload.
func ParseHost(s string) (Host, bool) {
	if t := strings.ToLower(strings.TrimSpace(s)); t == "auto" || t == "" {
		return "", true
	}
	return hosts.Parse(s)
}

// DetectHost tells the host from the shape of its payload. The checks go from the most specific
// marker to the least: Cursor also sends "model", so Codex is only recognised by turn_id and
// model together once Cursor and the others are ruled out. Claude Code is the default because it
// sends nothing the others lack. The event names are the hosts table's.
//
// The session events (SessionStart, SessionEnd) are named alike by Claude Code, Codex and Gemini
// CLI: Gemini's carry its ISO timestamp (a string; Copilot's is a number, and camelCase keys),
// Codex's a transcript it names rollout-*.jsonl, or null before the first turn is written.
// Qwen Code's and Droid's events are told by their transcript's folder. Detection is the
// fallback: init writes --host on every entry it installs.
func DetectHost(p Payload) Host {
	gemini, cursor, copilot := hosts.MustGet(hosts.Gemini), hosts.MustGet(hosts.Cursor), hosts.MustGet(hosts.Copilot)
	switch {
	case p.HookEventName == gemini.StopEvent || p.HookEventName != "" && onlyEventOf(hosts.Gemini, p.HookEventName):
		return HostGemini
	case p.HookEventName == cursor.StopEvent || p.seen&seenLoopCount != 0:
		return HostCursor
	case p.HookEventName == copilot.StopEvent || p.HookEventName == copilot.SubagentEvent ||
		p.seen&(seenCopilotSession|seenStopReason) != 0:
		return HostCopilot
	case transcriptUnder(p, "/.qwen/projects/"):
		return hosts.Qwen
	case transcriptUnder(p, "/.factory/sessions/"):
		return hosts.Droid
	case geminiSession(p):
		return HostGemini
	case p.seen&seenTurnID != 0 && p.seen&seenModel != 0 || codexSession(p):
		return HostCodex
	default:
		return HostClaude
	}
}

// sessionEvent says whether the payload is a session's start or end, the events whose name
// several hosts share. Only there do the weaker markers below decide: a stop of Qwen Code (which
// derives from Gemini CLI) must stay in Claude Code's dialect, which it speaks.
func sessionEvent(p Payload) bool {
	return p.HookEventName == "SessionStart" || p.HookEventName == "SessionEnd"
}

// geminiSession says whether a session event is Gemini CLI's: its ISO timestamp, a string
// (Copilot's is a number, and Copilot is ruled out before).
func geminiSession(p Payload) bool {
	return sessionEvent(p) && p.Timestamp != "" && p.SessionID != ""
}

// transcriptUnder says whether the payload's transcript is kept in dir, a host's own folder of
// sessions: Qwen Code's ~/.qwen/projects/..., Droid's ~/.factory/sessions/... (Qwen Code and
// Droid send Claude Code's event names; Qwen's session events also carry Gemini CLI's string
// timestamp, so the transcript is checked before it).
func transcriptUnder(p Payload, dir string) bool {
	return strings.Contains(strings.ReplaceAll(p.TranscriptPath, `\`, "/"), dir)
}

// codexSession says whether a session event is Codex's, by its transcript.
func codexSession(p Payload) bool { return sessionEvent(p) && codexTranscript(p) }

// codexTranscript says whether the payload's transcript is Codex's: a rollout file
// (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl), or null, which Codex sends before the first
// turn is written.
func codexTranscript(p Payload) bool {
	if p.seen&seenTranscriptNull != 0 {
		return true
	}
	base := p.TranscriptPath[strings.LastIndexAny(p.TranscriptPath, `/\`)+1:]
	return strings.HasPrefix(base, "rollout-") && strings.HasSuffix(base, ".jsonl")
}

// onlyEventOf reports whether event is one of host's after-edit events that no other host sends
// (Gemini CLI's AfterTool; SessionEnd is Claude Code's and Codex's too), so that an after-edit
// payload names its host as a stop's does.
func onlyEventOf(host hosts.Name, event string) bool {
	mine := false
	for _, h := range hosts.All() {
		for _, ev := range h.AfterEdit {
			if ev.Event != event {
				continue
			}
			if h.Name != host {
				return false
			}
			mine = true
		}
	}
	return mine
}
