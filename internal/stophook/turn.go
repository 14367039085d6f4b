package stophook

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// maxTurnTailBytes bounds how much of a transcript's end is read to find the last user prompt.
const maxTurnTailBytes = 1 << 20

// ownReason matches a block reason gauntlet wrote, wherever a host puts it: a host may feed it
// back as the next user message, and counting it as a new prompt would reset the count forever.
var ownReason = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`gauntlet: (?:\d+ of \d+ gates? failed|quality gates failed|setup steps? |[^\n]*\(attempt \d+ of \d+\))`)
})

// countPerTurn gives a stop from a host that sends no prompt id (Copilot, Gemini) the user's
// prompt as one: a digest of the payload's prompt, else of the last user message in the
// transcript's tail. A host may cap blocks per prompt on its own (Copilot ends the turn after
// 8); counting per prompt makes gauntlet's count start again with the user's next request
// instead of carrying the rest over. The same text twice counts as one prompt: a count that
// carries over is safe, one that resets on the agent's own continuation would never end.
func (c *call) countPerTurn(ctx context.Context) {
	if c.payload.Prompt() != "" || (c.host != HostCopilot && c.host != HostGemini) {
		return
	}
	msg := userMessage{Text: c.payload.UserPrompt}
	if strings.TrimSpace(msg.Text) == "" || ownReason().MatchString(msg.Text) {
		msg = lastUserMessage(ctx, c.payload.Transcript())
	}
	if msg.Text == "" {
		c.turn.unknown = true
		return
	}
	sum := sha256.Sum256([]byte(msg.Text))
	c.payload.PromptID = "turn:" + hex.EncodeToString(sum[:8])
	c.turn.told, c.turn.at = true, msg.At
}

// toldTurn is how a stop's prompt was told, for a host that sends no prompt id.
type toldTurn struct {
	// unknown: it could not be told (no prompt in the payload, no transcript yet).
	unknown bool
	// told: it was, from the user's words, typed at at when the transcript says (zero otherwise).
	told bool
	at   time.Time
}

// resumeTurn counts a stop whose prompt could not be told with the session's last one.
func (c *call) resumeTurn(led *ledger, key string) {
	if !c.turn.unknown {
		return
	}
	if s := led.Sessions[key]; s != nil {
		c.payload.PromptID = s.Turn
	}
}

// promptOf is the count of sess this stop adds to: its prompt's. A count the session began while
// its prompt could not be told (Copilot names a transcript that appears on disk only after the
// first stop) is this prompt's when this is the first prompt told since. Without that the count
// would start again the moment the transcript appears, and the agent be blocked max_attempts
// more times for the same request.
func (c *call) promptOf(sess *sessionState) *promptState {
	id := c.payload.Prompt()
	if c.turn.told && sess.Turn == "" {
		sess.adoptUntold(id, c.turn.at)
	}
	ps := sess.prompt(id)
	if ps.Blocks == 0 {
		ps.Since = time.Now()
	}
	return ps
}

// adoptUntold gives the prompt id the count begun under no told prompt (""), unless the user
// typed that prompt after the count began (typed, when the transcript dates it): then it is a
// new request, with a count of its own. Undated, the count carries over: a count that carries
// over lets the agent go sooner, one that starts again when nothing new was asked traps it
// longer. A prompt that has a count of its own keeps it.
func (s *sessionState) adoptUntold(id string, typed time.Time) {
	untold := s.Prompts[""]
	if id == "" || untold == nil || untold.Blocks == 0 || typedSince(typed, untold.Since) {
		return
	}
	if own := s.Prompts[id]; own != nil && own.Blocks > 0 {
		return
	}
	s.Prompts[id] = untold
	delete(s.Prompts, "")
}

// typedSince says whether a prompt typed at typed came after since, both known.
func typedSince(typed, since time.Time) bool {
	return !typed.IsZero() && !since.IsZero() && typed.After(since)
}

// userMessage is a message a person typed: its text and, when the transcript dates it, when.
type userMessage struct {
	Text string
	At   time.Time
}

// lastUserMessage finds the last message a person typed in a JSONL transcript (Claude Code's
// and Copilot CLI's shapes), skipping tool results and gauntlet's own reasons. Only a regular
// file is read, and only its last maxTurnTailBytes; no text when none is found.
func lastUserMessage(ctx context.Context, path string) userMessage {
	if path == "" || ctx.Err() != nil {
		return userMessage{}
	}
	info, err := os.Lstat(path)
	if err != nil || !info.Mode().IsRegular() {
		return userMessage{}
	}
	// Without blocking, and bound to ctx: a "regular" file whose read blocks (/proc/kmsg) must
	// not hold the hook past its deadline.
	deadline, _ := ctx.Deadline()
	f, opened, err := safefile.Open(path, deadline)
	if err != nil {
		return userMessage{}
	}
	defer f.Close()
	defer safefile.Bind(ctx, f)()
	if !os.SameFile(info, opened) {
		return userMessage{}
	}
	r, err := transcriptTail(f, info.Size())
	if err != nil {
		return userMessage{}
	}
	return lastTyped(ctx, r)
}

// transcriptTail is the transcript's last maxTurnTailBytes, from the first whole line in them.
func transcriptTail(f *os.File, size int64) (io.Reader, error) {
	if size <= maxTurnTailBytes {
		return f, nil
	}
	if _, err := f.Seek(size-maxTurnTailBytes, io.SeekStart); err != nil {
		return nil, err
	}
	return skipPartialLine(f)
}

// lastTyped is the last message a user typed among the transcript's lines in r (gauntlet's own
// block reasons, which hosts record as the user's, left out).
func lastTyped(ctx context.Context, r io.Reader) userMessage {
	sc := bufio.NewScanner(io.LimitReader(r, maxTurnTailBytes))
	sc.Buffer(make([]byte, 64<<10), maxTurnTailBytes)
	var last userMessage
	for sc.Scan() {
		if ctx.Err() != nil {
			return userMessage{}
		}
		if msg := userText(sc.Bytes()); msg.Text != "" && !ownReason().MatchString(msg.Text) {
			last = msg
		}
	}
	return last
}

// userText is the message of a transcript line that is a user's message, no text otherwise. Its
// time is the line's "timestamp" (both Claude Code and Copilot CLI write RFC 3339), when it has
// one that reads.
func userText(line []byte) userMessage {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' || !bytes.Contains(line, []byte("user")) {
		return userMessage{}
	}
	var v transcriptLine
	if json.Unmarshal(line, &v) != nil {
		return userMessage{}
	}
	text := v.userText()
	if text == "" {
		return userMessage{}
	}
	msg := userMessage{Text: text}
	if s, ok := v.Timestamp.(string); ok {
		msg.At, _ = time.Parse(time.RFC3339Nano, s)
	}
	return msg
}

// transcriptLine is a line of a transcript, in the shapes of the hosts that say who wrote it.
type transcriptLine struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Timestamp any             `json:"timestamp"`
	Message   *struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	Data *struct {
		Content json.RawMessage `json:"content"`
	} `json:"data"`
}

// userText is the text of a user's message, "" for any other line.
func (v transcriptLine) userText() string {
	switch {
	case v.Type == "user.message" && v.Data != nil: // Copilot CLI events
		return contentText(v.Data.Content)
	case v.Type == "user" && v.Message != nil: // Claude Code
		return contentText(v.Message.Content)
	case v.Role == "user":
		return contentText(v.Content)
	}
	return ""
}

// contentText reads a message's content: a string, or a list whose text parts are joined. A
// list of tool results only is not a person's message.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s)
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	return strings.TrimSpace(b.String())
}

// skipPartialLine drops what precedes the first newline: the tail of a line cut by the seek.
func skipPartialLine(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		_, err := br.ReadSlice('\n')
		switch {
		case err == nil, errors.Is(err, io.EOF):
			return br, nil
		case errors.Is(err, bufio.ErrBufferFull):
		default:
			return nil, err
		}
	}
}
