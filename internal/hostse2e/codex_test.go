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
	bin := cli(t, ".bin/codex")
	p := newProject(t, "codex", config, m)
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

// codexHookTrust asks Codex (through doctor's own client) for the hook's key and current hash,
// as its /hooks screen records them when the user trusts the hook.
func codexHookTrust(t *testing.T, p *project) string {
	t.Helper()
	out, _, _ := p.host(nil, "sh", "-c", `(printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"e2e","version":"0"}}}' '{"jsonrpc":"2.0","method":"initialized"}' '{"jsonrpc":"2.0","id":2,"method":"hooks/list","params":{"cwds":["`+p.dir+`"]}}'; sleep 3) | codex app-server 2>/dev/null | grep '"id":2'`)
	key, hash := field(out, "key"), field(out, "currentHash")
	if key == "" || hash == "" {
		t.Fatalf("codex app-server listed no hook:\n%s", out)
	}
	return fmt.Sprintf("\n[hooks.state.%q]\ntrusted_hash = %q\n", key, hash)
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

	hookTrust := codexHookTrust(t, p)
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
