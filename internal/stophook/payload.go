package stophook

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// MaxPayloadBytes bounds what ReadPayload accepts: real payloads are a few kilobytes (Gemini's
// carries the last prompt and answer), and a runaway writer must not grow the hook's memory.
const MaxPayloadBytes = 8 << 20

// ErrNoInput means stdin ended before any JSON value started.
var ErrNoInput = errors.New("no input on stdin")

// errPayloadTooLarge is what the limited reader returns instead of more bytes.
var errPayloadTooLarge = fmt.Errorf("input on stdin is over %d MiB", MaxPayloadBytes>>20)

// fallbackReadTimeout applies when the caller passes no timeout: every wait has a deadline.
const fallbackReadTimeout = 5 * time.Second

// readDeadliner is implemented by *os.File; it works when the file is in non-blocking mode
// (pipes from os.Pipe, or stdin made non-blocking by the caller).
type readDeadliner interface {
	SetReadDeadline(t time.Time) error
}

// ReadPayload decodes one JSON object from r and returns as soon as it is complete: hosts may
// keep stdin open, so neither EOF nor a newline is awaited, and whatever follows the object is
// ignored. It gives up after timeout. When r supports read deadlines the read is bounded by one
// and nothing is left behind; otherwise the read runs in a goroutine that, after a timeout, ends
// only when r returns (at the latest when the process exits). Every error is one line.
func ReadPayload(r io.Reader, timeout time.Duration) (Payload, error) {
	if timeout <= 0 {
		timeout = fallbackReadTimeout
	}
	timedOut := fmt.Errorf("no complete JSON value on stdin within %s", timeout)

	if d, ok := r.(readDeadliner); ok && d.SetReadDeadline(time.Now().Add(timeout)) == nil {
		// Clear it again so that the caller's later reads are not cut short; failing to is harmless.
		defer func() { _ = d.SetReadDeadline(time.Time{}) }()
		p, err := decodePayload(r)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return Payload{}, timedOut
		}
		return p, err
	}

	type result struct {
		p   Payload
		err error
	}
	done := make(chan result, 1) // buffered: a late reader must not block forever on the send
	go func() {
		p, err := decodePayload(r)
		done <- result{p, err}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case res := <-done:
		return res.p, res.err
	case <-timer.C:
		return Payload{}, timedOut
	}
}

// decodePayload reads exactly as far as the first JSON value needs (plus what the decoder's
// buffer happens to take in) and explains any failure in terms of the input.
func decodePayload(r io.Reader) (Payload, error) {
	in := &payloadReader{r: r, left: MaxPayloadBytes}
	var raw json.RawMessage
	if err := json.NewDecoder(in).Decode(&raw); err != nil {
		return Payload{}, readError(err, in.read)
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return Payload{}, fmt.Errorf("stdin holds a JSON %s, not an object", jsonKind(raw))
	}
	var p Payload
	if err := json.Unmarshal(raw, &p); err != nil {
		return Payload{}, fmt.Errorf("decoding the payload: %w", err)
	}
	return p, nil
}

// readError says why no JSON value could be read from stdin, read bytes into it.
func readError(err error, read int64) error {
	var syntax *json.SyntaxError
	switch {
	case errors.Is(err, io.EOF) && read == 0:
		return ErrNoInput
	case errors.Is(err, io.EOF):
		return fmt.Errorf("%w (only whitespace)", ErrNoInput)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("incomplete JSON on stdin: input ended after %d bytes", read)
	case errors.As(err, &syntax):
		return fmt.Errorf("invalid JSON on stdin at byte %d: %s", syntax.Offset, syntax.Error())
	case errors.Is(err, errPayloadTooLarge), errors.Is(err, os.ErrDeadlineExceeded):
		return err
	}
	return fmt.Errorf("reading stdin: %w", err)
}

func jsonKind(raw []byte) string {
	if len(raw) == 0 {
		return "value"
	}
	switch raw[0] {
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	default:
		return "number"
	}
}

// payloadReader counts what it reads and refuses to read past the size limit.
type payloadReader struct {
	r    io.Reader
	left int64
	read int64
}

func (l *payloadReader) Read(b []byte) (int, error) {
	if l.left <= 0 {
		return 0, errPayloadTooLarge
	}
	if int64(len(b)) > l.left {
		b = b[:l.left]
	}
	n, err := l.r.Read(b)
	l.left -= int64(n)
	l.read += int64(n)
	return n, err
}

// Payload is the union of what the agent hosts send on stdin when their agent stops. Unknown
// fields are ignored, and so is a known field whose value has the wrong type (a number for
// session_id, null for transcript_path): one odd field must not cost the whole gate check.
type Payload struct {
	HookEventName  string `json:"hook_event_name"` // Claude "Stop"/"SubagentStop", Codex "Stop", Cursor "stop", Gemini "AfterAgent"
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"` // null from Codex before the first turn is written
	Cwd            string `json:"cwd"`
	StopHookActive bool   `json:"stop_hook_active"`
	PermissionMode string `json:"permission_mode"`
	PromptID       string `json:"prompt_id"`
	// LastAssistantMessage is sent by Claude Code and Codex.
	LastAssistantMessage string `json:"last_assistant_message"`

	// SubagentStop (Claude Code, Codex).
	AgentID             string `json:"agent_id"`
	AgentType           string `json:"agent_type"`
	AgentTranscriptPath string `json:"agent_transcript_path"`

	// Codex.
	TurnID string `json:"turn_id"`
	Model  string `json:"model"` // Cursor sends it too

	// Cursor.
	ConversationID string   `json:"conversation_id"`
	GenerationID   string   `json:"generation_id"`
	LoopCount      *int     `json:"loop_count"`
	WorkspaceRoots []string `json:"workspace_roots"`
	Status         string   `json:"status"` // "completed", "aborted" or "error"

	// Gemini (AfterAgent); Copilot sends a timestamp too.
	Timestamp string `json:"timestamp"`

	// Copilot (agentStop) spells its keys in camelCase.
	CopilotSession    string `json:"sessionId"`
	StopReason        string `json:"stopReason"`
	CopilotTranscript string `json:"transcriptPath"`

	// UserPrompt is the user's prompt of the turn (Gemini's AfterAgent sends it).
	UserPrompt string `json:"prompt"`

	// Claude Code 2.1.332's Stop: the work still running when the turn ends. A stop with either
	// is judged now all the same (the tree as it is), and the reply says that work was running.
	BackgroundTasks []json.RawMessage `json:"background_tasks"`
	SessionCrons    []json.RawMessage `json:"session_crons"`
	// Crons are Qwen Code 0.24.4's session crons, sent beside background_tasks in its Stop.
	Crons []json.RawMessage `json:"crons"`

	// A tool call about to run (PreToolUse, Gemini's BeforeTool), read by pre-edit: the tool's
	// name and its arguments as the host sent them. Copilot spells them toolName and toolArgs,
	// its arguments an object or a JSON string.
	ToolName        string          `json:"tool_name"`
	ToolInput       json.RawMessage `json:"tool_input"`
	CopilotToolName string          `json:"toolName"`
	CopilotToolArgs json.RawMessage `json:"toolArgs"`

	// seen records which host-identifying keys were present, whatever their values: presence is
	// what tells the hosts apart.
	seen seenKeys
}

// seenKeys is a set of the keys DetectHost looks at, and stop_hook_active.
type seenKeys uint8

const (
	seenTurnID seenKeys = 1 << iota
	seenModel
	seenLoopCount
	seenCopilotSession
	seenStopReason
	seenStopHookActive
	seenTranscriptNull
)

var seenByKey = map[string]seenKeys{
	"turn_id":    seenTurnID,
	"model":      seenModel,
	"loop_count": seenLoopCount,
	"sessionId":  seenCopilotSession,
	"stopReason": seenStopReason,
	// Not a host marker: whether the host says at all if a stop continues a block.
	"stop_hook_active": seenStopHookActive,
}

// payloadFields maps each JSON key to the index of its Payload field, from the struct tags, so
// that the tags stay the only list of keys.
var payloadFields = func() map[string]int {
	t := reflect.TypeFor[Payload]()
	fields := make(map[string]int, t.NumField())
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			fields[name] = i
		}
	}
	return fields
}()

// UnmarshalJSON decodes field by field so that a value of the wrong type leaves that one field
// at its zero value instead of failing the decode. Keys match exactly: hosts send them as
// documented, and "sessionId" must not be taken for "session_id".
func (p *Payload) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*p = Payload{}
	v := reflect.ValueOf(p).Elem()
	for key, value := range raw {
		p.seen |= seenByKey[key]
		if key == "transcript_path" && string(bytes.TrimSpace(value)) == "null" {
			// Codex sends it null before the first turn is written (see DetectHost).
			p.seen |= seenTranscriptNull
		}
		i, ok := payloadFields[key]
		if !ok {
			continue
		}
		field := v.Field(i)
		if err := json.Unmarshal(value, field.Addr().Interface()); err != nil {
			field.SetZero() // a list may be half filled when one element had the wrong type
		}
	}
	return nil
}

// Session identifies the agent's conversation across stop attempts.
func (p Payload) Session() string {
	switch {
	case p.SessionID != "":
		return boundedID(p.SessionID)
	case p.CopilotSession != "":
		return boundedID(p.CopilotSession)
	default:
		return boundedID(p.ConversationID)
	}
}

// Prompt identifies the user's request within the session, when the host says; "" otherwise.
func (p Payload) Prompt() string {
	if p.PromptID != "" {
		return boundedID(p.PromptID)
	}
	return boundedID(p.TurnID)
}

// Transcript is the path of the session transcript, "" when the host sent none.
func (p Payload) Transcript() string {
	path := p.TranscriptPath
	if path == "" {
		path = p.CopilotTranscript
	}
	// No file has such a name: passing it on would only break the gates' environment.
	if len(path) > maxPathBytes || strings.ContainsRune(path, 0) {
		return ""
	}
	return path
}

// maxIDBytes bounds an id the host sends where it becomes a ledger key and an environment
// value; maxPathBytes is Linux's PATH_MAX.
const (
	maxIDBytes   = 128
	maxPathBytes = 4096
)

// boundedID keeps an ordinary id as it is, and replaces one that is too long or holds anything
// but printable ASCII with a digest of it: the same id always gets the same digest, so attempts
// are still counted, and no id can fill the ledger or break a gate's environment (a NUL, or
// 128 KB that exceed the kernel's limit on one environment string).
func boundedID(id string) string {
	if len(id) <= maxIDBytes && !strings.ContainsFunc(id, func(r rune) bool { return r < 0x20 || r > 0x7e }) {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	return "sha256-" + hex.EncodeToString(sum[:16])
}

// Dir is the directory the agent works in: where the config search starts.
func (p Payload) Dir(getenv func(string) string, processCwd string) string {
	if p.Cwd != "" {
		return p.Cwd
	}
	for _, root := range p.WorkspaceRoots {
		if root != "" {
			return root
		}
	}
	if getenv != nil {
		// Claude Code's and Factory Droid's names for the project's directory.
		for _, name := range []string{"CLAUDE_PROJECT_DIR", "FACTORY_PROJECT_DIR"} {
			if dir := getenv(name); dir != "" {
				return dir
			}
		}
	}
	return processCwd
}

// BackgroundWork says how much work the host reports still running as the agent stops
// (background tasks and scheduled session crons); 0 for a host that says nothing of it.
func (p Payload) BackgroundWork() int { return len(p.BackgroundTasks) + p.crons() }

// crons counts the session crons, by Claude Code's key or Qwen Code's.
func (p Payload) crons() int { return len(p.SessionCrons) + len(p.Crons) }

// backgroundNote says, for the reply, that the stop was judged while the host reported work still
// running; "" when it reported none. The stop is judged now all the same: waiting could outlast
// any hook timeout, and the next stop judges what that work changes.
func backgroundNote(p Payload) string {
	if p.BackgroundWork() == 0 {
		return ""
	}
	var what []string
	if n := len(p.BackgroundTasks); n > 0 {
		what = append(what, termtext.Count(n, "background task"))
	}
	if n := p.crons(); n > 0 {
		what = append(what, termtext.Count(n, "session cron"))
	}
	return "work was still running in the background (" + strings.Join(what, ", ") +
		"): the tree was judged as it is now, without what that work does later"
}

// IsSubagentStop reports a subagent finishing (Claude Code and Codex "SubagentStop", Copilot
// "subagentStop") rather than the main agent.
func (p Payload) IsSubagentStop() bool {
	return p.HookEventName == "SubagentStop" || p.HookEventName == "subagentStop"
}
