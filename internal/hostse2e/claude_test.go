//go:build hostse2e

package hostse2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/hostse2e/fakemodel"
)

func claudeCLI(t *testing.T) string {
	return cli(t, "@anthropic-ai/claude-code-linux-x64/claude")
}

// claudeEnv points Claude Code at the fake model and keeps it off the network otherwise.
func claudeEnv(m *fakemodel.Server, extra ...string) []string {
	return append([]string{"ANTHROPIC_BASE_URL=" + m.URL, "ANTHROPIC_API_KEY=sk-e2e-fake",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1"}, extra...)
}

func claudePrint(t *testing.T, p *project, m *fakemodel.Server, env []string, args ...string) (session string) {
	t.Helper()
	out, errOut, code := p.host(append(claudeEnv(m), env...), claudeCLI(t), append([]string{"-p", "--output-format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("claude exited %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	var res struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("claude's output is not JSON: %v\n%s", err, out)
	}
	return res.SessionID
}

// Block, continue, and release at gauntlet's retry limit: each block sends Claude Code back to
// work (one more model turn), and the limit lets it stop.
func TestClaudeBlockContinueRelease(t *testing.T) {
	m := startModel(t)
	p := newProject(t, "claude", fmt.Sprintf(failingConfig, 2), m)
	claudePrint(t, p, m, nil, "finish the work")
	if got := m.Requests(); got != 3 {
		t.Errorf("model turns = %d, want 3 (the turn, and one more per block)", got)
	}
	if got := whys(p.history()); got != "block/fail block/fail allow/retry_limit" {
		t.Errorf("history = %s", got)
	}
	out := p.gauntlet(0, "doctor", "--no-run", "--host", "claude")
	if !strings.Contains(out, "Claude Code ends the turn after 8 consecutive blocks") {
		t.Errorf("doctor does not state Claude Code's cap:\n%s", out)
	}
}

// Blocked, the agent does the work (the model asks for Claude Code's Write tool), and the next
// stop passes.
func TestClaudeContinueToPass(t *testing.T) {
	m := startModel(t)
	p := newProject(t, "claude", `version: 1
gates:
  done:
    run: "test -f done.txt || { echo 'done.txt: missing: the work is not done'; exit 1; }"
`, m)
	m.Writes = map[int64]fakemodel.Write{2: {Path: p.dir + "/done.txt", Content: "done\n"}}
	claudePrint(t, p, m, nil, "--permission-mode", "acceptEdits", "finish the work")
	if got := m.Requests(); got != 3 {
		t.Errorf("model turns = %d, want 3 (end, write after the block, end)", got)
	}
	if got := whys(p.history()); got != "block/fail allow/pass" {
		t.Errorf("history = %s", got)
	}
	// The session-start hook init installs pinned the session's base before the agent acted.
	if got := strings.Join(p.pins(), " "); got != "session start" {
		t.Errorf("session pins = %q, want one pinned at the session's start", got)
	}
}

// Claude Code's own cap ends the turn while gauntlet still blocks (max_attempts above it, the
// cap lowered to 2 by its variable). doctor warns about exactly that; the session's next stop
// records the release the host made, and status names it.
func TestClaudeOwnCapIsARelease(t *testing.T) {
	m := startModel(t)
	p := newProject(t, "claude", fmt.Sprintf(failingConfig, 6), m)
	capEnv := []string{"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=2"}
	session := claudePrint(t, p, m, capEnv, "finish the work")
	if got := m.Requests(); got != 3 {
		t.Errorf("model turns = %d, want 3: Claude Code ends the turn at its third block", got)
	}
	if got := whys(p.history()); got != "block/fail block/fail block/fail" {
		t.Errorf("history after the first turn = %s", got)
	}
	p.env = append(p.env, capEnv...)
	out := p.gauntlet(0, "doctor", "--no-run", "--host", "claude")
	if !strings.Contains(out, "stop_hook.max_attempts 6 is above the host's cap (Claude Code ends the turn after 2 consecutive blocks") {
		t.Errorf("doctor does not warn about the cap:\n%s", out)
	}
	claudePrint(t, p, m, capEnv, "--resume", session, "go on")
	h := p.history()
	if len(h) < 4 || h[3].Why != "host_release" || h[3].Attempt != 3 {
		t.Fatalf("the host's release is not recorded: %s", whys(h))
	}
	if st := p.gauntlet(0, "status"); !strings.Contains(st, "let go by the host after block 3") {
		t.Errorf("status does not name the release:\n%s", st)
	}
}

// disableAllHooks: Claude Code runs no hook, and doctor says so as a problem.
func TestClaudeDisableAllHooks(t *testing.T) {
	m := startModel(t)
	p := newProject(t, "claude", fmt.Sprintf(failingConfig, 2), m)
	p.write(".claude/settings.json", `{"disableAllHooks": true}`)
	claudePrint(t, p, m, nil, "finish the work")
	if got := m.Requests(); got != 1 {
		t.Errorf("model turns = %d, want 1: no hook ran", got)
	}
	if h := p.history(); len(h) != 0 {
		t.Errorf("the hook ran: %s", whys(h))
	}
	out := p.gauntlet(1, "doctor", "--no-run", "--host", "claude")
	if !strings.Contains(out, `sets "disableAllHooks": true`) {
		t.Errorf("doctor misses disableAllHooks:\n%s", out)
	}
}

// The edit guard in the real Claude Code: the model reads the test file and asks Write to replace
// it without its second test, then asks Bash for a commit with --no-verify. gauntlet pre-edit
// (PreToolUse, installed by init) denies both before they run: the file keeps its test, no commit
// is made, and each next model request carries the reason as the tool's result.
func TestClaudePreEditDeniesWeakening(t *testing.T) {
	m := startModel(t)
	tests := "package lib\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif 1+2 != 3 {\n\t\tt.Fatal(\"1+2\")\n\t}\n}\n\nfunc TestZero(t *testing.T) {\n\tif 0+0 != 0 {\n\t\tt.Fatal(\"0+0\")\n\t}\n}\n"
	p := newProjectWith(t, "claude", "version: 1\ngates:\n  ok:\n    run: \"true\"\n", map[string]string{"lib_test.go": tests})
	p.run("git", "add", "-A")
	p.run("git", "-c", "user.email=e2e@example.com", "-c", "user.name=e2e", "commit", "-q", "-m", "tests")
	path := p.dir + "/lib_test.go"
	m.ToolUses = map[int64]fakemodel.Call{
		1: {Name: "Read", Args: map[string]any{"file_path": path}},
		3: {Name: "Bash", Args: map[string]any{"command": "git commit --no-verify -am wip"}},
	}
	m.Writes = map[int64]fakemodel.Write{2: {Path: path, Content: strings.Split(tests, "\nfunc TestZero")[0]}}
	claudePrint(t, p, m, nil, "--permission-mode", "acceptEdits", "tidy the tests")
	if data := p.read("lib_test.go"); data != tests {
		t.Errorf("the denied Write changed lib_test.go:\n%s", data)
	}
	bodies := m.Bodies()
	if len(bodies) < 4 {
		t.Fatalf("model requests = %d, want at least 4 (read, write, bash, end)", len(bodies))
	}
	for i, want := range map[int]string{2: "this edit would weaken the gates", 3: "this command would get around the checks"} {
		if !strings.Contains(bodies[i], "gauntlet pre-edit: "+want) {
			t.Errorf("request %d does not carry the denial %q:\n%s", i+1, want, tail(bodies[i], 2000))
		}
	}
	if log := p.run("git", "log", "--oneline"); strings.Count(log, "\n") != 2 {
		t.Errorf("a commit was made:\n%s", log)
	}
}

// read is a project file's content ("" when it cannot be read).
func (p *project) read(rel string) string {
	data, _ := os.ReadFile(filepath.Join(p.dir, filepath.FromSlash(rel)))
	return string(data)
}

// tail is the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}

// What Claude Code's Stop sends, as the hosts table says it: prompt_id (by which gauntlet counts
// blocks per prompt), and background_tasks and session_crons (read to say that the stop was
// judged while work still ran). A second Stop hook beside gauntlet's keeps the payload.
func TestClaudeStopPayloadFields(t *testing.T) {
	m := startModel(t)
	p := newProject(t, "claude", "version: 1\ngates:\n  ok:\n    run: \"true\"\n", m)
	p.write(".claude/settings.json", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"cat > stop-payload.json"}]}]}}`)
	claudePrint(t, p, m, nil, "finish the work")
	var payload map[string]json.RawMessage
	if err := json.Unmarshal([]byte(p.read("stop-payload.json")), &payload); err != nil {
		t.Fatalf("the Stop payload: %v\n%s", err, p.read("stop-payload.json"))
	}
	for _, key := range []string{"session_id", "prompt_id", "hook_event_name", "background_tasks", "session_crons"} {
		if _, ok := payload[key]; !ok {
			t.Errorf("Claude Code's Stop payload has no %s: %s", key, p.read("stop-payload.json"))
		}
	}
	t.Logf("Claude Code's Stop payload keys: %v", keysOf(payload))
}

func keysOf(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
