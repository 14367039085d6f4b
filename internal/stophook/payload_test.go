package stophook

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// hangGuard is far beyond any honest decode: reaching it means ReadPayload waited for EOF.
const hangGuard = 20 * time.Second

func TestReadPayloadReturnsBeforeEOF(t *testing.T) {
	const object = `{"hook_event_name":"Stop","session_id":"s1"}`
	t.Run("io.Pipe", func(t *testing.T) {
		r, w := io.Pipe()
		t.Cleanup(func() { w.Close() })
		go w.Write([]byte(object)) // never closed: the host may keep stdin open
		assertSession(t, r, "s1")
	})
	t.Run("os.Pipe", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close(); w.Close() })
		if _, err := w.WriteString(object); err != nil {
			t.Fatal(err)
		}
		assertSession(t, r, "s1")
	})
}

func assertSession(t *testing.T, r io.Reader, want string) {
	t.Helper()
	p, err := ReadPayload(r, hangGuard)
	if err != nil {
		t.Fatalf("ReadPayload: %v", err)
	}
	if p.SessionID != want {
		t.Errorf("SessionID = %q, want %q", p.SessionID, want)
	}
}

func TestReadPayloadTimesOut(t *testing.T) {
	const want = "no complete JSON value on stdin within 50ms"
	t.Run("io.Pipe", func(t *testing.T) {
		r, w := io.Pipe()
		t.Cleanup(func() { w.Close() }) // ends the reading goroutine
		go w.Write([]byte(`{"session_id":`))
		_, err := ReadPayload(r, 50*time.Millisecond)
		if err == nil || err.Error() != want {
			t.Fatalf("err = %v, want %q", err, want)
		}
	})
	t.Run("os.Pipe leaves no reader behind", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close(); w.Close() })
		if _, err := w.WriteString(`{"session_id":`); err != nil {
			t.Fatal(err)
		}
		_, err = ReadPayload(r, 50*time.Millisecond)
		if err == nil || err.Error() != want {
			t.Fatalf("err = %v, want %q", err, want)
		}
		// Had a reader been left behind it could take these bytes; had the deadline been left
		// set, this read would fail at once.
		if _, err := w.WriteString("later"); err != nil {
			t.Fatal(err)
		}
		read := make(chan string, 1)
		go func() {
			buf := make([]byte, 16)
			n, err := r.Read(buf)
			read <- fmt.Sprintf("%q, %v", buf[:n], err)
		}()
		select {
		case got := <-read:
			if want := `"later", <nil>`; got != want {
				t.Fatalf("read after timeout = %s; want %s", got, want)
			}
		case <-time.After(hangGuard):
			r.Close()
			t.Fatal("read after timeout hangs: the bytes went to a reader left behind")
		}
	})
}

func TestReadPayloadErrors(t *testing.T) {
	tests := []struct {
		name    string
		input   string
		want    string
		noInput bool
	}{
		{"empty", "", "no input on stdin", true},
		{"only whitespace", " \n\t", "no input on stdin (only whitespace)", true},
		{"invalid JSON", `{"session_id" "x"}`, "invalid JSON on stdin at byte 15: invalid character '\"' after object key", false},
		{"truncated", `{"session_id":"x"`, "incomplete JSON on stdin: input ended after 17 bytes", false},
		{"array", `[{"session_id":"x"}]`, "stdin holds a JSON array, not an object", false},
		{"string", `"Stop"`, "stdin holds a JSON string, not an object", false},
		{"null", `null`, "stdin holds a JSON null, not an object", false},
		{"number", ` 42 `, "stdin holds a JSON number, not an object", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadPayload(strings.NewReader(tc.input), hangGuard)
			if err == nil {
				t.Fatal("no error")
			}
			if err.Error() != tc.want {
				t.Errorf("err = %q, want %q", err, tc.want)
			}
			if errors.Is(err, ErrNoInput) != tc.noInput {
				t.Errorf("errors.Is(err, ErrNoInput) = %v, want %v", !tc.noInput, tc.noInput)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
		})
	}
}

func TestReadPayloadRejectsOversizedInput(t *testing.T) {
	huge := io.MultiReader(strings.NewReader(`{"last_assistant_message":"`), endless('a'))
	_, err := ReadPayload(huge, hangGuard)
	if err == nil || err.Error() != "input on stdin is over 8 MiB" {
		t.Fatalf("err = %v, want the size limit", err)
	}
}

// endless is an infinite stream of one byte.
type endless byte

func (e endless) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = byte(e)
	}
	return len(b), nil
}

func TestReadPayloadIgnoresWhatFollowsTheObject(t *testing.T) {
	p, err := ReadPayload(strings.NewReader(`{"session_id":"a"} garbage {`), hangGuard)
	if err != nil || p.SessionID != "a" {
		t.Fatalf("got %+v, %v", p, err)
	}
}

func TestPayloadToleratesNullsAndWrongTypes(t *testing.T) {
	input := `{
		"session_id": 12345,
		"transcript_path": null,
		"cwd": "/repo",
		"stop_hook_active": "yes",
		"loop_count": "three",
		"workspace_roots": ["/a", 7],
		"permission_mode": "plan",
		"unknown": {"nested": [1, 2]}
	}`
	p, err := ReadPayload(strings.NewReader(input), hangGuard)
	if err != nil {
		t.Fatalf("ReadPayload: %v", err)
	}
	if p.SessionID != "" || p.TranscriptPath != "" || p.StopHookActive || p.LoopCount != nil || p.WorkspaceRoots != nil {
		t.Errorf("mistyped fields should stay zero: %+v", p)
	}
	if p.Cwd != "/repo" || p.PermissionMode != "plan" {
		t.Errorf("well-typed fields lost: %+v", p)
	}
}

func TestPayloadDecodesEveryHost(t *testing.T) {
	three := 3
	tests := []struct {
		name  string
		input string
		check func(p Payload) bool
	}{
		{"claude", `{"session_id":"c1","transcript_path":"/t.jsonl","cwd":"/repo","permission_mode":"default","hook_event_name":"Stop","stop_hook_active":true}`,
			func(p Payload) bool {
				return p.SessionID == "c1" && p.TranscriptPath == "/t.jsonl" && p.StopHookActive && p.HookEventName == "Stop"
			}},
		{"codex", `{"session_id":"x","turn_id":"t9","transcript_path":null,"cwd":"/r","hook_event_name":"Stop","model":"gpt-5","permission_mode":"default","stop_hook_active":false,"last_assistant_message":null}`,
			func(p Payload) bool { return p.TurnID == "t9" && p.Model == "gpt-5" && p.TranscriptPath == "" }},
		{"cursor", `{"conversation_id":"cv","generation_id":"g","hook_event_name":"stop","status":"completed","loop_count":3,"workspace_roots":["/w"]}`,
			func(p Payload) bool {
				return p.ConversationID == "cv" && p.LoopCount != nil && *p.LoopCount == three && p.WorkspaceRoots[0] == "/w" && p.Status == "completed"
			}},
		{"copilot", `{"sessionId":"cp","stopReason":"end_turn","timestamp":"1700000000000","cwd":"/c","transcriptPath":"/cp.jsonl"}`,
			func(p Payload) bool {
				return p.CopilotSession == "cp" && p.StopReason == "end_turn" && p.Transcript() == "/cp.jsonl"
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ReadPayload(strings.NewReader(tc.input), hangGuard)
			if err != nil {
				t.Fatalf("ReadPayload: %v", err)
			}
			if !tc.check(p) {
				t.Errorf("decoded %+v", p)
			}
		})
	}
}

func TestPayloadSessionAndPrompt(t *testing.T) {
	tests := []struct {
		p               Payload
		session, prompt string
	}{
		{Payload{SessionID: "s", CopilotSession: "cp", ConversationID: "cv", PromptID: "p", TurnID: "t"}, "s", "p"},
		{Payload{CopilotSession: "cp", ConversationID: "cv", TurnID: "t"}, "cp", "t"},
		{Payload{ConversationID: "cv"}, "cv", ""},
		{Payload{}, "", ""},
	}
	for _, tc := range tests {
		if got := tc.p.Session(); got != tc.session {
			t.Errorf("%+v.Session() = %q, want %q", tc.p, got, tc.session)
		}
		if got := tc.p.Prompt(); got != tc.prompt {
			t.Errorf("%+v.Prompt() = %q, want %q", tc.p, got, tc.prompt)
		}
	}
}

func TestPayloadDir(t *testing.T) {
	withProjectDir := func(k string) string {
		if k == "CLAUDE_PROJECT_DIR" {
			return "/project"
		}
		return ""
	}
	noEnv := func(string) string { return "" }
	tests := []struct {
		name   string
		p      Payload
		getenv func(string) string
		want   string
	}{
		{"cwd wins", Payload{Cwd: "/cwd", WorkspaceRoots: []string{"/ws"}}, withProjectDir, "/cwd"},
		{"first workspace root", Payload{WorkspaceRoots: []string{"", "/ws1", "/ws2"}}, withProjectDir, "/ws1"},
		{"CLAUDE_PROJECT_DIR", Payload{}, withProjectDir, "/project"},
		{"process cwd", Payload{}, noEnv, "/proc"},
		{"nil getenv", Payload{}, nil, "/proc"},
	}
	for _, tc := range tests {
		if got := tc.p.Dir(tc.getenv, "/proc"); got != tc.want {
			t.Errorf("%s: Dir = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestIsSubagentStop(t *testing.T) {
	for event, want := range map[string]bool{
		"SubagentStop": true, "subagentStop": true, "Stop": false, "stop": false, "agentStop": false, "": false,
	} {
		if got := (Payload{HookEventName: event}).IsSubagentStop(); got != want {
			t.Errorf("IsSubagentStop(%q) = %v, want %v", event, got, want)
		}
	}
}
