package stophook

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLastUserMessage(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ctx := context.Background()
	tests := []struct {
		name, content, want string
	}{
		{"claude", `{"type":"user","message":{"role":"user","content":"first"}}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"ok"}]}}
{"type":"user","message":{"role":"user","content":[{"type":"text","text":"second"}]}}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"x"}]}}
`, "second"},
		{"copilot", `{"type":"user.message","data":{"content":"do it"}}
{"type":"user.message","data":{"content":"Stop hook: gauntlet: 2 of 5 gates failed (attempt 1 of 3). Fix them"}}
`, "do it"},
		{"role", `{"role":"user","content":"plain"}` + "\n", "plain"},
		{"none", `{"type":"assistant.message","data":{"content":"user"}}` + "\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lastUserMessage(ctx, write(tt.name+".jsonl", tt.content)).Text; got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}

	// Only the tail is read: a prompt before it is not seen, and the cut line is dropped.
	big := `{"type":"user.message","data":{"content":"old"}}` + "\n" +
		strings.Repeat(`{"type":"assistant.message","data":{"content":"`+strings.Repeat("y", 1000)+`"}}`+"\n", maxTurnTailBytes/1000+10)
	if got := lastUserMessage(ctx, write("big.jsonl", big)).Text; got != "" {
		t.Errorf("read past the tail: %q", got)
	}

	// Not a regular file, a missing file, a cancelled context: nothing.
	if err := os.Symlink(filepath.Join(dir, "claude.jsonl"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if got := lastUserMessage(ctx, filepath.Join(dir, "link")).Text; got != "" {
		t.Errorf("followed a symlink: %q", got)
	}
	if got := lastUserMessage(ctx, filepath.Join(dir, "missing")).Text; got != "" {
		t.Errorf("missing file gave %q", got)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if got := lastUserMessage(cancelled, filepath.Join(dir, "claude.jsonl")).Text; got != "" {
		t.Errorf("cancelled read gave %q", got)
	}
}

// Every reason BlockReason writes is recognised as gauntlet's own.
func TestOwnReasonMatchesBlockReasons(t *testing.T) {
	for _, r := range []string{
		BlockReason(nil, 1, Attempt{N: 1, Max: 3}, nil),
		genericBlockReason,
		"gauntlet: 3 of 7 gates failed (attempt 2 of 3). Fix them, then stop again.",
		"gauntlet: setup step deps failed (attempt 1 of 10). Fix it, then stop again.",
		"gauntlet: the stop hook was ended by SIGTERM 2s after it started, before its deadline (5m0s) and its host's timeout (10m0s), so the gates were not judged (attempt 1 of 10).\n\nA signal ...",
	} {
		if !ownReason().MatchString(r) {
			t.Errorf("not recognised: %q", r)
		}
	}
	if ownReason().MatchString("please make the gauntlet tests pass") {
		t.Error("a user's prompt taken for a reason")
	}
}

func TestLastUserMessageIsDated(t *testing.T) {
	p := filepath.Join(t.TempDir(), "events.jsonl")
	content := `{"type":"user.message","data":{"content":"first"},"timestamp":"2025-10-09T08:00:01.000Z"}
{"type":"user","message":{"role":"user","content":"second"},"timestamp":"2025-10-09T08:05:00.250Z"}
`
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	got := lastUserMessage(context.Background(), p)
	want := time.Date(2025, 10, 9, 8, 5, 0, 250e6, time.UTC)
	if got.Text != "second" || !got.At.Equal(want) {
		t.Errorf("got %q at %v, want %q at %v", got.Text, got.At, "second", want)
	}
	// An undated line, or a timestamp that does not read, leaves the time unknown.
	for _, line := range []string{
		`{"type":"user.message","data":{"content":"x"}}`,
		`{"type":"user.message","data":{"content":"x"},"timestamp":1760000000}`,
		`{"type":"user.message","data":{"content":"x"},"timestamp":"yesterday"}`,
	} {
		if got := userText([]byte(line)); got.Text != "x" || !got.At.IsZero() {
			t.Errorf("%s: got %q at %v, want x undated", line, got.Text, got.At)
		}
	}
}

func TestAdoptUntold(t *testing.T) {
	began := time.Date(2025, 10, 9, 8, 0, 10, 0, time.UTC)
	tests := []struct {
		name  string
		typed time.Time
		own   int // blocks the told prompt already has
		adopt bool
	}{
		{"typed before the count began", began.Add(-time.Minute), 0, true},
		{"undated", time.Time{}, 0, true},
		{"typed after the count began: a new request", began.Add(time.Second), 0, false},
		{"the prompt has a count of its own", began.Add(-time.Minute), 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &sessionState{Prompts: map[string]*promptState{"": {Blocks: 2, Since: began}}}
			if tt.own > 0 {
				s.Prompts["turn:a"] = &promptState{Blocks: tt.own}
			}
			s.adoptUntold("turn:a", tt.typed)
			got := s.Prompts["turn:a"]
			switch {
			case tt.adopt && (got == nil || got.Blocks != 2 || s.Prompts[""] != nil):
				t.Errorf("not adopted: %+v", s.Prompts)
			case !tt.adopt && s.Prompts[""] == nil:
				t.Errorf("adopted: %+v", s.Prompts)
			}
		})
	}
	// No prompt told: nothing to adopt into.
	s := &sessionState{Prompts: map[string]*promptState{"": {Blocks: 2, Since: began}}}
	s.adoptUntold("", time.Time{})
	if s.Prompts[""].Blocks != 2 || len(s.Prompts) != 1 {
		t.Errorf("adopted into no prompt: %+v", s.Prompts)
	}
}
