//go:build hostse2e

package hostse2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/hostse2e/fakemodel"
)

// codexProject is a project with Codex pointed at the fake model (a provider of its own in
// CODEX_HOME/config.toml) and codex on PATH, so that doctor can ask its app-server.
func codexProject(t *testing.T, m *fakemodel.Server, config string) (*project, string) {
	t.Helper()
	return codexProjectWith(t, config, nil)
}

// codexProjectWith is codexProject with files in place before init runs.
func codexProjectWith(t *testing.T, config string, files map[string]string) (*project, string) {
	t.Helper()
	bin := cli(t, ".bin/codex")
	p := newProjectWith(t, "codex", config, files)
	codexHome := filepath.Join(p.home, ".codex")
	if err := os.MkdirAll(codexHome, 0o755); err != nil {
		t.Fatal(err)
	}
	p.env = append(p.env, "CODEX_HOME="+codexHome, "FAKE_OPENAI_KEY=fake",
		"PATH="+filepath.Dir(bin)+":"+filepath.Dir(gauntletBin)+":/usr/local/bin:/usr/bin:/bin")
	return p, codexHome
}

func writeCodexConfig(t *testing.T, codexHome string, m *fakemodel.Server, trusted string, hookTrust string) {
	t.Helper()
	cfg := fmt.Sprintf(`model = "gpt-fake"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "danger-full-access"

[model_providers.fake]
name = "fake"
base_url = "%s/v1"
wire_api = "responses"
env_key = "FAKE_OPENAI_KEY"

[projects.%q]
trust_level = "trusted"
`, m.URL, trusted)
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(cfg+hookTrust), 0o644); err != nil {
		t.Fatal(err)
	}
}

// codexTrustAll asks Codex (through its app-server) for the key and current hash of every hook
// it lists in the project, as its /hooks screen records them when the user trusts each.
func codexTrustAll(t *testing.T, p *project) string {
	t.Helper()
	out, _, _ := p.host(nil, "sh", "-c", `(printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"e2e","version":"0"}}}' '{"jsonrpc":"2.0","method":"initialized"}' '{"jsonrpc":"2.0","id":2,"method":"hooks/list","params":{"cwds":["`+p.dir+`"]}}'; sleep 3) | codex app-server 2>/dev/null | grep '"id":2'`)
	var trust strings.Builder
	for rest := out; ; {
		key := field(rest, "key")
		if key == "" {
			break
		}
		hash := field(rest, "currentHash")
		fmt.Fprintf(&trust, "\n[hooks.state.%q]\ntrusted_hash = %q\n", key, hash)
		_, rest, _ = strings.Cut(rest, `"currentHash":"`)
	}
	if trust.Len() == 0 {
		t.Fatalf("codex app-server listed no hook:\n%s", out)
	}
	return trust.String()
}

func field(s, name string) string {
	_, rest, ok := strings.Cut(s, `"`+name+`":"`)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, `"`)
	return v
}

func codexExec(t *testing.T, p *project) string {
	t.Helper()
	out, errOut, code := p.host(nil, cli(t, ".bin/codex"), "exec", "finish the work")
	if code != 0 {
		t.Fatalf("codex exec exited %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	return errOut
}

// The trust states doctor claims to detect, beside what Codex does: an untrusted hook is skipped
// without a word (doctor: problem, trustStatus "untrusted"); a trusted one blocks, continues and
// is released at gauntlet's retry limit (doctor: ok); an edited one is "modified" and skipped
// again (doctor: problem); trust recorded on a parent folder is not the project's (doctor:
// problem).
func TestCodexTrustStates(t *testing.T) {
	m := startModel(t)
	p, codexHome := codexProject(t, m, fmt.Sprintf(failingConfig, 2))

	writeCodexConfig(t, codexHome, m, p.dir, "")
	codexExec(t, p)
	if h := p.history(); len(h) != 0 || m.Requests() != 1 {
		t.Errorf("an untrusted hook ran: %s (%d model turns)", whys(h), m.Requests())
	}
	if out := p.gauntlet(1, "doctor", "--no-run", "--host", "codex"); !strings.Contains(out, `trustStatus "untrusted"`) {
		t.Errorf("doctor on the untrusted hook:\n%s", out)
	}

	hookTrust := codexTrustAll(t, p)
	writeCodexConfig(t, codexHome, m, p.dir, hookTrust)
	before := m.Requests()
	stderr := codexExec(t, p)
	if got := m.Requests() - before; got != 3 {
		t.Errorf("model turns = %d, want 3\n%s", got, stderr)
	}
	if got := whys(p.history()); got != "block/fail block/fail allow/retry_limit" {
		t.Errorf("history = %s\n%s", got, stderr)
	}
	if out := p.gauntlet(0, "doctor", "--no-run", "--host", "codex"); !strings.Contains(out, `trustStatus "trusted"`) {
		t.Errorf("doctor on the trusted hook:\n%s", out)
	}

	// The hook edited after it was trusted.
	hooks := filepath.Join(p.dir, ".codex", "hooks.json")
	data, err := os.ReadFile(hooks)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(hooks, []byte(strings.Replace(string(data), `"timeout": 600`, `"timeout": 650`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	n := len(p.history())
	codexExec(t, p)
	if got := len(p.history()); got != n {
		t.Errorf("a modified hook ran: %s", whys(p.history()))
	}
	if out := p.gauntlet(1, "doctor", "--no-run", "--host", "codex"); !strings.Contains(out, `trustStatus "modified"`) {
		t.Errorf("doctor on the modified hook:\n%s", out)
	}
	if err := os.WriteFile(hooks, data, 0o644); err != nil {
		t.Fatal(err)
	}

	// Trust on the parent folder only.
	writeCodexConfig(t, codexHome, m, filepath.Dir(p.dir), hookTrust)
	n = len(p.history())
	codexExec(t, p)
	ran := len(p.history()) != n
	out := p.gauntlet(1, "doctor", "--no-run", "--host", "codex")
	if !strings.Contains(out, "which Codex does not accept for a project below it") {
		t.Errorf("doctor on parent-folder trust:\n%s", out)
	}
	if ran {
		t.Errorf("Codex ran the hook with trust on the parent folder only, which doctor calls a problem: %s", whys(p.history()))
	}
}

// Codex's after-edit hooks, as gauntlet init writes them: PostToolUse runs gauntlet after-edit
// after the agent's shell command, whose judge runs the gates in the background (the gate sees
// GAUNTLET_HOOK_EVENT=AfterEdit) before the agent stops; the stop is answered with the verdict.
// SessionEnd runs within the 3 s Codex allows it, so Codex prints no clamping warning.
func TestCodexAfterEdit(t *testing.T) {
	m := startModel(t)
	events := filepath.Join(t.TempDir(), "events.log")
	config := fmt.Sprintf(`version: 1
gates:
  work:
    run: echo "$GAUNTLET_HOOK_EVENT" >> %s
`, events)
	p, codexHome := codexProject(t, m, config)
	// Turn 1 edits a file, turn 2 runs a command long enough for the judge's quiet period to pass,
	// turn 3 ends the turn.
	m.Calls = map[int64]fakemodel.Call{
		1: {Name: "exec_command", Args: map[string]any{"cmd": "echo more >> main.txt"}},
		2: {Name: "exec_command", Args: map[string]any{"cmd": "sleep 4"}},
	}
	writeCodexConfig(t, codexHome, m, p.dir, "")
	writeCodexConfig(t, codexHome, m, p.dir, codexTrustAll(t, p))
	stderr := codexExec(t, p)
	if !strings.Contains(stderr, "hook: PostToolUse") {
		t.Errorf("Codex ran no PostToolUse hook:\n%s", stderr)
	}
	if strings.Contains(stderr, "clamping SessionEnd hook timeout") {
		t.Errorf("init wrote a SessionEnd timeout Codex clamps:\n%s", stderr)
	}
	data, _ := os.ReadFile(events)
	if !strings.Contains(string(data), "AfterEdit") {
		t.Errorf("no background judge ran the gate (events: %q)\n%s", data, stderr)
	}
	if got := whys(p.history()); !strings.HasSuffix(got, "allow/pass") {
		t.Errorf("history = %s, want the stop allowed on a pass\n%s", got, stderr)
	}
}
