package stophook

import (
	"github.com/gauntlet-dev/gauntlet/internal/hosts"
	"strings"
	"testing"
)

func TestParseHost(t *testing.T) {
	tests := []struct {
		in   string
		want Host
		ok   bool
	}{
		{"auto", "", true},
		{"", "", true},
		{"claude", HostClaude, true},
		{"codex", HostCodex, true},
		{"cursor", HostCursor, true},
		{"gemini", HostGemini, true},
		{"copilot", HostCopilot, true},
		{" Codex ", HostCodex, true},
		{"vscode", "", false},
		{"claude-code", "", false},
	}
	for _, tc := range tests {
		got, ok := ParseHost(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseHost(%q) = (%q, %v), want (%q, %v)", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestDetectHost(t *testing.T) {
	tests := []struct {
		name    string
		payload string
		want    Host
	}{
		{"claude stop", `{"session_id":"s","transcript_path":"/t","cwd":"/r","permission_mode":"default","hook_event_name":"Stop","stop_hook_active":false}`, HostClaude},
		{"claude subagent", `{"session_id":"s","hook_event_name":"SubagentStop","agent_id":"a","agent_type":"general"}`, HostClaude},
		{"empty object", `{}`, HostClaude},
		{"codex", `{"session_id":"s","turn_id":"t","transcript_path":null,"cwd":"/r","hook_event_name":"Stop","model":"gpt-5","permission_mode":"default","stop_hook_active":false,"last_assistant_message":null}`, HostCodex},
		{"codex with empty turn id", `{"turn_id":"","model":""}`, HostCodex},
		{"turn_id alone is not codex", `{"session_id":"s","turn_id":"t"}`, HostClaude},
		{"cursor by event", `{"conversation_id":"c","hook_event_name":"stop","model":"claude-4","workspace_roots":["/w"]}`, HostCursor},
		{"cursor by loop_count", `{"conversation_id":"c","loop_count":0}`, HostCursor},
		{"gemini", `{"session_id":"s","hook_event_name":"AfterAgent","prompt":"p","prompt_response":"r","stop_hook_active":false}`, HostGemini},
		{"copilot fields", `{"sessionId":"s","stopReason":"end_turn","timestamp":"1","cwd":"/r"}`, HostCopilot},
		{"copilot stopReason alone", `{"stopReason":"end_turn"}`, HostCopilot},
		{"copilot event", `{"hook_event_name":"agentStop"}`, HostCopilot},
		{"copilot subagent event", `{"hook_event_name":"subagentStop"}`, HostCopilot},
		// The after-edit hooks' payloads: Copilot's and Codex's as the real CLIs sent them (make
		// hosts-e2e), Gemini's as its hooks reference documents it.
		{"copilot postToolUse", `{"sessionId":"s","timestamp":1795479742929,"cwd":"/r","toolName":"bash","toolArgs":{"command":"echo hi"},"toolResult":{"resultType":"success"}}`, HostCopilot},
		{"copilot sessionEnd", `{"sessionId":"s","timestamp":1795479743162,"cwd":"/r","reason":"complete"}`, HostCopilot},
		{"codex PostToolUse", `{"session_id":"s","turn_id":"t","transcript_path":"/t","cwd":"/r","hook_event_name":"PostToolUse","model":"gpt-fake","permission_mode":"bypassPermissions","tool_name":"Bash","tool_input":{"command":"echo"},"tool_response":"","tool_use_id":"c"}`, HostCodex},
		{"gemini AfterTool", `{"session_id":"s","transcript_path":"/t","cwd":"/r","hook_event_name":"AfterTool","timestamp":"2026-11-24T00:00:00Z","tool_name":"write_file","tool_input":{},"tool_response":{}}`, HostGemini},
		// The session events, whose names Claude Code shares: Gemini CLI's carry its ISO timestamp
		// (hooks reference: session_id, transcript_path, cwd, hook_event_name, timestamp, then
		// source or reason), Codex's a transcript named rollout-*.jsonl, or null before the first
		// turn is written (codex-rs/hooks/schema/generated/session-{start,end}.command.input).
		// Qwen Code 0.24.4 and Droid 0.225.2 as they sent them in make hosts-e2e: Claude Code's
		// event names, told by the transcript's folder (Qwen's session events also carry Gemini
		// CLI's string timestamp).
		{"qwen SessionStart", `{"session_id":"s","transcript_path":"/home/u/.qwen/projects/-r/chats/s.jsonl","cwd":"/r","hook_event_name":"SessionStart","timestamp":"2026-12-02T02:35:12.942Z","permission_mode":"yolo","source":"startup","model":"gpt-fake"}`, hosts.Qwen},
		{"qwen Stop", `{"session_id":"s","transcript_path":"/home/u/.qwen/projects/-r/chats/s.jsonl","cwd":"/r","hook_event_name":"Stop","timestamp":"2026-12-02T02:35:20.694Z","prompt_id":"s########0","stop_hook_active":false,"background_tasks":[],"crons":[]}`, hosts.Qwen},
		{"droid SessionStart", `{"session_id":"s","transcript_path":"/home/u/.factory/sessions/-r/s.jsonl","cwd":"/r","permission_mode":"off","hook_event_name":"SessionStart","source":"startup"}`, hosts.Droid},
		{"droid Stop", `{"session_id":"s","transcript_path":"/home/u/.factory/sessions/-r/s.jsonl","cwd":"/r","permission_mode":"auto-high","hook_event_name":"Stop","message_id":"m","stop_hook_active":false,"tool_execution_count":0,"elapsed_time":0}`, hosts.Droid},
		{"gemini SessionStart", `{"session_id":"s","transcript_path":"/home/u/.gemini/tmp/h/chats/session-1.json","cwd":"/r","hook_event_name":"SessionStart","timestamp":"2026-11-24T00:00:00.000Z","source":"startup"}`, HostGemini},
		{"gemini SessionEnd", `{"session_id":"s","transcript_path":"/home/u/.gemini/tmp/h/chats/session-1.json","cwd":"/r","hook_event_name":"SessionEnd","timestamp":"2026-11-24T00:00:09.000Z","reason":"exit"}`, HostGemini},
		{"codex SessionStart", `{"session_id":"s","transcript_path":"/home/u/.codex/sessions/2026/11/24/rollout-2026-11-24T00-00-00-s.jsonl","cwd":"/r","hook_event_name":"SessionStart","model":"gpt-5-codex","permission_mode":"default","source":"startup"}`, HostCodex},
		{"codex SessionStart before the transcript", `{"session_id":"s","transcript_path":null,"cwd":"/r","hook_event_name":"SessionStart","model":"gpt-5-codex","permission_mode":"bypassPermissions","source":"startup"}`, HostCodex},
		{"codex SessionEnd", `{"session_id":"s","transcript_path":"/home/u/.codex/sessions/2026/11/24/rollout-2026-11-24T00-00-00-s.jsonl","cwd":"/r","hook_event_name":"SessionEnd","reason":"other"}`, HostCodex},
		{"codex SessionEnd without transcript", `{"session_id":"s","transcript_path":null,"cwd":"/r","hook_event_name":"SessionEnd","reason":"other"}`, HostCodex},
		{"claude SessionStart", `{"session_id":"s","transcript_path":"/home/u/.claude/projects/-r/s.jsonl","cwd":"/r","hook_event_name":"SessionStart","source":"startup","model":"claude-opus-4"}`, HostClaude},
		{"a stop with a string timestamp keeps Claude Code's dialect", `{"session_id":"s","hook_event_name":"Stop","timestamp":"2026-11-24T00:00:00Z","transcript_path":"/t"}`, HostClaude},
		{"claude stop with a null transcript", `{"session_id":"s","hook_event_name":"Stop","transcript_path":null}`, HostClaude},
		{"claude SessionEnd", `{"session_id":"s","transcript_path":"/home/u/.claude/projects/-r/s.jsonl","cwd":"/r","permission_mode":"default","hook_event_name":"SessionEnd","reason":"other"}`, HostClaude},
		// As the real CLIs sent them in make hosts-e2e (lifecycle_test.go; Gemini CLI 0.61.0, Codex
		// 0.171.0, Claude Code 2.1.332, Copilot CLI 1.0.102), ids and paths shortened.
		{"real gemini SessionStart", `{"session_id":"68a22c9d-fbfe-497c-a8b2-b5dbea612818","transcript_path":"/h/.gemini/tmp/proj/chats/session-2026-12-02T02-41-68a22c9d.jsonl","cwd":"/p","hook_event_name":"SessionStart","timestamp":"2026-12-02T02:41:02.438Z","source":"startup"}`, HostGemini},
		{"real gemini SessionEnd", `{"session_id":"68a22c9d-fbfe-497c-a8b2-b5dbea612818","transcript_path":"/h/.gemini/tmp/proj/chats/session-2026-12-02T02-41-68a22c9d.jsonl","cwd":"/p","hook_event_name":"SessionEnd","timestamp":"2026-12-02T02:42:53.531Z","reason":"exit"}`, HostGemini},
		{"real codex SessionStart", `{"session_id":"01a234aa-1b05-7053-865d-070195890da1","transcript_path":"/h/.codex/sessions/2026/12/02/rollout-2026-12-02T02-51-33-01a234aa-1b05-7053-865d-070195890da1.jsonl","cwd":"/p","hook_event_name":"SessionStart","model":"gpt-fake","permission_mode":"bypassPermissions","source":"startup"}`, HostCodex},
		{"real codex SessionEnd", `{"session_id":"01a234aa-1b05-7053-865d-070195890da1","transcript_path":"/h/.codex/sessions/2026/12/02/rollout-2026-12-02T02-51-33-01a234aa-1b05-7053-865d-070195890da1.jsonl","cwd":"/p","hook_event_name":"SessionEnd","reason":"other"}`, HostCodex},
		{"real claude SessionStart", `{"session_id":"50723654-b65f-4469-a615-d7afa813bc00","transcript_path":"/h/.claude/projects/-p/50723654-b65f-4469-a615-d7afa813bc00.jsonl","cwd":"/p","hook_event_name":"SessionStart","source":"startup"}`, HostClaude},
		{"real claude SessionEnd", `{"session_id":"50723654-b65f-4469-a615-d7afa813bc00","transcript_path":"/h/.claude/projects/-p/50723654-b65f-4469-a615-d7afa813bc00.jsonl","cwd":"/p","prompt_id":"ebbc10b9-6c7b-49fd-b599-28d493e3782a","hook_event_name":"SessionEnd","reason":"other"}`, HostClaude},
		{"real copilot sessionStart", `{"sessionId":"409b4524-de16-4903-951e-9e506835fad5","timestamp":1796180092721,"cwd":"/p","source":"new","initialPrompt":"finish the work"}`, HostCopilot},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ReadPayload(strings.NewReader(tc.payload), hangGuard)
			if err != nil {
				t.Fatalf("ReadPayload: %v", err)
			}
			if got := DetectHost(p); got != tc.want {
				t.Errorf("DetectHost = %q, want %q", got, tc.want)
			}
		})
	}
}
