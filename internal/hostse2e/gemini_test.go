//go:build hostse2e

package hostse2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Gemini CLI: folder trust is on by default, so with no trusted folder it refuses to run in the
// project (doctor: problem); trusted in ~/.gemini/trustedFolders.json, its AfterAgent hook blocks,
// continues and is released at gauntlet's retry limit (doctor: ok). The project's settings keep
// the comments they had before init merged the hook into them, and Gemini CLI reads them.
func TestGeminiTrustAndLoop(t *testing.T) {
	bin := cli(t, "@google/gemini-cli/bundle/gemini.js")
	m := startModel(t)
	base := t.TempDir()
	// Settings with comments, as a user writes them, before init.
	pre := filepath.Join(base, "settings.json")
	if err := os.WriteFile(pre, []byte("{\n  // the project's own settings\n  \"ui\": {\"hideTips\": true},\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := newProjectWith(t, "gemini", fmt.Sprintf(failingConfig, 2), map[string]string{".gemini/settings.json": mustRead(t, pre)})
	settings := mustRead(t, filepath.Join(p.dir, ".gemini", "settings.json"))
	if !strings.Contains(settings, "// the project's own settings") || !strings.Contains(settings, "AfterAgent") {
		t.Fatalf("init lost the comments or added no hook:\n%s", settings)
	}
	gem := filepath.Join(p.home, ".gemini")
	// Sign-in by API key; no update check or usage statistics, which would wait on the network.
	p.write("../home/.gemini/settings.json", `{"security": {"auth": {"selectedType": "gemini-api-key"}}, "general": {"disableAutoUpdate": true, "disableUpdateNag": true}, "privacy": {"usageStatisticsEnabled": false}, "telemetry": {"enabled": false}}`)
	env := []string{"GEMINI_API_KEY=fake", "GOOGLE_GEMINI_BASE_URL=" + m.URL}

	out, errOut, code := p.host(env, "node", bin, "-p", "finish the work")
	if code == 0 {
		t.Errorf("Gemini CLI ran in an untrusted folder\nstdout: %s\nstderr: %s", out, errOut)
	}
	if h := p.history(); len(h) != 0 {
		t.Errorf("the hook ran in an untrusted folder: %s", whys(h))
	}
	if d := p.gauntlet(1, "doctor", "--no-run", "--host", "gemini"); !strings.Contains(d, "folder trust is on (Gemini CLI's default)") {
		t.Errorf("doctor on the untrusted folder:\n%s", d)
	}

	if err := os.WriteFile(filepath.Join(gem, "trustedFolders.json"), []byte(fmt.Sprintf(`{%q: "TRUST_FOLDER"}`, p.dir)), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = p.host(env, "node", bin, "-p", "finish the work")
	if code != 0 {
		t.Fatalf("gemini exited %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	if got := whys(p.history()); got != "block/fail block/fail allow/retry_limit" {
		t.Errorf("history = %s\nstderr: %s", got, errOut)
	}
	if d := p.gauntlet(0, "doctor", "--no-run", "--host", "gemini"); !strings.Contains(d, "trustedFolders.json trusts") {
		t.Errorf("doctor on the trusted folder:\n%s", d)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
