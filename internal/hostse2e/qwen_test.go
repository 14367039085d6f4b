//go:build hostse2e

package hostse2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/hostse2e/fakemodel"
)

// qwenRun runs Qwen Code headless in the project against the fake model (its OpenAI-compatible
// provider, every tool approved), and fails the test when it does not end well.
func qwenRun(t *testing.T, p *project, m *fakemodel.Server, env []string, prompt string) string {
	t.Helper()
	bin := cli(t, "@qwen-code/qwen-code/cli.js")
	env = append([]string{"OPENAI_API_KEY=sk-e2e-fake", "OPENAI_BASE_URL=" + m.URL + "/v1", "OPENAI_MODEL=gpt-fake",
		"QWEN_CODE_SUPPRESS_YOLO_WARNING=1"}, env...)
	out, errOut, code := p.host(env, "node", bin, "--auth-type", "openai", "--approval-mode", "yolo", "-o", "json", prompt)
	if code != 0 {
		t.Fatalf("qwen exited %d\nstdout: %s\nstderr: %s", code, tail(out, 3000), errOut)
	}
	return out
}

// Block, continue, and release at gauntlet's retry limit: each block sends Qwen Code back to work
// with the reason as the next request's prompt, and the limit lets it stop.
func TestQwenBlockContinueRelease(t *testing.T) {
	m := startModel(t)
	p := newProject(t, "qwen", fmt.Sprintf(failingConfig, 2), m)
	qwenRun(t, p, m, nil, "finish the work")
	if got := m.Requests(); got != 3 {
		t.Errorf("model turns = %d, want 3 (the turn, and one more per block)", got)
	}
	if got := whys(p.history()); got != "block/fail block/fail allow/retry_limit" {
		t.Errorf("history = %s", got)
	}
	if bodies := m.Bodies(); len(bodies) < 2 || !strings.Contains(bodies[1], "main.txt:1: the work is not done") {
		t.Errorf("the model's second request does not carry the block's reason")
	}
	out := p.gauntlet(0, "doctor", "--no-run", "--host", "qwen")
	if !strings.Contains(out, "Qwen Code ends the turn on the 8th consecutive block") {
		t.Errorf("doctor does not state Qwen Code's cap:\n%s", out)
	}
}

// Blocked, the agent does the work (the model asks for write_file), and the next stop passes;
// the session-start hook init installs pinned the session's base before the agent acted.
func TestQwenContinueToPass(t *testing.T) {
	m := startModel(t)
	p := newProject(t, "qwen", `version: 1
gates:
  done:
    run: "test -f done.txt || { echo 'done.txt: missing: the work is not done'; exit 1; }"
`, m)
	m.ChatCalls = map[int64]fakemodel.Call{2: {Name: "write_file", Args: map[string]any{"file_path": p.dir + "/done.txt", "content": "done\n"}}}
	qwenRun(t, p, m, nil, "finish the work")
	if got := m.Requests(); got != 3 {
		t.Errorf("model turns = %d, want 3 (end, write after the block, end)", got)
	}
	if got := whys(p.history()); got != "block/fail allow/pass" {
		t.Errorf("history = %s", got)
	}
	if got := strings.Join(p.pins(), " "); got != "session start" {
		t.Errorf("session pins = %q, want one pinned at the session's start", got)
	}
}

// Qwen Code's own cap (QWEN_CODE_STOP_HOOK_BLOCK_CAP, 8 by default) ends the turn at its Nth
// block while gauntlet still blocks; doctor warns about a max_attempts above it.
func TestQwenOwnCap(t *testing.T) {
	m := startModel(t)
	p := newProject(t, "qwen", fmt.Sprintf(failingConfig, 6), m)
	capEnv := []string{"QWEN_CODE_STOP_HOOK_BLOCK_CAP=2"}
	qwenRun(t, p, m, capEnv, "finish the work")
	if got := m.Requests(); got != 2 {
		t.Errorf("model turns = %d, want 2: Qwen Code ends the turn at its second block", got)
	}
	if got := whys(p.history()); got != "block/fail block/fail" {
		t.Errorf("history = %s", got)
	}
	p.env = append(p.env, capEnv...)
	out := p.gauntlet(0, "doctor", "--no-run", "--host", "qwen")
	if !strings.Contains(out, "stop_hook.max_attempts 6 is above the host's cap (Qwen Code ends the turn on the 2nd consecutive block") {
		t.Errorf("doctor does not warn about the cap:\n%s", out)
	}
}

// The edit guard in the real Qwen Code: write_file dropping a test and edit skipping one, then a
// run_shell_command committing with --no-verify, are denied by gauntlet pre-edit (PreToolUse,
// installed by init) before they run, and each next model request carries the reason; the
// honest twin (a test added with edit) runs.
func TestQwenPreEditDeniesWeakening(t *testing.T) {
	m := startModel(t)
	p := newProjectWith(t, "qwen", "version: 1\ngates:\n  ok:\n    run: \"true\"\n", map[string]string{"lib_test.go": libTests})
	p.run("git", "add", "-A")
	p.run("git", "-c", "user.email=e2e@example.com", "-c", "user.name=e2e", "commit", "-q", "-m", "tests")
	path := p.dir + "/lib_test.go"
	added := libTests + "\nfunc TestTwo(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal(\"1+1\")\n\t}\n}\n"
	m.ChatCalls = map[int64]fakemodel.Call{
		1: {Name: "read_file", Args: map[string]any{"file_path": path}}, // write_file wants the file read first
		2: {Name: "write_file", Args: map[string]any{"file_path": path, "content": strings.Split(libTests, "\nfunc TestZero")[0]}},
		3: {Name: "edit", Args: map[string]any{"file_path": path, "old_string": "\tif 0+0 != 0 {", "new_string": "\tt.Skip(\"later\")\n\tif 0+0 != 0 {"}},
		4: {Name: "run_shell_command", Args: map[string]any{"command": "git commit --no-verify -am wip"}},
		5: {Name: "write_file", Args: map[string]any{"file_path": path, "content": added}},
	}
	qwenRun(t, p, m, nil, "tidy the tests")
	bodies := m.Bodies()
	if len(bodies) < 6 {
		t.Fatalf("model requests = %d, want at least 6 (read, write, edit, shell, write, end)", len(bodies))
	}
	for i, want := range map[int]string{2: "this edit would weaken the gates", 3: "this edit would weaken the gates", 4: "this command would get around the checks"} {
		if got := lastMessage(t, bodies[i]); !strings.Contains(got, "gauntlet pre-edit: "+want) {
			t.Errorf("request %d does not carry the denial %q: %s", i+1, want, got)
		}
	}
	if got := lastMessage(t, bodies[5]); strings.Contains(got, "gauntlet pre-edit") {
		t.Errorf("the honest twin was refused: %s", got)
	}
	if data := p.read("lib_test.go"); data != added {
		t.Errorf("lib_test.go is not the honest twin's content:\n%s", data)
	}
	if log := p.run("git", "log", "--oneline"); strings.Count(log, "\n") != 2 {
		t.Errorf("a commit was made:\n%s", log)
	}
}

// lastMessage is the last message of a chat-completions request: the result of the tool the
// model called before.
func lastMessage(t *testing.T, body string) string {
	t.Helper()
	var req struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal([]byte(body), &req); err != nil || len(req.Messages) == 0 {
		t.Fatalf("not a chat-completions request: %v", err)
	}
	return string(req.Messages[len(req.Messages)-1])
}

// libTests is a Go test file with two tests, for the edit guard's cases.
const libTests = "package lib\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif 1+2 != 3 {\n\t\tt.Fatal(\"1+2\")\n\t}\n}\n\nfunc TestZero(t *testing.T) {\n\tif 0+0 != 0 {\n\t\tt.Fatal(\"0+0\")\n\t}\n}\n"

// The after-edit hook init installs on PostToolUse: the model's shell command edits a file, and
// a background judge runs the gate (GAUNTLET_HOOK_EVENT AfterEdit) before the stop, which passes.
func TestQwenAfterEdit(t *testing.T) {
	m := startModel(t)
	events := filepath.Join(t.TempDir(), "events.log")
	p := newProject(t, "qwen", fmt.Sprintf("version: 1\ngates:\n  work:\n    run: echo \"$GAUNTLET_HOOK_EVENT\" >> %s\n", events), m)
	// Turn 2 runs long enough for the judge's quiet period to pass (Qwen Code refuses a bare sleep
	// unless a trailing "# intentional-sleep:" comment says why).
	m.ChatCalls = map[int64]fakemodel.Call{
		1: {Name: "run_shell_command", Args: map[string]any{"command": "echo more >> main.txt"}},
		2: {Name: "run_shell_command", Args: map[string]any{"command": "sleep 4 # intentional-sleep: the judge's quiet period passes"}},
	}
	qwenRun(t, p, m, nil, "finish the work")
	if data, _ := os.ReadFile(events); !strings.Contains(string(data), "AfterEdit") {
		t.Errorf("no background judge ran the gate (events: %q)", data)
	}
	if got := whys(p.history()); !strings.HasSuffix(got, "allow/pass") {
		t.Errorf("history = %s, want the stop allowed on a pass", got)
	}
}
