package preedit

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/hosts"
	"github.com/gauntlet-dev/gauntlet/internal/stophook"
)

func payload(t *testing.T, s string) stophook.Payload {
	t.Helper()
	var p stophook.Payload
	if err := json.Unmarshal([]byte(s), &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// Each host's tool call is read into the same Call: Claude Code's Write, Edit and MultiEdit,
// Gemini CLI's replace (expected_replacements), Copilot CLI's arguments as a JSON string, Qwen
// Code's edit and Droid's Create, Edit (old_str, new_str, change_all) and Execute.
func TestCallOf(t *testing.T) {
	cases := []struct {
		name, in string
		want     Call
	}{
		{"claude write", `{"tool_name":"Write","tool_input":{"file_path":"/r/a.go","content":"x"}}`,
			Call{Tool: "Write", Kind: Write, Path: "/r/a.go", Content: "x"}},
		{"claude multiedit", `{"tool_name":"MultiEdit","tool_input":{"file_path":"a.go","edits":[{"old_string":"a","new_string":"b","replace_all":true},{"old_string":"c","new_string":""}]}}`,
			Call{Tool: "MultiEdit", Kind: Edit, Path: "a.go", Edits: []Replace{{"a", "b", true}, {"c", "", false}}}},
		{"gemini replace", `{"hook_event_name":"BeforeTool","tool_name":"replace","tool_input":{"file_path":"a.go","old_string":"a","new_string":"b","expected_replacements":3}}`,
			Call{Tool: "replace", Kind: Edit, Path: "a.go", Edits: []Replace{{"a", "b", true}}}},
		{"copilot string args", `{"sessionId":"s","toolName":"edit","toolArgs":"{\"path\":\"a.go\",\"old_str\":\"a\",\"new_str\":\"b\"}"}`,
			Call{Tool: "edit", Kind: Edit, Path: "a.go", Edits: []Replace{{"a", "b", false}}, Session: "s"}},
		// As Qwen Code 0.24.4 and Droid 0.225.2 sent them in make hosts-e2e.
		{"qwen edit", `{"hook_event_name":"PreToolUse","prompt_id":"p########0","tool_name":"edit","tool_input":{"file_path":"/r/a.go","old_string":"a","new_string":"b","replace_all":true}}`,
			Call{Tool: "edit", Kind: Edit, Path: "/r/a.go", Edits: []Replace{{"a", "b", true}}}},
		{"droid edit", `{"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"/r/a.go","old_str":"a","new_str":"b","change_all":true}}`,
			Call{Tool: "Edit", Kind: Edit, Path: "/r/a.go", Edits: []Replace{{"a", "b", true}}}},
		{"droid create", `{"hook_event_name":"PreToolUse","tool_name":"Create","tool_input":{"content":"x","file_path":"/r/a.go"}}`,
			Call{Tool: "Create", Kind: Write, Path: "/r/a.go", Content: "x"}},
		{"droid execute", `{"hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{"command":"git status","summary":"Show the status","riskLevel":"low"}}`,
			Call{Tool: "Execute", Kind: Shell, Command: "git status"}},
		{"shell", `{"tool_name":"Bash","tool_input":{"command":"git status"}}`,
			Call{Tool: "Bash", Kind: Shell, Command: "git status"}},
		{"edit without a path", `{"tool_name":"Edit","tool_input":{"old_string":"a","new_string":"b"}}`,
			Call{Tool: "Edit", Kind: Other}},
		{"read", `{"tool_name":"Read","tool_input":{"file_path":"a.go"}}`, Call{Tool: "Read"}},
	}
	for _, tc := range cases {
		got := CallOf(payload(t, tc.in))
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(tc.want)
		if string(g) != string(w) {
			t.Errorf("%s: %s, want %s", tc.name, g, w)
		}
	}
}

// An edit applies as the host would apply it; one whose string is not there is not applied
// (the host's tool fails on its own).
func TestApply(t *testing.T) {
	c := Call{Kind: Edit, Edits: []Replace{{Old: "a", New: "b"}}}
	if got, ok := c.Apply([]byte("aaa"), true); !ok || string(got) != "baa" {
		t.Errorf("first only: %q %v", got, ok)
	}
	c.Edits[0].All = true
	if got, ok := c.Apply([]byte("aaa"), true); !ok || string(got) != "bbb" {
		t.Errorf("all: %q %v", got, ok)
	}
	if _, ok := c.Apply([]byte("zzz"), true); ok {
		t.Error("a missing string applied")
	}
	create := Call{Kind: Edit, Edits: []Replace{{Old: "", New: "new"}}}
	if got, ok := create.Apply(nil, false); !ok || string(got) != "new" {
		t.Errorf("create: %q %v", got, ok)
	}
	if got, ok := (Call{Kind: Write, Content: "w"}).Apply([]byte("old"), true); !ok || string(got) != "w" {
		t.Errorf("write: %q %v", got, ok)
	}
}

// The deny and warn shapes of each host, byte for byte: Claude Code's hookSpecificOutput, Gemini
// CLI's decision and reason, Copilot CLI's permissionDecision; an allow is the host's empty
// allow.
func TestReplyShapes(t *testing.T) {
	v := Verdict{Mode: config.PreEditDeny, Findings: []gates.IntegrityFinding{{Rule: "test-removed", File: "a_test.go", Line: 3, Message: "test TestA removed"}}}
	r, _ := json.Marshal(Reason(v))
	reason := string(r)
	for host, want := range map[hosts.Name]string{
		hosts.Claude:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":` + reason + `}}`,
		hosts.Qwen:    `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":` + reason + `}}`,
		hosts.Gemini:  `{"decision":"deny","reason":` + reason + `}`,
		hosts.Copilot: `{"permissionDecision":"deny","permissionDecisionReason":` + reason + `}`,
	} {
		if got := strings.TrimSuffix(string(Reply(host, v)), "\n"); got != want {
			t.Errorf("%s: %s\nwant %s", host, got, want)
		}
	}
	if !strings.Contains(reason, "a_test.go:3  [test-removed] test TestA removed") || !strings.Contains(reason, "Fix the code rather than the check") {
		t.Errorf("reason: %s", reason)
	}
	if got := string(Reply(hosts.Gemini, Verdict{})); got != "{}" {
		t.Errorf("gemini allow: %q", got)
	}
	if got := Reply(hosts.Claude, Verdict{}); len(got) != 0 {
		t.Errorf("claude allow: %q", got)
	}
	v.Mode = config.PreEditWarn
	if got := string(Reply(hosts.Claude, v)); strings.Contains(got, "permissionDecision") || !strings.Contains(got, `"additionalContext"`) {
		t.Errorf("claude warn: %s", got)
	}
}
