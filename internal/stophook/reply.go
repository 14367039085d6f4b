package stophook

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gauntlet-dev/gauntlet/internal/hosts"
	"github.com/gauntlet-dev/gauntlet/internal/redact"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// MaxMessageBytes bounds a systemMessage: the user reads it in one glance, and a host may cut
// (or refuse) a longer one. 300 gates that could not run name themselves in far more.
const MaxMessageBytes = 2000

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
	// Secrets are hidden from Reason and Message; nil hides nothing. Encode is the one place
	// every reply passes, so it is where text is cleaned, redacted and capped.
	Secrets *redact.Redactor
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
	emptyReply struct{}
)

// Encode renders a reply as the exact bytes the host expects on stdout: one JSON object and a
// newline, or nil where the host wants an empty stdout. An unknown host is answered as Claude
// Code, the dialect the others borrow from; an unknown verdict, or a Notify without a message,
// as Allow. Whatever the texts hold, what is sent is clean (no escape sequences or control
// characters), redacted, and within MaxReasonBytes and MaxMessageBytes.
func Encode(h Host, r Reply) []byte {
	r = r.Shown()
	host, ok := hosts.Get(h)
	if !ok {
		host = hosts.MustGet(hosts.Claude)
	}
	// A host that shows no message (Copilot, Cursor) gets it on stderr from the caller.
	v := replyValue(host.Reply, r)
	if v == nil {
		return nil
	}
	return encodeJSONLine(v)
}

// replyValue is the reply in a host's shape; nil when the host is to get nothing on stdout.
func replyValue(shape hosts.Reply, r Reply) any {
	reason := cmp.Or(r.Reason, genericBlockReason)
	switch {
	case r.Verdict == Block && shape.BlockDecision != "":
		return blockReply{Decision: shape.BlockDecision, Reason: reason}
	case r.Verdict == Block:
		return map[string]string{shape.FollowupKey: reason}
	case r.Verdict == Notify && r.Message != "" && shape.SystemMessage:
		return messageReply{SystemMessage: r.Message}
	case shape.EmptyAllow != "":
		return emptyReply{}
	}
	return nil
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

// Shown returns the reply with its texts as they are sent: cleaned, redacted and capped. What is
// kept of a reply (the stop-hook history, doctor's dry run) is this, never the raw texts.
func (r Reply) Shown() Reply {
	r.Reason, r.Message = r.text(), r.message()
	return r
}

// text is the block reason as sent: cleaned, redacted, capped; "" when nothing is left.
func (r Reply) text() string {
	return capReason(strings.TrimSpace(r.Secrets.Text(r.Reason)), MaxReasonBytes)
}

// message is the notice as sent: one clean, redacted line of at most MaxMessageBytes, ending
// with a note of what was cut; "" when nothing is left.
func (r Reply) message() string {
	m := r.Secrets.Line(r.Message)
	if len(m) <= MaxMessageBytes {
		return m
	}
	// The note's length depends on the count it states; reserve room for the longest one.
	const noteRoom = len(" [... 9,999,999,999 more characters cut]")
	kept := strings.TrimRight(termtext.FirstBytes(m, MaxMessageBytes-noteRoom), " ")
	return kept + fmt.Sprintf(" [... %s more characters cut]", groupDigits(utf8.RuneCountInString(m[len(kept):])))
}
