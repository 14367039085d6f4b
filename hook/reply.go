package hook

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Verdict is what the stop hook decided about the agent's stop.
type Verdict int

const (
	// Allow lets the agent stop, silently.
	Allow Verdict = iota
	// Block makes the agent continue, with the reason as its next instruction.
	Block
	// Notify lets the agent stop and tells the user why it was let go (warnings, gates that could
	// not run, the retry limit).
	Notify
)

// Reply is the hook's answer before it is put in a host's words.
type Reply struct {
	Verdict Verdict
	Reason  string // for Block: what the agent must fix
	Message string // for Notify: what the user should know
}

// genericBlockReason stands in for a blank reason: hosts reject a block without one (Codex's
// schema requires a non-blank string), and an agent told nothing would not know what to fix.
const genericBlockReason = "gauntlet: quality gates failed. Run `gauntlet run` to see which, fix them, then stop again."

// The reply shapes. Field order is the byte order of the output; there is deliberately no way to
// express "continue" (false halts the agent instead of making it go on) or "approve".
type (
	blockReply struct {
		Decision string `json:"decision"`
		Reason   string `json:"reason"`
	}
	messageReply struct {
		SystemMessage string `json:"systemMessage"`
	}
	cursorFollowup struct {
		FollowupMessage string `json:"followup_message"`
	}
	emptyReply struct{}
)

// Encode renders a reply as the exact bytes the host expects on stdout: one JSON object and a
// newline, or nil where the host wants an empty stdout. An unknown host is answered as Claude
// Code, the dialect the others borrow from; an unknown verdict, or a Notify without a message,
// as Allow.
func Encode(h Host, r Reply) []byte {
	reason := r.Reason
	if strings.TrimSpace(reason) == "" {
		reason = genericBlockReason
	}
	notify := r.Verdict == Notify && strings.TrimSpace(r.Message) != ""

	var v any
	switch h {
	case HostCursor:
		v = emptyReply{}
		if r.Verdict == Block {
			v = cursorFollowup{FollowupMessage: reason}
		}
	case HostGemini:
		switch {
		case r.Verdict == Block:
			v = blockReply{Decision: "deny", Reason: reason}
		case notify:
			v = messageReply{SystemMessage: r.Message}
		default:
			v = emptyReply{}
		}
	case HostCopilot:
		// Copilot shows no message from a stop hook's stdout; the caller writes it to stderr.
		if r.Verdict == Block {
			v = blockReply{Decision: "block", Reason: reason}
		}
	default: // Claude Code, Codex
		switch {
		case r.Verdict == Block:
			v = blockReply{Decision: "block", Reason: reason}
		case notify:
			v = messageReply{SystemMessage: r.Message}
		}
	}
	if v == nil {
		return nil
	}
	return encodeJSONLine(v)
}

// encodeJSONLine marshals v without HTML escaping: the reader is an agent, not a browser, and
// "\u003c" in a compiler message would only confuse it. The reply types cannot fail to marshal
// (strings with invalid UTF-8 are repaired by encoding/json).
func encodeJSONLine(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil
	}
	return buf.Bytes()
}
