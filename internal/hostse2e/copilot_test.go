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

// copilotEnv points Copilot CLI at the fake model as a bring-your-own-key provider in offline
// mode (COPILOT_PROVIDER_BASE_URL, COPILOT_OFFLINE: no GitHub sign-in, no telemetry, no update).
func copilotEnv(m *fakemodel.Server) []string {
	return []string{
		"COPILOT_OFFLINE=true", "COPILOT_AUTO_UPDATE=false",
		"COPILOT_PROVIDER_BASE_URL=" + m.URL + "/v1", "COPILOT_PROVIDER_WIRE_API=responses",
		"COPILOT_PROVIDER_API_KEY=fake", "COPILOT_MODEL=gpt-fake",
	}
}

// copilotTrust writes ~/.copilot/config.json as Copilot writes it (a // header, then JSON),
// trusting the folders given.
func copilotTrust(t *testing.T, p *project, folders ...string) {
	t.Helper()
	list := "[]"
	if len(folders) > 0 {
		list = fmt.Sprintf("[%q]", strings.Join(folders, `", "`))
	}
	p.write("../home/.copilot/config.json", "// User settings belong in settings.json.\n// This file is managed automatically.\n{\n  \"trustedFolders\": "+list+"\n}\n")
}

func copilotRun(t *testing.T, p *project, m *fakemodel.Server) string {
	t.Helper()
	out, errOut, code := p.host(copilotEnv(m), cli(t, ".bin/copilot"), "-p", "finish the work", "--allow-all-tools")
	if code != 0 {
		t.Fatalf("copilot exited %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	return out + errOut
}

// Copilot CLI against its agentStop hook: in a folder it has not trusted it loads no repository
// hook (doctor: problem); trusted in ~/.copilot/config.json (with the // header Copilot writes),
// the hook blocks, continues and is released at gauntlet's retry limit (doctor: ok).
func TestCopilotTrustAndLoop(t *testing.T) {
	m := startModel(t)
	p := newProject(t, "copilot", fmt.Sprintf(failingConfig, 2), m)

	copilotTrust(t, p)
	out := copilotRun(t, p, m)
	if h := p.history(); len(h) != 0 || m.Requests() != 1 {
		t.Errorf("the hook ran in an untrusted folder: %s (%d model turns)\n%s", whys(h), m.Requests(), out)
	}
	if d := p.gauntlet(1, "doctor", "--no-run", "--host", "copilot"); !strings.Contains(d, "does not trust "+p.dir+" (trustedFolders)") {
		t.Errorf("doctor on the untrusted folder:\n%s", d)
	}

	copilotTrust(t, p, p.dir)
	before := m.Requests()
	out = copilotRun(t, p, m)
	if got := m.Requests() - before; got != 3 {
		t.Errorf("model turns = %d, want 3\n%s", got, out)
	}
	if got := whys(p.history()); got != "block/fail block/fail allow/retry_limit" {
		t.Errorf("history = %s\n%s", got, out)
	}
	if d := p.gauntlet(0, "doctor", "--no-run", "--host", "copilot"); !strings.Contains(d, "trusts "+p.dir+" (trustedFolders)") {
		t.Errorf("doctor on the trusted folder:\n%s", d)
	}
}

// Copilot's own cap, as the hosts table states it: with max_attempts above 8 it ends the turn
// after the 9th consecutive block (8 blocks answered, the 9th overridden), and doctor warns
// about it beforehand.
func TestCopilotOwnCap(t *testing.T) {
	m := startModel(t)
	p := newProject(t, "copilot", fmt.Sprintf(failingConfig, 12), m)
	copilotTrust(t, p, p.dir)
	if d := p.gauntlet(0, "doctor", "--no-run", "--host", "copilot"); !strings.Contains(d, "warn     copilot cap") {
		t.Errorf("doctor with max_attempts 12:\n%s", d)
	}
	out := copilotRun(t, p, m)
	h := p.history()
	if got := len(h); got != 9 || m.Requests() != 9 {
		t.Errorf("%d hook calls and %d model turns, want 9 of each: %s\n%s", got, m.Requests(), whys(h), out)
	}
	for _, d := range h {
		if d.Decision != "block" {
			t.Errorf("history = %s, want only blocks (Copilot ended the turn itself)", whys(h))
			break
		}
	}
}

// Copilot's after-edit hooks, as gauntlet init writes them: postToolUse runs gauntlet after-edit
// after the agent's shell command, whose judge runs the gates in the background (the gate sees
// GAUNTLET_HOOK_EVENT=AfterEdit) before the agent stops; the stop is answered with the verdict.
func TestCopilotAfterEdit(t *testing.T) {
	m := startModel(t)
	events := filepath.Join(t.TempDir(), "events.log")
	p := newProject(t, "copilot", fmt.Sprintf(`version: 1
gates:
  work:
    run: echo "$GAUNTLET_HOOK_EVENT" >> %s
`, events), m)
	copilotTrust(t, p, p.dir)
	// Turn 1 edits a file, turn 2 runs a command long enough for the judge's quiet period to pass,
	// turn 3 ends the turn.
	m.Calls = map[int64]fakemodel.Call{
		1: {Name: "bash", Args: map[string]any{"command": "echo more >> main.txt", "description": "edit", "initial_wait": 30}},
		2: {Name: "bash", Args: map[string]any{"command": "sleep 4", "description": "wait", "initial_wait": 30}},
	}
	out := copilotRun(t, p, m)
	data, _ := os.ReadFile(events)
	if !strings.Contains(string(data), "AfterEdit") {
		t.Errorf("no background judge ran the gate (events: %q)\n%s", data, out)
	}
	if got := whys(p.history()); !strings.HasSuffix(got, "allow/pass") {
		t.Errorf("history = %s, want the stop allowed on a pass\n%s", got, out)
	}
	if got := strings.Join(p.pins(), " "); got != "session start" {
		t.Errorf("session pins = %q, want one pinned at the session's start (sessionStart)", got)
	}
}
