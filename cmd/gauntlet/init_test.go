package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/hookfile"
)

// scriptedPrompter answers the questions in order and remembers them.
type scriptedPrompter struct {
	answers []bool
	asked   []string
	// askedYes are the questions asked with yes as the default, answered runAnswer.
	askedYes  []string
	runAnswer bool
}

func (p *scriptedPrompter) ConfirmYes(q string) (bool, error) {
	p.askedYes = append(p.askedYes, q)
	return p.runAnswer, nil
}

func (p *scriptedPrompter) Confirm(q string) (bool, error) {
	p.asked = append(p.asked, q)
	if len(p.asked) > len(p.answers) {
		return false, errors.New("asked more questions than expected: " + q)
	}
	return p.answers[len(p.asked)-1], nil
}

// gauntletOnPath is a resolver for a gauntlet that is on PATH as itself.
var gauntletOnPath = hookfile.Resolver{
	LookPath:     func(string) (string, error) { return "/bin/gauntlet", nil },
	Executable:   func() (string, error) { return "/bin/gauntlet", nil },
	EvalSymlinks: func(p string) (string, error) { return p, nil },
	SameFile:     func(a, b string) bool { return a == b },
}

func newTestEnv(t *testing.T, interactive bool, answers ...bool) (initEnv, *scriptedPrompter, *bytes.Buffer) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := &scriptedPrompter{answers: answers}
	var out bytes.Buffer
	ios, _, _ := testStreams("", os.Environ(), dir, time.Now())
	return initEnv{ios: ios, dir: dir, interactive: interactive, prompter: p, resolver: gauntletOnPath, out: &out}, p, &out
}

func TestInitAsksBeforeEachWrite(t *testing.T) {
	env, p, out := newTestEnv(t, true, true, false, true)
	if err := runInit(context.Background(), initOptions{host: "codex"}, env); err != nil {
		t.Fatal(err)
	}
	// The question names what is installed: the stop hook and the edit hooks beside it, each shown
	// above it, not "the stop hook" alone.
	want := []string{"Write .gauntlet.yml?", "Update .gitignore?", "Install the Codex hooks above (the stop hook and the edit hooks) in .codex/hooks.json?"}
	if !slices.Equal(p.asked, want) {
		t.Errorf("asked %q, want %q", p.asked, want)
	}
	if !fileExists(env.dir, ".gauntlet.yml") || fileExists(env.dir, ".gitignore") || !fileExists(env.dir, ".codex/hooks.json") {
		t.Errorf("written files do not follow the answers yes, no, yes:\n%s", out)
	}
	text := out.String()
	for _, shown := range []string{
		".gauntlet.yml (new):", "go vet ./...", // the config's content, before the question
		".gitignore (new), lines to add:", "skipped: .gitignore not changed",
		// Every entry added is shown, each under its event: the preview once showed the stop
		// hook's alone while three events were added. Each names its host (issue 40).
		`.codex/hooks.json (new file), add:`, `hooks.Stop: {`, `"command":"gauntlet stop-hook --host codex"`,
		"hooks.SessionStart: {", "hooks.PostToolUse: {", "hooks.SessionEnd: {", `"command":"gauntlet after-edit --host codex"`,
		"Codex is now gated",
	} {
		if !strings.Contains(text, shown) {
			t.Errorf("output lacks %q:\n%s", shown, text)
		}
	}
}

func TestInitWithYesDoesNotAsk(t *testing.T) {
	env, p, _ := newTestEnv(t, true)
	if err := runInit(context.Background(), initOptions{host: "claude", yes: true}, env); err != nil {
		t.Fatal(err)
	}
	if len(p.asked) != 0 {
		t.Errorf("asked %q despite --yes", p.asked)
	}
	for _, f := range []string{".gauntlet.yml", ".gitignore", ".claude/settings.local.json"} {
		if !fileExists(env.dir, f) {
			t.Errorf("%s not written", f)
		}
	}
}

func TestInitRefusesBeforeWritingAnything(t *testing.T) {
	tests := []struct {
		name    string
		opts    initOptions
		tty     bool
		prepare func(dir string)
		message string
	}{
		{"no terminal and no --yes", initOptions{host: "claude"}, false, nil, "pass --yes"},
		{"unknown host", initOptions{host: "vim", yes: true}, false, nil, "--host must be one of"},
		{"auto is not a host to install for", initOptions{host: "auto", yes: true}, false, nil, "--host must be one of"},
		{"invalid hook file", initOptions{host: "cursor", yes: true}, false, func(dir string) {
			os.MkdirAll(filepath.Join(dir, ".cursor"), 0o755)
			os.WriteFile(filepath.Join(dir, ".cursor", "hooks.json"), []byte("{,}"), 0o644)
		}, ".cursor/hooks.json: not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, _, _ := newTestEnv(t, tt.tty)
			if tt.prepare != nil {
				tt.prepare(env.dir)
			}
			err := runInit(context.Background(), tt.opts, env)
			var usage *usageError
			if !errors.As(err, &usage) || !strings.Contains(err.Error(), tt.message) {
				t.Fatalf("err = %v, want a usage error saying %q", err, tt.message)
			}
			if fileExists(env.dir, ".gauntlet.yml") || fileExists(env.dir, ".gitignore") {
				t.Error("files were written before the refusal")
			}
		})
	}
}

func TestInitKeepsOrReplacesTheConfig(t *testing.T) {
	for _, tt := range []struct {
		name, file string
		force      bool
		replaced   bool
	}{
		{"kept", ".gauntlet.yml", false, false},
		{"kept yaml", ".gauntlet.yaml", false, false},
		{"forced", ".gauntlet.yml", true, true},
		{"forced yaml replaces that file", ".gauntlet.yaml", true, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env, _, out := newTestEnv(t, false)
			const mine = "version: 1\ngates:\n  mine:\n    run: true\n"
			path := filepath.Join(env.dir, tt.file)
			if err := os.WriteFile(path, []byte(mine), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := runInit(context.Background(), initOptions{host: "claude", yes: true, force: tt.force}, env); err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(path)
			if replaced := string(data) != mine; replaced != tt.replaced {
				t.Errorf("replaced = %v, want %v:\n%s", replaced, tt.replaced, out)
			}
			if tt.file != ".gauntlet.yml" && fileExists(env.dir, ".gauntlet.yml") {
				t.Error("a .gauntlet.yml was written beside the existing .gauntlet.yaml")
			}
			if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
				t.Errorf("config mode = %v, want the file's own 0600", info.Mode().Perm())
			}
			if !fileExists(env.dir, ".claude/settings.local.json") || !fileExists(env.dir, ".gitignore") {
				t.Error("the hook and .gitignore must be installed whatever happens to the config")
			}
		})
	}
}

func TestLinePrompter(t *testing.T) {
	for input, want := range map[string]bool{
		"y\n": true, "YES\n": true, " yes \r\n": true, "y": true,
		"\n": false, "n\n": false, "yep\n": false, "": false,
	} {
		var out bytes.Buffer
		p := &linePrompter{in: bufioReader(input), out: &out}
		got, err := p.Confirm("Go?")
		if err != nil || got != want {
			t.Errorf("answer %q: %v, %v; want %v", input, got, err, want)
		}
		if !strings.HasPrefix(out.String(), "Go? [y/N] ") {
			t.Errorf("prompt = %q", out.String())
		}
	}
}

// A question asked with yes as its default is yes unless the answer is no.
func TestLinePrompterYesByDefault(t *testing.T) {
	for input, want := range map[string]bool{
		"\n": true, "": true, "y\n": true, "Yes\n": true,
		"n\n": false, " NO \r\n": false,
	} {
		var out bytes.Buffer
		p := &linePrompter{in: bufioReader(input), out: &out}
		got, err := p.ConfirmYes("Run?")
		if err != nil || got != want {
			t.Errorf("answer %q: %v, %v; want %v", input, got, err, want)
		}
		if !strings.HasPrefix(out.String(), "Run? [Y/n] ") {
			t.Errorf("prompt = %q", out.String())
		}
	}
}

func bufioReader(s string) *bufio.Reader { return bufio.NewReader(strings.NewReader(s)) }

func fileExists(dir, rel string) bool {
	_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel)))
	return err == nil
}

// On a terminal, once the config is written, init asks whether to run the gates once; a no runs
// nothing. --yes, --run given either way, or a config not written ask nothing.
func TestInitAsksToRunOnceTheConfigIsWritten(t *testing.T) {
	env, p, out := newTestEnv(t, true, true, true)
	if err := runInit(context.Background(), initOptions{host: "claude", noHook: true}, env); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.askedYes, []string{runQuestion}) {
		t.Errorf("asked with yes as default %q, want %q", p.askedYes, runQuestion)
	}
	if strings.Contains(out.String(), "first run") {
		t.Errorf("the user said no, yet the gates ran:\n%s", out)
	}

	for name, c := range map[string]struct {
		opts    initOptions
		answers []bool
	}{
		"--yes":            {initOptions{host: "claude", noHook: true, yes: true}, nil},
		"--run=false":      {initOptions{host: "claude", noHook: true, runSet: true}, []bool{true, true}},
		"config not wrote": {initOptions{host: "claude", noHook: true}, []bool{false, true}},
	} {
		env, p, _ := newTestEnv(t, true, c.answers...)
		if err := runInit(context.Background(), c.opts, env); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(p.askedYes) > 0 {
			t.Errorf("%s: asked %q", name, p.askedYes)
		}
	}
}

// The first run's marks go just above each gate that did not pass, indented as its key, and
// leave every other line as it was.
func TestMarkGates(t *testing.T) {
	in := "version: 1\ngates:\n  # Go: the tests.\n  test:\n    run: go test ./...\n  'odd name':\n    run: x\n  vet:\n    run: go vet\n"
	got, err := markGates([]byte(in), map[string]string{"test": "# failing", "odd name": "# could not run"})
	if err != nil {
		t.Fatal(err)
	}
	want := "version: 1\ngates:\n  # Go: the tests.\n  # failing\n  test:\n    run: go test ./...\n  # could not run\n  'odd name':\n    run: x\n  vet:\n    run: go vet\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A mark says why the gate did not pass, with its first finding, on one bounded line; a gate that
// passed or was skipped gets none.
func TestFirstRunMarks(t *testing.T) {
	now := time.Date(2026, 12, 2, 23, 30, 0, 0, time.FixedZone("x", -3600))
	marks := firstRunMarks([]gates.Result{
		{Name: "test", Status: gates.StatusFail, Reason: "exit status 1", Findings: []gates.Finding{
			{File: "p_test.go", Line: 7, Message: "boom\nmore"}, {File: "q_test.go", Line: 1, Message: "bang"}}},
		{Name: "lint", Status: gates.StatusError, Reason: "golangci-lint: not found"},
		{Name: "long", Status: gates.StatusWarn, Reason: strings.Repeat("x", 500)},
		{Name: "vet", Status: gates.StatusPass},
		{Name: "fmt", Status: gates.StatusSkipped},
	}, now)
	want := map[string]string{
		"test": "# failing before any change (init's first run, 2026-12-03): exit status 1; 2 findings, first: p_test.go:7: boom more",
		"lint": "# could not run at init's first run: golangci-lint: not found",
	}
	for name, w := range want {
		if marks[name] != w {
			t.Errorf("%s: got %q, want %q", name, marks[name], w)
		}
	}
	if len(marks) != 3 || len(marks["long"]) > 300 || !strings.HasSuffix(marks["long"], "...") {
		t.Errorf("marks = %q", marks)
	}
}
