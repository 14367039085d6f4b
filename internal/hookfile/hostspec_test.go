package hookfile

import (
	"github.com/gauntlet-dev/gauntlet/internal/hosts"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// What init writes, Inspect finds, with the timeout in the host's own unit: one description
// serves both.
func TestInspectFindsWhatPlanWrites(t *testing.T) {
	root := t.TempDir()
	for _, h := range Hosts() {
		c, err := Plan(root, h, false, "gauntlet stop-hook")
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Apply(); err != nil {
			t.Fatal(err)
		}
		spec, ok := hosts.Get(h)
		if !ok || spec.Hook.Files[0] != c.Rel {
			t.Errorf("%s: spec file %v, init writes %s", h, spec.Hook.Files, c.Rel)
		}
		files := Inspect(root, h)
		if len(files) != 1 || len(files[0].Hooks) != 1 {
			t.Fatalf("%s: found %+v", h, files)
		}
		hook := files[0].Hooks[0]
		if h != Cursor && (hook.Timeout != HookTimeoutSeconds*time.Second || !hook.TimeoutSet) {
			t.Errorf("%s: timeout %s (set %v), want %ds", h, hook.Timeout, hook.TimeoutSet, HookTimeoutSeconds)
		}
		wantCap := hosts.MustGet(h).Cap.Blocks // the host's own cap, unless the entry sets one
		if h == Cursor {
			wantCap = cursorLoopLimit
		}
		if hook.Cap != wantCap {
			t.Errorf("%s: cap %d, want %d", h, hook.Cap, wantCap)
		}
	}
	if got := len(Installed(root)); got != len(Hosts()) {
		t.Errorf("Installed found %d hooks, want %d", got, len(Hosts()))
	}
}

func TestInspectOddFiles(t *testing.T) {
	root := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Copilot reads every .github/hooks/*.json; the hook can be in any of them, by any path.
	write(".github/hooks/other.json", `{"version":1,"hooks":{"agentStop":[{"type":"command","bash":"/opt/g/bin/gauntlet-1.2 stop-hook"}]}}`)
	files := Inspect(root, Copilot)
	if len(files) != 1 || len(files[0].Hooks) != 1 {
		t.Fatalf("copilot: %+v", files)
	}
	h := files[0].Hooks[0]
	if h.TimeoutSet || h.Timeout != 30*time.Second {
		t.Errorf("copilot default timeout: %s (set %v)", h.Timeout, h.TimeoutSet)
	}
	if got := GauntletWord(h.Command); got != "/opt/g/bin/gauntlet-1.2" {
		t.Errorf("GauntletWord = %q", got)
	}
	// Claude Code: the shared file counts too; a broken file is reported, not skipped.
	write(".claude/settings.json", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"env X=1 gauntlet stop-hook"}]}]}}`)
	write(".claude/settings.local.json", `{"hooks":`)
	files = Inspect(root, Claude)
	if len(files) != 2 || files[0].Err == nil || len(files[1].Hooks) != 1 {
		t.Fatalf("claude: %+v", files)
	}
	// A hook on another event, or another program, is not gauntlet's stop hook.
	write(".gemini/settings.json", `{"hooks":{"BeforeTool":[{"hooks":[{"command":"gauntlet stop-hook"}]}],"AfterAgent":[{"hooks":[{"command":"lint.sh"}]}]}}`)
	files = Inspect(root, Gemini)
	if len(files) != 1 || len(files[0].Hooks) != 0 || files[0].Err != nil {
		t.Fatalf("gemini: %+v", files)
	}
	// Cursor's loop_limit is the cap.
	write(".cursor/hooks.json", `{"version":1,"hooks":{"stop":[{"command":"gauntlet stop-hook","loop_limit":7}]}}`)
	if files = Inspect(root, Cursor); files[0].Hooks[0].Cap != 7 {
		t.Errorf("cursor cap: %+v", files)
	}
}
