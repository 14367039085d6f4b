package stophook

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
			if got := lastUserMessage(ctx, write(tt.name+".jsonl", tt.content)); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}

	// Only the tail is read: a prompt before it is not seen, and the cut line is dropped.
	big := `{"type":"user.message","data":{"content":"old"}}` + "\n" +
		strings.Repeat(`{"type":"assistant.message","data":{"content":"`+strings.Repeat("y", 1000)+`"}}`+"\n", maxTurnTailBytes/1000+10)
	if got := lastUserMessage(ctx, write("big.jsonl", big)); got != "" {
		t.Errorf("read past the tail: %q", got)
	}

	// Not a regular file, a missing file, a cancelled context: nothing.
	if err := os.Symlink(filepath.Join(dir, "claude.jsonl"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if got := lastUserMessage(ctx, filepath.Join(dir, "link")); got != "" {
		t.Errorf("followed a symlink: %q", got)
	}
	if got := lastUserMessage(ctx, filepath.Join(dir, "missing")); got != "" {
		t.Errorf("missing file gave %q", got)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if got := lastUserMessage(cancelled, filepath.Join(dir, "claude.jsonl")); got != "" {
		t.Errorf("cancelled read gave %q", got)
	}
}

// Every reason BlockReason writes is recognised as gauntlet's own.
func TestOwnReasonMatchesBlockReasons(t *testing.T) {
	for _, r := range []string{
		BlockReason(nil, 1, Attempt{N: 1, Max: 3}, nil),
		genericBlockReason,
		"gauntlet: 3 of 7 gates failed (attempt 2 of 3). Fix them, then stop again.",
	} {
		if !ownReason().MatchString(r) {
			t.Errorf("not recognised: %q", r)
		}
	}
	if ownReason().MatchString("please make the gauntlet tests pass") {
		t.Error("a user's prompt taken for a reason")
	}
}
