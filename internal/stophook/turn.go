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

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// maxTurnTailBytes bounds how much of a transcript's end is read to find the last user prompt.
const maxTurnTailBytes = 1 << 20

// ownReason matches a block reason gauntlet wrote, wherever a host puts it: a host may feed it
// back as the next user message, and counting it as a new prompt would reset the count forever.
var ownReason = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`gauntlet: (\d+ of \d+ gates? failed|quality gates failed)`)
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
	text := c.payload.UserPrompt
	if strings.TrimSpace(text) == "" || ownReason().MatchString(text) {
		text = lastUserMessage(ctx, c.payload.Transcript())
	}
	if text == "" {
		c.turnUnknown = true
		return
	}
	sum := sha256.Sum256([]byte(text))
	c.payload.PromptID = "turn:" + hex.EncodeToString(sum[:8])
}

// resumeTurn counts a stop whose prompt could not be told with the session's last one.
func (c *call) resumeTurn(led *ledger, key string) {
	if !c.turnUnknown {
		return
	}
	if s := led.Sessions[key]; s != nil {
		c.payload.PromptID = s.Turn
	}
}

// lastUserMessage finds the last message a person typed in a JSONL transcript (Claude Code's
// and Copilot CLI's shapes), skipping tool results and gauntlet's own reasons. Only a regular
// file is read, and only its last maxTurnTailBytes; "" when none is found.
func lastUserMessage(ctx context.Context, path string) string {
	if path == "" || ctx.Err() != nil {
		return ""
	}
	info, err := os.Lstat(path)
	if err != nil || !info.Mode().IsRegular() {
		return ""
	}
	// Without blocking, and bound to ctx: a "regular" file whose read blocks (/proc/kmsg) must
	// not hold the hook past its deadline.
	deadline, _ := ctx.Deadline()
	f, opened, err := safefile.Open(path, deadline)
	if err != nil {
		return ""
	}
	defer f.Close()
	defer safefile.Bind(ctx, f)()
	if !os.SameFile(info, opened) {
		return ""
	}
	var r io.Reader = f
	if size := info.Size(); size > maxTurnTailBytes {
		if _, err := f.Seek(size-maxTurnTailBytes, io.SeekStart); err != nil {
			return ""
		}
		if r, err = skipPartialLine(f); err != nil {
			return ""
		}
	}
	sc := bufio.NewScanner(io.LimitReader(r, maxTurnTailBytes))
	sc.Buffer(make([]byte, 64<<10), maxTurnTailBytes)
	last := ""
	for sc.Scan() {
		if ctx.Err() != nil {
			return ""
		}
		if text := userText(sc.Bytes()); text != "" && !ownReason().MatchString(text) {
			last = text
		}
	}
	return last
}

// userText is the text of a transcript line that is a user's message, "" otherwise.
func userText(line []byte) string {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' || !bytes.Contains(line, []byte("user")) {
		return ""
	}
	var v struct {
		Type    string          `json:"type"`
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
		Message *struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"message"`
		Data *struct {
			Content json.RawMessage `json:"content"`
		} `json:"data"`
	}
	if json.Unmarshal(line, &v) != nil {
		return ""
	}
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
