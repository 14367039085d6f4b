package hookfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"github.com/gauntlet-dev/gauntlet/internal/hosts"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const cmd = "gauntlet stop-hook"

// The documented hook of each host (README, "Gating a coding agent"), as a fresh file holds it.
var documented = map[hosts.Name]string{
	Claude:      `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"gauntlet stop-hook","timeout":600}]}]}}`,
	Codex:       `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"gauntlet stop-hook","timeout":600}]}]}}`,
	Cursor:      `{"version":1,"hooks":{"stop":[{"command":"gauntlet stop-hook","loop_limit":3}]}}`,
	Gemini:      `{"hooks":{"AfterAgent":[{"hooks":[{"type":"command","command":"gauntlet stop-hook","timeout":600000}]}]}}`,
	Copilot:     `{"version":1,"hooks":{"agentStop":[{"type":"command","bash":"gauntlet stop-hook","powershell":"gauntlet stop-hook","timeoutSec":600}]}}`,
	hosts.Qwen:  `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"gauntlet stop-hook","timeout":600}]}]}}`,
	hosts.Droid: `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"gauntlet stop-hook","timeout":600}]}]}}`,
}

func TestPlanFreshFileIsTheDocumentedHook(t *testing.T) {
	wantPath := map[hosts.Name]string{
		Claude: ".claude/settings.local.json", Codex: ".codex/hooks.json",
		Cursor: ".cursor/hooks.json", Gemini: ".gemini/settings.json",
		Copilot: ".github/hooks/gauntlet.json", hosts.Qwen: ".qwen/settings.json", hosts.Droid: ".factory/settings.json",
	}
	for _, host := range Hosts() {
		t.Run(string(host), func(t *testing.T) {
			root := t.TempDir()
			c, err := Plan(root, host, false, cmd)
			if err != nil {
				t.Fatal(err)
			}
			if c.Rel != wantPath[host] || c.Path != filepath.Join(root, wantPath[host]) || c.Exists || c.Installed {
				t.Errorf("change = %+v, want a new %s", c, wantPath[host])
			}
			if err := c.Apply(); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(c.Path)
			if err != nil {
				t.Fatal(err)
			}
			assertSameJSON(t, data, documented[host])
			// The key order of the documentation too: version first.
			if compact(t, data) != documented[host] {
				t.Errorf("file = %s, want exactly %s", compact(t, data), documented[host])
			}
			if info, _ := os.Stat(c.Path); info.Mode().Perm() != 0o644 {
				t.Errorf("new file mode = %v, want 0644", info.Mode().Perm())
			}
			again, err := Plan(root, host, false, cmd)
			if err != nil || !again.Installed {
				t.Errorf("second plan = %+v, %v; want installed already", again, err)
			}
		})
	}
}

func TestSharedPicksClaudesCommittedSettings(t *testing.T) {
	for host, want := range map[hosts.Name]string{
		Claude: ".claude/settings.json",
		Cursor: ".cursor/hooks.json", // already shared
	} {
		got, err := FilePath(host, true)
		if err != nil || got != want {
			t.Errorf("FilePath(%s, shared) = %q, %v; want %q", host, got, err, want)
		}
	}
	if _, err := FilePath("vim", false); err == nil {
		t.Error("FilePath of an unknown host succeeded")
	}
}

func TestPlanMergesIntoExistingFile(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, ".claude", "settings.local.json")
	existing := `{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "permissions": {"allow": ["Bash(make <target> && echo ok)"]},
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh"}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]
  },
  "big": 12345678901234567890,
  "float": 1.50,
  "zebra": null
}`
	writeFile(t, path, existing, 0o600)
	c, err := Plan(root, Claude, false, cmd)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Exists || c.Installed || c.Where != "hooks.Stop" {
		t.Fatalf("change = %+v", c)
	}
	if err := c.Apply(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	assertSameJSON(t, data, `{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "permissions": {"allow": ["Bash(make <target> && echo ok)"]},
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh"}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "say done"}]},
             {"hooks": [{"type": "command", "command": "gauntlet stop-hook", "timeout": 600}]}]
  },
  "big": 12345678901234567890,
  "float": 1.50,
  "zebra": null
}`)
	text := string(data)
	for _, want := range []string{"12345678901234567890", "1.50", "make <target> && echo ok"} {
		if !strings.Contains(text, want) {
			t.Errorf("merged file lost %q as written:\n%s", want, text)
		}
	}
	order := []string{`"$schema"`, `"permissions"`, `"hooks"`, `"PreToolUse"`, `"Stop"`, `"big"`, `"float"`, `"zebra"`}
	for i := 1; i < len(order); i++ {
		if strings.Index(text, order[i-1]) > strings.Index(text, order[i]) {
			t.Errorf("key order changed: %s now after %s:\n%s", order[i-1], order[i], text)
		}
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want the file's own 0600", info.Mode().Perm())
	}
}

func TestPlanAddsVersionWhereTheHostNeedsIt(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".cursor", "hooks.json"), `{"hooks": {"afterFileEdit": [{"command": "fmt.sh"}]}}`, 0o644)
	c, err := Plan(root, Cursor, false, cmd)
	if err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, c.Content, `{"hooks": {"afterFileEdit": [{"command": "fmt.sh"}],
		"stop": [{"command": "gauntlet stop-hook", "loop_limit": 3}]}, "version": 1}`)

	writeFile(t, filepath.Join(root, ".github", "hooks", "gauntlet.json"), `{"version": 2}`, 0o644)
	c, err = Plan(root, Copilot, false, cmd)
	if err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, c.Content, `{"version": 2, "hooks": {"agentStop": [{"type": "command", "bash": "gauntlet stop-hook", "powershell": "gauntlet stop-hook", "timeoutSec": 600}]}}`)
}

func TestPlanFindsAnInstalledHookAnywhere(t *testing.T) {
	for name, tt := range map[string]struct {
		host    hosts.Name
		content string
	}{
		"claude, by absolute path": {Claude, `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"/opt/bin/gauntlet stop-hook --host claude","timeout":60}]}]}}`},
		"codex, own command":       {Codex, `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"gauntlet stop-hook"}]}]}}`},
		"cursor":                   {Cursor, `{"version":1,"hooks":{"stop":[{"command":"GAUNTLET_X=1 gauntlet stop-hook"}]}}`},
		"copilot, bash key":        {Copilot, `{"version":1,"hooks":{"agentStop":[{"type":"command","bash":"'/my tools/gauntlet' stop-hook"}]}}`},
		"gemini":                   {Gemini, `{"hooks":{"AfterAgent":[{"matcher":"*","hooks":[{"type":"command","command":"exec gauntlet stop-hook"}]}]}}`},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			rel, _ := FilePath(tt.host, false)
			writeFile(t, filepath.Join(root, rel), tt.content, 0o644)
			c, err := Plan(root, tt.host, false, cmd)
			if err != nil {
				t.Fatal(err)
			}
			if !c.Installed {
				t.Errorf("hook not recognised as installed; would write %s", c.Content)
			}
			if string(c.Content) != tt.content {
				t.Errorf("content of an installed hook changed")
			}
		})
	}
}

func TestPlanOwnCommandByPathCountsAsInstalled(t *testing.T) {
	root := t.TempDir()
	own := "/home/me/bin/gauntlet-dev stop-hook"
	c, err := Plan(root, Claude, false, own)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Apply(); err != nil {
		t.Fatal(err)
	}
	if c, err = Plan(root, Claude, false, own); err != nil || !c.Installed {
		t.Errorf("second plan with the same command = %+v, %v; want installed", c, err)
	}
}

func TestPlanRefusesFilesItCannotMerge(t *testing.T) {
	for name, content := range map[string]string{
		"syntax error":           "{\n  \"hooks\": {\n    \"Stop\": [\n  }\n",
		"trailing data":          `{"hooks": {}} {}`,
		"not an object":          `[1, 2]`,
		"hooks not an object":    `{"hooks": []}`,
		"event not a list":       `{"hooks": {"Stop": {"command": "x"}}}`,
		"comments":               "// settings\n{}",
		"truncated":              `{"hooks": {"Stop": [`,
		"string as top level":    `"x"`,
		"number key is a string": `{1: 2}`,
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			path := filepath.Join(root, ".claude", "settings.local.json")
			writeFile(t, path, content, 0o644)
			_, err := Plan(root, Claude, false, cmd)
			var invalid *InvalidFileError
			if !errors.As(err, &invalid) {
				t.Fatalf("err = %v, want *InvalidFileError", err)
			}
			if !strings.Contains(err.Error(), ".claude/settings.local.json") {
				t.Errorf("error %q does not name the file", err)
			}
			if data, _ := os.ReadFile(path); string(data) != content {
				t.Errorf("file changed to %q", data)
			}
		})
	}
}

func TestSyntaxErrorSaysWhere(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".codex", "hooks.json"), "{\n  \"a\": 1,\n  oops\n}", 0o644)
	_, err := Plan(root, Codex, false, cmd)
	if err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("err = %v, want it to point at line 3", err)
	}
}

func TestPlanTreatsAnEmptyFileAsEmptyObject(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".gemini", "settings.json"), " \n", 0o644)
	c, err := Plan(root, Gemini, false, cmd)
	if err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, c.Content, documented[Gemini])
}

func writeFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func assertSameJSON(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("result is not JSON: %v\n%s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad expectation: %v", err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func compact(t *testing.T, data []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, data); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
