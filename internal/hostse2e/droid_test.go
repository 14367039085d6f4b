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

// droidRun runs Factory Droid headless (droid exec, high autonomy) in the project with the fake
// model as a bring-your-own-key custom model in the user's settings: no Factory account.
func droidRun(t *testing.T, p *project, m *fakemodel.Server, prompt string) string {
	t.Helper()
	bin := cli(t, "@factory/cli-linux-x64/bin/droid")
	p.write("../home/.factory/settings.json", fmt.Sprintf(`{"customModels": [{"model": "gpt-fake", "displayName": "Fake",
  "baseUrl": %q, "apiKey": "sk-e2e-fake", "provider": "generic-chat-completion-api", "maxOutputTokens": 1000}]}`, m.URL+"/v1"))
	out, errOut, code := p.host(nil, bin, "exec", "-m", "custom:gpt-fake", "--auto", "high", prompt)
	if code != 0 {
		t.Fatalf("droid exited %d\nstdout: %s\nstderr: %s", code, tail(out, 3000), errOut)
	}
	return out
}

// Block, continue, and release at gauntlet's retry limit, from the hook init writes in
// .factory/settings.json; Droid sends each block's reason to the model and has no cap of its
// own. A hook under "hooks" in .factory/hooks.json (where init used to write it) never runs.
func TestDroidBlockContinueRelease(t *testing.T) {
	m := startModel(t)
	p := newProject(t, "droid", fmt.Sprintf(failingConfig, 2), m)
	p.write(".factory/hooks.json", `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "touch hooks-json-ran"}]}]}}`)
	droidRun(t, p, m, "finish the work")
	if got := m.Requests(); got != 3 {
		t.Errorf("model turns = %d, want 3 (the turn, and one more per block)", got)
	}
	if got := whys(p.history()); got != "block/fail block/fail allow/retry_limit" {
		t.Errorf("history = %s", got)
	}
	if bodies := m.Bodies(); len(bodies) < 2 || !strings.Contains(lastMessage(t, bodies[1]), "main.txt:1: the work is not done") {
		t.Errorf("the model's second request does not carry the block's reason")
	}
	if _, err := os.Stat(filepath.Join(p.dir, "hooks-json-ran")); err == nil {
		t.Errorf(`Droid ran a hook from .factory/hooks.json's "hooks" object`)
	}
	if got := strings.Join(p.pins(), " "); got != "session start" {
		t.Errorf("session pins = %q, want one pinned at the session's start", got)
	}
	p.gauntlet(0, "doctor", "--no-run", "--host", "droid")
}

// The edit guard in the real Droid: Edit removing a test, Edit skipping one (change_all), and an
// Execute committing with --no-verify are denied by gauntlet pre-edit before they run, each
// next request carrying the reason; the honest twin (Create of a new test file) runs.
func TestDroidPreEditDeniesWeakening(t *testing.T) {
	m := startModel(t)
	p := newProjectWith(t, "droid", "version: 1\ngates:\n  ok:\n    run: \"true\"\n", map[string]string{"lib_test.go": libTests})
	p.run("git", "add", "-A")
	p.run("git", "-c", "user.email=e2e@example.com", "-c", "user.name=e2e", "commit", "-q", "-m", "tests")
	path := p.dir + "/lib_test.go"
	zero := "\nfunc TestZero" + strings.Split(libTests, "\nfunc TestZero")[1]
	twin := "package lib\n\nimport \"testing\"\n\nfunc TestTwo(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal(\"1+1\")\n\t}\n}\n"
	m.ChatCalls = map[int64]fakemodel.Call{
		1: {Name: "Edit", Args: map[string]any{"file_path": path, "old_str": zero, "new_str": ""}},
		2: {Name: "Edit", Args: map[string]any{"file_path": path, "old_str": "\tif 0+0 != 0 {", "new_str": "\tt.Skip(\"later\")\n\tif 0+0 != 0 {", "change_all": true}},
		3: {Name: "Execute", Args: map[string]any{"command": "git commit --no-verify -am wip", "summary": "Commit the work in progress",
			"riskLevelReason": "It only records a commit.", "riskLevel": "low"}},
		4: {Name: "Create", Args: map[string]any{"file_path": p.dir + "/two_test.go", "content": twin}},
	}
	droidRun(t, p, m, "tidy the tests")
	bodies := m.Bodies()
	if len(bodies) < 5 {
		t.Fatalf("model requests = %d, want at least 5 (edit, edit, execute, create, end)", len(bodies))
	}
	for i, want := range map[int]string{1: "this edit would weaken the gates", 2: "this edit would weaken the gates", 3: "this command would get around the checks"} {
		if got := lastMessage(t, bodies[i]); !strings.Contains(got, "gauntlet pre-edit: "+want) {
			t.Errorf("request %d does not carry the denial %q: %s", i+1, want, got)
		}
	}
	if got := lastMessage(t, bodies[4]); strings.Contains(got, "gauntlet pre-edit") {
		t.Errorf("the honest twin was refused: %s", got)
	}
	if data := p.read("lib_test.go"); data != libTests {
		t.Errorf("a denied edit changed lib_test.go:\n%s", data)
	}
	if p.read("two_test.go") != twin {
		t.Errorf("the honest twin did not write two_test.go")
	}
	if log := p.run("git", "log", "--oneline"); strings.Count(log, "\n") != 2 {
		t.Errorf("a commit was made:\n%s", log)
	}
}

// The after-edit hook init installs on PostToolUse: the model's Execute edits a file, and a
// background judge runs the gate (GAUNTLET_HOOK_EVENT AfterEdit) before the stop, which passes.
func TestDroidAfterEdit(t *testing.T) {
	m := startModel(t)
	events := filepath.Join(t.TempDir(), "events.log")
	p := newProject(t, "droid", fmt.Sprintf("version: 1\ngates:\n  work:\n    run: echo \"$GAUNTLET_HOOK_EVENT\" >> %s\n", events), m)
	execute := func(command string) fakemodel.Call {
		return fakemodel.Call{Name: "Execute", Args: map[string]any{"command": command, "summary": "Run the next step",
			"riskLevelReason": "It only touches the project.", "riskLevel": "low"}}
	}
	// Turn 2 runs long enough for the judge's quiet period to pass.
	m.ChatCalls = map[int64]fakemodel.Call{1: execute("echo more >> main.txt"), 2: execute("sleep 4")}
	droidRun(t, p, m, "finish the work")
	if data, _ := os.ReadFile(events); !strings.Contains(string(data), "AfterEdit") {
		t.Errorf("no background judge ran the gate (events: %q)", data)
	}
	if got := whys(p.history()); !strings.HasSuffix(got, "allow/pass") {
		t.Errorf("history = %s, want the stop allowed on a pass", got)
	}
}
