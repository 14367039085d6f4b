package hosts

import (
	"testing"
	"time"
)

// Every host is complete enough for each reader of the table: the stop hook (events, reply),
// init (the file and entry), doctor (limits, trust) and validate (caps); and every host says
// where its facts were read.
func TestTableIsComplete(t *testing.T) {
	seen := map[Name]bool{}
	for _, h := range All() {
		if seen[h.Name] {
			t.Errorf("%s listed twice", h.Name)
		}
		seen[h.Name] = true
		if got, ok := Parse(" " + string(h.Name) + " "); !ok || got != h.Name {
			t.Errorf("Parse(%q) = %q, %v", h.Name, got, ok)
		}
		switch {
		case h.Display == "", h.StopEvent == "", len(h.Hook.Files) == 0, h.Hook.CommandKey == "":
			t.Errorf("%s: incomplete: %+v", h.Name, h)
		case h.Reply.BlockDecision == "" && h.Reply.FollowupKey == "":
			t.Errorf("%s: no way to block", h.Name)
		case h.TimeoutKey == "" || h.TimeoutUnit <= 0 || h.TimeoutUnit > time.Second:
			t.Errorf("%s: timeout key %q unit %s", h.Name, h.TimeoutKey, h.TimeoutUnit)
		case h.Trust.How == "":
			t.Errorf("%s: no way to grant trust", h.Name)
		case len(h.Sources) == 0:
			t.Errorf("%s: no source for any fact", h.Name)
		}
		if h.Trust.Scope != NoTrust && (h.Trust.File == "" || h.Trust.Dir == "" || h.Trust.Format == "") {
			t.Errorf("%s: trust recorded in a file, but which: %+v", h.Name, h.Trust)
		}
		if h.Cap.Blocks > 0 && h.Source("cap") == "" && h.Name != Cursor {
			t.Errorf("%s: a cap of %d without a source", h.Name, h.Cap.Blocks)
		}
	}
	if _, ok := Parse("claude-code"); ok {
		t.Error("an unknown host parsed")
	}
}

// The facts issue reports and the hosts' own code established, pinned so that a change to
// them is deliberate.
func TestDocumentedFacts(t *testing.T) {
	c := MustGet(Claude)
	if c.Cap.Blocks != 8 || c.Cap.Env != "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP" || c.DisableKey != "disableAllHooks" {
		t.Errorf("Claude Code: cap %+v, disable key %q", c.Cap, c.DisableKey)
	}
	g := MustGet(Gemini)
	if !g.Trust.DefaultOn || g.Trust.Scope != LongestRule || !g.Hook.JSONC {
		t.Errorf("Gemini CLI: trust %+v, JSONC %v", g.Trust, g.Hook.JSONC)
	}
	p := MustGet(Copilot)
	if p.Trust.Key != "trustedFolders" || p.Trust.Format != "jsonc" || len(p.TimeoutKeys()) != 2 || p.TimeoutKeys()[1] != "timeout" {
		t.Errorf("Copilot: trust %+v, timeout keys %v", p.Trust, p.TimeoutKeys())
	}
	if x := MustGet(Codex); x.Trust.Scope != ExactRoot || !x.Trust.HookTrust {
		t.Errorf("Codex: trust %+v", x.Trust)
	}
}

// The edit guard's events, the newest hosts and what Claude Code 2.1.332 sends, pinned: a host
// with a pre-edit entry says where its shape was read, and a host known only from its
// documentation says so. Qwen Code and Factory Droid, driven with their real CLIs, name their
// editing tools in PreToolUse, and Droid runs a project's hooks only from .factory/settings.json;
// Codex 0.171.0 sends its apply_patch and its shell to PreToolUse.
func TestPreEditAndNewHosts(t *testing.T) {
	want := map[Name]string{Claude: "PreToolUse", Gemini: "BeforeTool", Copilot: "preToolUse", Qwen: "PreToolUse", Droid: "PreToolUse", Codex: "PreToolUse"}
	for _, h := range All() {
		ev := ""
		if len(h.PreEdit) == 1 {
			ev = h.PreEdit[0].Event
		}
		if ev != want[h.Name] {
			t.Errorf("%s: pre-edit event %q, want %q", h.Name, ev, want[h.Name])
		}
		if h.Source("pre-edit") == "" && h.Name != Cursor {
			t.Errorf("%s: no source says whether it has an edit guard", h.Name)
		}
	}
	if c := MustGet(Claude); c.PromptID != "prompt_id" || c.PreEdit[0].Matcher != "Write|Edit|MultiEdit|Bash" {
		t.Errorf("Claude Code: prompt id %q, pre-edit %+v", c.PromptID, c.PreEdit)
	}
	for _, n := range []Name{Qwen, Droid} {
		h := MustGet(n)
		if h.StopEvent != "Stop" || h.SubagentEvent != "SubagentStop" || h.Reply.BlockDecision != "block" || h.Verified != "" ||
			h.TimeoutUnit != time.Second || len(h.AfterEdit) != 3 {
			t.Errorf("%s: %+v", n, h)
		}
	}
	q, d := MustGet(Qwen), MustGet(Droid)
	if q.Hook.Files[0] != ".qwen/settings.json" || len(d.Hook.Files) != 1 || d.Hook.Files[0] != ".factory/settings.json" {
		t.Errorf("hook files: Qwen Code %v, Factory Droid %v", q.Hook.Files, d.Hook.Files)
	}
	if q.PreEdit[0].Matcher != "write_file|edit|run_shell_command" || d.PreEdit[0].Matcher != "Create|Edit|Execute" {
		t.Errorf("pre-edit matchers: Qwen Code %q, Factory Droid %q", q.PreEdit[0].Matcher, d.PreEdit[0].Matcher)
	}
	if q.PromptID != "prompt_id" || q.Cap.Blocks != 8 || q.Cap.Env != "QWEN_CODE_STOP_HOOK_BLOCK_CAP" || d.Cap.Blocks != 0 {
		t.Errorf("Qwen Code: prompt id %q, cap %+v; Factory Droid cap %+v", q.PromptID, q.Cap, d.Cap)
	}
}

// Qwen Code reads a hook timeout in seconds below 1000 and in milliseconds from 1000 on: what
// init writes and what doctor reads follow it; the other hosts' units are plain.
func TestTimeoutValues(t *testing.T) {
	q, c := MustGet(Qwen), MustGet(Claude)
	for _, tc := range []struct {
		h    Host
		d    time.Duration
		want int
	}{{q, 600 * time.Second, 600}, {q, 999 * time.Second, 999}, {q, 1320 * time.Second, 1320000}, {c, 1320 * time.Second, 1320}} {
		if got := tc.h.TimeoutValue(tc.d); got != tc.want {
			t.Errorf("%s: TimeoutValue(%s) = %d, want %d", tc.h.Name, tc.d, got, tc.want)
		}
	}
	for n, want := range map[float64]time.Duration{600: 600 * time.Second, 5000: 5 * time.Second, 1320000: 1320 * time.Second} {
		if got := q.TimeoutOf(n); got != want {
			t.Errorf("Qwen Code: TimeoutOf(%v) = %s, want %s", n, got, want)
		}
	}
	if got := MustGet(Gemini).TimeoutOf(5000); got != 5*time.Second {
		t.Errorf("Gemini CLI: TimeoutOf(5000) = %s", got)
	}
}
