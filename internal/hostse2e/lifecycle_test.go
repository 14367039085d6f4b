//go:build hostse2e

package hostse2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/hostse2e/fakemodel"
)

// captureHooks puts a gauntlet in front of the real one on the project's PATH that appends each
// call's arguments and payload to a log, then runs the real gauntlet on the same payload: the
// host's own payloads, kept for the test's messages and for the testscripts that replay them.
func captureHooks(t *testing.T, p *project) string {
	t.Helper()
	dir := t.TempDir()
	log := filepath.Join(dir, "hooks.log")
	script := fmt.Sprintf("#!/bin/sh\nin=$(cat)\nprintf '%%s\\t%%s\\n' \"$*\" \"$in\" >> %q\nprintf '%%s' \"$in\" | exec %q \"$@\"\n", log, gauntletBin)
	if err := os.WriteFile(filepath.Join(dir, "gauntlet"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, kv := range p.env {
		if strings.HasPrefix(kv, "PATH=") {
			p.env[i] = "PATH=" + dir + ":" + strings.TrimPrefix(kv, "PATH=")
		}
	}
	return log
}

// hookCalls is the captured log: one "arguments<TAB>payload" line per hook call.
func hookCalls(t *testing.T, log string) string {
	t.Helper()
	data, _ := os.ReadFile(log)
	return string(data)
}

// commits counts the commits on HEAD.
func (p *project) commits() int {
	return strings.Count(p.run("git", "log", "--oneline"), "\n")
}

// pin is one session record: the host it was filed under (the session key's prefix) and how it
// was pinned.
type pin struct{ Host, How string }

func (p *project) pinRecords() []pin {
	p.t.Helper()
	files, _ := filepath.Glob(filepath.Join(p.home, ".local", "state", "gauntlet", "projects", "*", "sessions", "*.json"))
	var out []pin
	for _, f := range files {
		if strings.HasSuffix(f, ".advance.json") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			p.t.Fatal(err)
		}
		var r struct{ Session, How string }
		if json.Unmarshal(data, &r) == nil {
			host, _, _ := strings.Cut(r.Session, "/")
			out = append(out, pin{host, r.How})
		}
	}
	return out
}

// geminiProject is a project with gauntlet's hooks for Gemini CLI, trusted, signed in by API key
// against the fake model, with a git identity for the agent's commits.
func geminiProject(t *testing.T, config string, files map[string]string) (p *project, bin string, env func(*fakemodel.Server) []string) {
	t.Helper()
	bin = cli(t, "@google/gemini-cli/bundle/gemini.js")
	p = newProjectWith(t, "gemini", config, files)
	p.write("../home/.gemini/settings.json", `{"security": {"auth": {"selectedType": "gemini-api-key"}}, "general": {"disableAutoUpdate": true, "disableUpdateNag": true}, "privacy": {"usageStatisticsEnabled": false}, "telemetry": {"enabled": false}}`)
	p.write("../home/.gemini/trustedFolders.json", fmt.Sprintf(`{%q: "TRUST_FOLDER"}`, p.dir))
	// The repository's own identity: Gemini CLI's shell does not pass HOME's git settings on.
	commitProject(p)
	return p, bin, func(m *fakemodel.Server) []string {
		return []string{"GEMINI_API_KEY=fake", "GOOGLE_GEMINI_BASE_URL=" + m.URL}
	}
}

// commitProject commits the project as init left it, under an identity of the repository's own
// (the hosts' shells do not all pass HOME's git settings on), which the agent's commits use too.
func commitProject(p *project) {
	p.t.Helper()
	p.run("git", "config", "user.email", "agent@example.com")
	p.run("git", "config", "user.name", "agent")
	p.run("git", "add", "-A")
	p.run("git", "commit", "-q", "-m", "the project")
}

// outside writes a shell script outside the project, for the model to run: what it does is not
// in the command line the edit guard reads, as an agent's script would not be.
func outside(t *testing.T, name, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte("set -e\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// geminiArgs run one headless turn whose tools all run, on a model named (no routing request,
// which the fake model cannot answer and Gemini CLI retries for minutes).
var geminiArgs = []string{"--approval-mode", "yolo", "-m", "gemini-2.5-flash", "-p", "finish the work"}

const pinConfig = `version: 1
stop_hook:
  max_attempts: 1
gates:
  ok:
    run: "true"
`

const calcTest = "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {}\n"

// The example of issue 40 with Gemini CLI's own payloads: the session start pins the base under
// Gemini, and a test dropped and committed before the first stop is the change's, so the stop
// blocks it; an honest commit is allowed. The entries an older init wrote, without --host, find
// the same pin through detection. Nothing of gauntlet's runs in the project once Gemini exits.
func TestGeminiSessionPin(t *testing.T) {
	for _, tc := range pinCases {
		t.Run(tc.name, func(t *testing.T) {
			m := startModel(t)
			p, bin, env := geminiProject(t, pinConfig, map[string]string{"calc_test.go": calcTest})
			if tc.auto {
				p.write(".gemini/settings.json", strings.ReplaceAll(p.read(".gemini/settings.json"), " --host gemini", ""))
				p.run("git", "commit", "-q", "-am", "the entries an older init wrote")
			}
			log, before := captureHooks(t, p), p.commits()
			m.GeminiCalls = map[int64]fakemodel.Call{
				1: {Name: "run_shell_command", Args: map[string]any{"command": "sh " + outside(t, "work.sh", tc.script)}},
			}
			out, errOut, code := p.host(env(m), "node", append([]string{bin}, geminiArgs...)...)
			t.Logf("Gemini CLI's hook calls:\n%s", hookCalls(t, log))
			if code != 0 {
				t.Fatalf("gemini exited %d\nstdout: %s\nstderr: %s", code, out, errOut)
			}
			checkPinnedStop(t, p, before, "gemini", tc.want, errOut)
		})
	}
}

// checkPinnedStop checks a session whose model committed once before its first stop: the one
// record pinned at the session's start under host, the first stop's decision, and nothing left
// running in the project.
func checkPinnedStop(t *testing.T, p *project, before int, host, want, hostOut string) {
	t.Helper()
	if n := p.commits(); n != before+1 {
		t.Fatalf("the model's commit was not made (%d commits, %d before)\n%s", n, before, hostOut)
	}
	if got := p.pinRecords(); len(got) != 1 || got[0] != (pin{host, "session start"}) {
		t.Errorf("session records = %+v, want one pinned at the session's start under %s", got, host)
	}
	h := p.history()
	if len(h) == 0 || h[0].Host != host || h[0].Decision+"/"+h[0].Why != want {
		t.Errorf("history = %s (%+v), want the first stop %s under %s\n%s\nstatus:\n%s", whys(h), h, want, host, hostOut, p.gauntlet(0, "status"))
	}
	if st := p.gauntlet(0, "status"); strings.HasPrefix(want, "block") && !strings.Contains(st, "[test-file-removed]") {
		t.Errorf("the block does not name the dropped test:\n%s", st)
	}
	checkNothingRuns(t, p)
}

// checkNothingRuns fails the test when a process still runs in the project once the deadline
// passed, and ends those (the test's own) so that they do not outlive it.
func checkNothingRuns(t *testing.T, p *project) {
	t.Helper()
	left := settled(p.dir)
	if len(left) == 0 {
		return
	}
	t.Errorf("still running in the project after the session ended:\n%s", strings.Join(left, "\n"))
	for _, l := range left {
		pid, _, _ := strings.Cut(l, ":")
		if n, err := strconv.Atoi(pid); err == nil {
			_ = syscall.Kill(n, syscall.SIGKILL)
		}
	}
}

// The session ends while its judge runs a gate, with no stop to wait for it (the stop hook
// removed, as a user may; or a turn the host ends itself): Gemini CLI's SessionEnd stops the
// judge and its gate. The gate sleeps five minutes, longer than the wait below: still running
// means nothing stopped it.
func TestGeminiSessionEndStopsTheJudge(t *testing.T) {
	for _, tc := range endCases {
		t.Run(tc.name, func(t *testing.T) {
			m := startModel(t)
			started := filepath.Join(t.TempDir(), "started")
			p, bin, env := geminiProject(t, endConfig(started, tc.quiet), nil)
			withoutStop(t, p, ".gemini/settings.json", "AfterAgent", "gemini", tc.auto)
			p.run("git", "commit", "-q", "-am", "no stop hook")
			log := captureHooks(t, p)
			// Turn 1 runs a command long enough for the judge to pass its quiet period and start
			// the gate.
			m.GeminiCalls = map[int64]fakemodel.Call{1: {Name: "run_shell_command", Args: map[string]any{"command": "sleep 4"}}}
			out, errOut, code := p.host(env(m), "node", append([]string{bin}, geminiArgs...)...)
			calls := hookCalls(t, log)
			t.Logf("Gemini CLI's hook calls:\n%s", calls)
			if code != 0 {
				t.Fatalf("gemini exited %d\nstdout: %s\nstderr: %s", code, out, errOut)
			}
			checkJudgeEnded(t, p, calls, started, tc.quiet)
		})
	}
}

// checkJudgeEnded checks that a judge ran the slow gate during the session (or, with quiet, that
// the judges were still waiting out their quiet period), and that nothing runs in the project
// once the session ended.
func checkJudgeEnded(t *testing.T, p *project, calls, started string, quiet bool) {
	t.Helper()
	if !strings.Contains(calls, "--session-end") {
		t.Fatalf("the host ran no session-end hook")
	}
	checkNothingRuns(t, p)
	data, _ := os.ReadFile(started)
	switch {
	case quiet && len(data) != 0:
		t.Errorf("a judge started the gate after a quiet period longer than the session (started: %q)", data)
	case !quiet && !strings.Contains(string(data), "AfterEdit"):
		t.Errorf("no judge started the gate during the session (started: %q)", data)
	}
}

// pinCases are the session pin tests' variants: a weakening blocked and an honest change allowed,
// each with init's entries and with an older init's (no --host).
var pinCases = []struct {
	name, script, want string
	auto               bool
}{
	{"weakened", weakenScript, "block/fail", false},
	{"weakened, entries without --host", weakenScript, "block/fail", true},
	{"honest", honestScript, "allow/pass", false},
	{"honest, entries without --host", honestScript, "allow/pass", true},
}

// endCases are the SessionEnd tests' variants: init's entries or an older init's (no --host),
// and a judge running its gate or still in a quiet period (ten minutes) when the session ends.
var endCases = []struct {
	name        string
	auto, quiet bool
}{
	{"running", false, false},
	{"running, entries without --host", true, false},
	{"in its quiet period", false, true},
}

// endConfig is slowGateConfig, with a quiet period of ten minutes when quiet.
func endConfig(started string, quiet bool) string {
	config := fmt.Sprintf(slowGateConfig, started)
	if quiet {
		config = strings.Replace(config, "gates:", "stop_hook:\n  quiet_period: 10m\ngates:", 1)
	}
	return config
}

// slowGateConfig's gate marks that it started (in the file named, outside the project), then
// runs for five minutes.
const slowGateConfig = `version: 1
gates:
  slow:
    run: echo "$GAUNTLET_HOOK_EVENT" >> %s; sleep 300
`

// withoutStop removes the stop event's entries from a host's hook settings file, and with auto
// the --host an older init did not write.
func withoutStop(t *testing.T, p *project, file, stopEvent, host string, auto bool) {
	t.Helper()
	settings := withoutEvent(t, p.read(file), stopEvent)
	if auto {
		settings = strings.ReplaceAll(settings, " --host "+host, "")
	}
	p.write(file, settings)
}

// withoutEvent removes one event's entries from a host's hook settings (JSON).
func withoutEvent(t *testing.T, settings, event string) string {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(settings), &doc); err != nil {
		t.Fatalf("hook settings: %v\n%s", err, settings)
	}
	hooks, _ := doc["hooks"].(map[string]any)
	if _, ok := hooks[event]; !ok {
		t.Fatalf("no %s entry in the hook settings:\n%s", event, settings)
	}
	delete(hooks, event)
	out, _ := json.MarshalIndent(doc, "", "  ")
	return string(out)
}

const (
	weakenScript = "git rm -q calc_test.go\ngit commit -q -m 'drop the test'\n"
	honestScript = "printf 'package calc\\n\\nfunc More() {}\\n' > more.go\ngit add more.go\ngit commit -q -m more\n"
)

// running lists the processes still working in the project: their working folder is in it, or
// their command line names it (a judge's --root).
func running(dir string) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || len(cmdline) == 0 {
			continue
		}
		args := strings.ReplaceAll(strings.TrimRight(string(cmdline), "\x00"), "\x00", " ")
		cwd, _ := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		if cwd == dir || strings.HasPrefix(cwd, dir+"/") || strings.Contains(args, dir) {
			out = append(out, e.Name()+": "+args)
		}
	}
	return out
}

// settled waits, up to a deadline, for no process to run in the project, and returns those
// still running then: a loaded machine slows the ending, never the verdict.
func settled(dir string) []string {
	deadline := time.Now().Add(30 * time.Second)
	for {
		left := running(dir)
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// The example of issue 40 with Codex's own payloads (codex exec fires SessionStart, source
// startup): the session start pins the base under codex, a test dropped and committed before the
// first stop is blocked, an honest commit allowed; with init's entries and an older init's
// (--host auto). Nothing of gauntlet's runs in the project once codex exec exits.
func TestCodexSessionPin(t *testing.T) {
	for _, tc := range pinCases {
		t.Run(tc.name, func(t *testing.T) {
			m := startModel(t)
			p, codexHome := codexProjectWith(t, pinConfig, map[string]string{"calc_test.go": calcTest})
			if tc.auto {
				p.write(".codex/hooks.json", strings.ReplaceAll(p.read(".codex/hooks.json"), " --host codex", ""))
			}
			commitProject(p)
			writeCodexConfig(t, codexHome, m, p.dir, "")
			writeCodexConfig(t, codexHome, m, p.dir, codexTrustAll(t, p))
			log, before := captureHooks(t, p), p.commits()
			m.Calls = map[int64]fakemodel.Call{
				1: {Name: "exec_command", Args: map[string]any{"cmd": "sh " + outside(t, "work.sh", tc.script)}},
			}
			stderr := codexExec(t, p)
			t.Logf("Codex's hook calls:\n%s", hookCalls(t, log))
			checkPinnedStop(t, p, before, "codex", tc.want, stderr)
		})
	}
}

// The session ends while its judge runs a gate, with no stop to wait for it: codex exec's
// SessionEnd stops the judge and its gate.
func TestCodexSessionEndStopsTheJudge(t *testing.T) {
	for _, tc := range endCases {
		t.Run(tc.name, func(t *testing.T) {
			m := startModel(t)
			started := filepath.Join(t.TempDir(), "started")
			p, codexHome := codexProjectWith(t, endConfig(started, tc.quiet), nil)
			withoutStop(t, p, ".codex/hooks.json", "Stop", "codex", tc.auto)
			commitProject(p)
			writeCodexConfig(t, codexHome, m, p.dir, "")
			writeCodexConfig(t, codexHome, m, p.dir, codexTrustAll(t, p))
			log := captureHooks(t, p)
			m.Calls = map[int64]fakemodel.Call{1: {Name: "exec_command", Args: map[string]any{"cmd": "sleep 4"}}}
			codexExec(t, p)
			calls := hookCalls(t, log)
			t.Logf("Codex's hook calls:\n%s", calls)
			checkJudgeEnded(t, p, calls, started, tc.quiet)
		})
	}
}

// claudeBypass lets Claude Code run the model's commands without asking (bypassPermissions),
// which it refuses as root outside a sandbox: the test's HOME and project are the sandbox. Its
// hooks run all the same.
var claudeBypass = []string{"IS_SANDBOX=1"}

// The example of issue 40 with Claude Code's own payloads, as for Gemini CLI and Codex.
func TestClaudeSessionPin(t *testing.T) {
	for _, tc := range pinCases {
		t.Run(tc.name, func(t *testing.T) {
			m := startModel(t)
			script := outside(t, "work.sh", tc.script)
			p := newProjectWith(t, "claude", pinConfig, map[string]string{"calc_test.go": calcTest})
			if tc.auto {
				p.write(".claude/settings.local.json", strings.ReplaceAll(p.read(".claude/settings.local.json"), " --host claude", ""))
			}
			commitProject(p)
			log, before := captureHooks(t, p), p.commits()
			m.ToolUses = map[int64]fakemodel.Call{1: {Name: "Bash", Args: map[string]any{"command": "sh " + script}}}
			claudePrint(t, p, m, claudeBypass, "--permission-mode", "bypassPermissions", "finish the work")
			t.Logf("Claude Code's hook calls:\n%s", hookCalls(t, log))
			bodies := m.Bodies()
			_, result, _ := strings.Cut(strings.Join(bodies, "\n"), `"tool_result"`)
			checkPinnedStop(t, p, before, "claude", tc.want, "the Bash call's result: "+result[:min(len(result), 800)])
		})
	}
}

// Claude Code's SessionEnd stops a judge still running its gate when the session ends.
func TestClaudeSessionEndStopsTheJudge(t *testing.T) {
	for _, tc := range endCases {
		t.Run(tc.name, func(t *testing.T) {
			m := startModel(t)
			started := filepath.Join(t.TempDir(), "started")
			p := newProjectWith(t, "claude", endConfig(started, tc.quiet), nil)
			withoutStop(t, p, ".claude/settings.local.json", "Stop", "claude", tc.auto)
			commitProject(p)
			log := captureHooks(t, p)
			m.ToolUses = map[int64]fakemodel.Call{1: {Name: "Bash", Args: map[string]any{"command": "sleep 4"}}}
			claudePrint(t, p, m, claudeBypass, "--permission-mode", "bypassPermissions", "finish the work")
			calls := hookCalls(t, log)
			t.Logf("Claude Code's hook calls:\n%s", calls)
			checkJudgeEnded(t, p, calls, started, tc.quiet)
		})
	}
}

// The example of issue 40 with Copilot CLI's own payloads (sessionStart), as for the others.
func TestCopilotSessionPin(t *testing.T) {
	for _, tc := range pinCases {
		t.Run(tc.name, func(t *testing.T) {
			m := startModel(t)
			p := newProjectWith(t, "copilot", pinConfig, map[string]string{"calc_test.go": calcTest})
			if tc.auto {
				p.write(".github/hooks/gauntlet.json", strings.ReplaceAll(p.read(".github/hooks/gauntlet.json"), " --host copilot", ""))
			}
			commitProject(p)
			copilotTrust(t, p, p.dir)
			log, before := captureHooks(t, p), p.commits()
			m.Calls = map[int64]fakemodel.Call{1: {Name: "bash", Args: map[string]any{"command": "sh " + outside(t, "work.sh", tc.script), "description": "work", "initial_wait": 30}}}
			out := copilotRun(t, p, m)
			t.Logf("Copilot CLI's hook calls:\n%s", hookCalls(t, log))
			checkPinnedStop(t, p, before, "copilot", tc.want, out)
		})
	}
}

// Copilot CLI's sessionEnd stops a judge still running its gate when the session ends.
func TestCopilotSessionEndStopsTheJudge(t *testing.T) {
	for _, tc := range endCases {
		t.Run(tc.name, func(t *testing.T) {
			m := startModel(t)
			started := filepath.Join(t.TempDir(), "started")
			p := newProjectWith(t, "copilot", endConfig(started, tc.quiet), nil)
			withoutStop(t, p, ".github/hooks/gauntlet.json", "agentStop", "copilot", tc.auto)
			commitProject(p)
			copilotTrust(t, p, p.dir)
			log := captureHooks(t, p)
			m.Calls = map[int64]fakemodel.Call{1: {Name: "bash", Args: map[string]any{"command": "sleep 4", "description": "wait", "initial_wait": 30}}}
			copilotRun(t, p, m)
			calls := hookCalls(t, log)
			t.Logf("Copilot CLI's hook calls:\n%s", calls)
			checkJudgeEnded(t, p, calls, started, tc.quiet)
		})
	}
}
