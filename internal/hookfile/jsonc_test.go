package hookfile

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Gemini CLI reads its settings with comments and trailing commas: init merges into such a file
// without refusing it or dropping the user's comments, and finds the hook there again.
func TestPlanKeepsCommentsInGeminiSettings(t *testing.T) {
	root := t.TempDir()
	settings := `// my settings
{
  "theme": "GitHub", // the light one
  /* hooks below */
  "hooks": {
    "BeforeTool": [{"hooks": [{"type": "command", "command": "audit.sh"}]}],
  },
}
`
	writeFile(t, filepath.Join(root, ".gemini/settings.json"), settings, 0o644)
	c, err := Plan(root, Gemini, false, "gauntlet stop-hook")
	if err != nil {
		t.Fatal(err)
	}
	if c.Installed || !c.Exists {
		t.Fatalf("change: %+v", c)
	}
	got := string(c.Content)
	for _, keep := range []string{"// my settings", "// the light one", "/* hooks below */", `"audit.sh"`, `"AfterAgent"`, `"timeout":600000`} {
		if !strings.Contains(got, keep) {
			t.Errorf("lost %q:\n%s", keep, got)
		}
	}
	if err := c.Apply(); err != nil {
		t.Fatal(err)
	}
	files := Inspect(root, Gemini)
	if len(files) != 1 || files[0].Err != nil || len(files[0].Hooks) != 1 || files[0].Hooks[0].Timeout != 10*time.Minute {
		t.Fatalf("inspect: %+v", files)
	}
	// A second init finds it installed and writes nothing.
	if c, err = Plan(root, Gemini, false, "gauntlet stop-hook"); err != nil || !c.Installed {
		t.Fatalf("second plan: %+v, %v", c, err)
	}
	// Claude Code's settings are plain JSON: comments there stay an error.
	writeFile(t, filepath.Join(root, ".claude/settings.local.json"), "// no\n{}", 0o644)
	if _, err := Plan(root, Claude, false, "gauntlet stop-hook"); err == nil {
		t.Error("Claude Code settings with a comment were accepted")
	}
}

// Copilot reads "timeout" as "timeoutSec".
func TestInspectReadsCopilotsTimeoutAlias(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".github/hooks/gauntlet.json"),
		`{"version":1,"hooks":{"agentStop":[{"type":"command","bash":"gauntlet stop-hook","timeout":700}]}}`, 0o644)
	h := Inspect(root, Copilot)[0].Hooks[0]
	if h.Timeout != 700*time.Second || !h.TimeoutSet || h.TimeoutKey != "timeout" {
		t.Errorf("hook: %+v", h)
	}
}
