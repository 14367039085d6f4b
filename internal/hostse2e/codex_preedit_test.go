//go:build hostse2e

package hostse2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/hostse2e/fakemodel"
)

// The edit guard in the real Codex: with gpt-5.5 (a model whose metadata Codex ships, and whose
// apply_patch is a freeform tool) the model sends an apply_patch removing a test and a shell
// git commit --no-verify; gauntlet pre-edit (PreToolUse, installed by init and trusted) refuses
// both before they run, each next request carrying the reason; the honest twin, a patch adding
// a test, is applied.
func TestCodexPreEditDeniesWeakening(t *testing.T) {
	m := startModel(t)
	p, codexHome := codexProject(t, m, "version: 1\ngates:\n  ok:\n    run: \"true\"\n")
	p.write("lib_test.go", libTests)
	p.run("git", "add", "-A")
	p.run("git", "-c", "user.email=e2e@example.com", "-c", "user.name=e2e", "commit", "-q", "-m", "tests")
	remove := "*** Begin Patch\n*** Update File: lib_test.go\n@@\n \t}\n }\n-\n-func TestZero(t *testing.T) {\n-\tif 0+0 != 0 {\n-\t\tt.Fatal(\"0+0\")\n-\t}\n-}\n*** End Patch\n"
	add := "*** Begin Patch\n*** Update File: lib_test.go\n@@\n \t\tt.Fatal(\"0+0\")\n \t}\n }\n+\n+func TestTwo(t *testing.T) {}\n*** End Patch\n"
	m.Calls = map[int64]fakemodel.Call{
		1: {Name: "apply_patch", Input: remove},
		2: {Name: "exec_command", Args: map[string]any{"cmd": "git commit --no-verify -am wip"}},
		3: {Name: "apply_patch", Input: add},
	}
	writeCodexConfig(t, codexHome, m, p.dir, "")
	writeCodexConfig(t, codexHome, m, p.dir, codexTrustAll(t, p))
	cfgPath := filepath.Join(codexHome, "config.toml")
	cfg := mustRead(t, cfgPath)
	if err := os.WriteFile(cfgPath, []byte(strings.Replace(cfg, `model = "gpt-fake"`, `model = "gpt-5.5"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := p.host(nil, cli(t, ".bin/codex"), "exec", "tidy the tests")
	if code != 0 {
		t.Fatalf("codex exited %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	bodies := m.Bodies()
	if len(bodies) < 4 {
		t.Fatalf("model requests = %d, want at least 4 (patch, shell, patch, end)\nstderr: %s", len(bodies), errOut)
	}
	denials := func(i int) int { return strings.Count(bodies[i], "gauntlet pre-edit: this ") }
	if denials(1) != 1 || !strings.Contains(bodies[1], "gauntlet pre-edit: this edit would weaken the gates") {
		t.Errorf("request 2 does not carry the patch's denial: %s", tail(bodies[1], 1500))
	}
	if denials(2) != 2 || !strings.Contains(bodies[2], "gauntlet pre-edit: this command would get around the checks") {
		t.Errorf("request 3 does not carry the command's denial: %s", tail(bodies[2], 1500))
	}
	if denials(3) != 2 {
		t.Errorf("the honest patch was refused: %s", tail(bodies[3], 1500))
	}
	want := libTests + "\nfunc TestTwo(t *testing.T) {}\n"
	if got := p.read("lib_test.go"); got != want {
		t.Errorf("lib_test.go:\n%s\nwant\n%s", got, want)
	}
	if log := p.run("git", "log", "--oneline"); strings.Count(log, "\n") != 2 {
		t.Errorf("a commit was made:\n%s", log)
	}
}
