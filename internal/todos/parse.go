package todos

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
)

// maxLineBytes bounds one transcript line held in memory. Todo updates are small; the lines
// longer than this carry file contents or images and are skipped unread.
const maxLineBytes = 4 << 20

// Item is one entry of an agent's todo list.
type Item struct {
	Content string
	// Status is pending, in_progress or completed (or whatever the agent wrote).
	Status string
}

// Done reports whether the item is completed.
func (it Item) Done() bool { return strings.EqualFold(it.Status, "completed") }

// List is the latest todo list a transcript holds.
type List struct {
	// Found is false when the transcript never touched a todo list.
	Found bool
	Items []Item
}

// Pending returns the items that are not completed, in list order.
func (l List) Pending() []Item {
	var out []Item
	for _, it := range l.Items {
		if !it.Done() {
			out = append(out, it)
		}
	}
	return out
}

// Parse reads a JSONL transcript (Claude Code's or Codex's) and returns its latest todo list.
// Claude Code keeps one either with TodoWrite, whose every call carries the whole list, or with
// the task tools: TaskCreate adds a task (its id comes back in the tool result, and counts up
// from 1 when the result is missing), TaskUpdate changes or (status "deleted") removes one, and
// the task_reminder attachments Claude Code writes are complete snapshots. Codex's update_plan
// carries its whole plan like TodoWrite. Whichever of these came last is the list. Lines of
// subagents (isSidechain) are not the agent's own list and are skipped.
func Parse(r io.Reader) (List, error) {
	var st state
	err := eachLine(r, func(line []byte) {
		if !mayMatter(line, len(st.awaitingID) > 0) {
			return
		}
		var l transcriptLine
		if json.Unmarshal(line, &l) != nil || l.IsSidechain {
			return
		}
		st.apply(&l)
	})
	return st.list(), err
}

// markers are what a line must contain to possibly change the list; the others are not decoded.
var markers = [][]byte{[]byte(`"TodoWrite"`), []byte(`"TaskCreate"`), []byte(`"TaskUpdate"`),
	[]byte(`"task_reminder"`), []byte(`"update_plan"`)}

func mayMatter(line []byte, awaitingID bool) bool {
	if awaitingID && bytes.Contains(line, []byte(`"toolUseResult"`)) {
		return true
	}
	return slices.ContainsFunc(markers, func(m []byte) bool { return bytes.Contains(line, m) })
}

// eachLine calls fn with every non-blank line of at most maxLineBytes; longer ones are skipped
// without being held in memory.
func eachLine(r io.Reader, fn func([]byte)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte // the pieces of a line longer than the reader's buffer
	skipping := false
	for {
		chunk, err := br.ReadSlice('\n')
		partial := errors.Is(err, bufio.ErrBufferFull)
		if !skipping {
			switch {
			case len(long)+len(chunk) > maxLineBytes:
				skipping, long = true, long[:0]
			case partial || len(long) > 0:
				long = append(long, chunk...)
			}
		}
		if partial {
			continue
		}
		if !skipping {
			line := chunk
			if len(long) > 0 {
				line = long
			}
			if len(bytes.TrimSpace(line)) > 0 {
				fn(line)
			}
		}
		long, skipping = long[:0], false
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return err
		}
	}
}

// transcriptLine is the part of a transcript line that todo lists live in.
type transcriptLine struct {
	IsSidechain bool `json:"isSidechain"`
	Message     struct {
		Content json.RawMessage `json:"content"` // a string, or an array of blocks
	} `json:"message"`
	ToolUseResult json.RawMessage `json:"toolUseResult"`
	Attachment    struct {
		Type    string      `json:"type"`
		Content []taskEntry `json:"content"`
	} `json:"attachment"`
	Payload struct { // Codex rollout: {"type":"response_item","payload":{...}}
		Type      string `json:"type"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"payload"`
}

type contentBlock struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
}

type taskEntry struct {
	ID      flexID `json:"id"`
	Subject string `json:"subject"`
	Status  string `json:"status"`
}

// flexID accepts "3" and 3.
type flexID string

func (f *flexID) UnmarshalJSON(data []byte) error {
	if s, err := strconv.Unquote(string(data)); err == nil {
		*f = flexID(s)
		return nil
	}
	*f = flexID(strings.TrimSpace(string(data)))
	return nil
}
