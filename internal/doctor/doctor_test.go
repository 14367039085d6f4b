package doctor

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/hookfile"
	"github.com/gauntlet-dev/gauntlet/internal/hosts"
)

func TestWithin(t *testing.T) {
	for _, tt := range []struct {
		path, dir string
		want      bool
	}{
		{"/a/b", "/a/b", true},
		{"/a/b/c", "/a/b", true},
		{"/a/bc", "/a/b", false},
		{"/a", "/a/b", false},
		{"/x/y", "/", true},
	} {
		if got := within(tt.path, tt.dir); got != tt.want {
			t.Errorf("within(%q, %q) = %v", tt.path, tt.dir, got)
		}
	}
}

func TestTimeoutAndCapChecks(t *testing.T) {
	gemini := hosts.MustGet(hosts.Gemini)
	h := hookfile.Hook{Host: hosts.Gemini, File: ".gemini/settings.json", Timeout: 60 * time.Second}
	if c := timeoutCheck(gemini, h, 9*time.Minute); c.Level != Problem || !strings.Contains(c.Message, "Gemini CLI's default") || !strings.Contains(c.Fix, `"timeout": 600000`) {
		t.Errorf("default timeout: %+v", c)
	}
	h.Timeout, h.TimeoutSet = 10*time.Minute, true
	if c := timeoutCheck(gemini, h, 9*time.Minute); c.Level != OK {
		t.Errorf("fitting timeout: %+v", c)
	}
	// Equal is not below: the host would kill gauntlet as it answers.
	if c := timeoutCheck(gemini, h, 10*time.Minute); c.Level != Problem {
		t.Errorf("equal timeout: %+v", c)
	}

	copilot := hosts.MustGet(hosts.Copilot)
	ch := hookfile.Hook{Host: hosts.Copilot, File: ".github/hooks/gauntlet.json", Cap: copilot.Cap.Blocks}
	if c, ok := capCheck(copilot, ch, 8); !ok || c.Level != OK {
		t.Errorf("at the cap: %+v", c)
	}
	if c, ok := capCheck(copilot, ch, 9); !ok || c.Level != Warn || !strings.Contains(c.Fix, "8 or less") {
		t.Errorf("past the cap: %+v", c)
	}
	// Claude Code ends the turn after 8 consecutive blocks.
	claude := hosts.MustGet(hosts.Claude)
	if c, ok := capCheck(claude, hookfile.Hook{Host: hosts.Claude, Cap: claude.Cap.Blocks}, 9); !ok || c.Level != Warn || !strings.Contains(c.Message, "after 8 consecutive blocks") {
		t.Errorf("Claude Code past its cap: %+v", c)
	}
}

// A gauntlet that is not this program is asked its version, within a deadline.
func TestCommandCheckVersions(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "gauntlet")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := Env{
		Dir:     dir,
		Version: "gauntlet v1.2.0 (commit abc, go1.25 linux/amd64)",
		Resolver: hookfile.Resolver{
			LookPath:     func(string) (string, error) { return prog, nil },
			Executable:   func() (string, error) { return "/elsewhere/gauntlet", nil },
			EvalSymlinks: func(p string) (string, error) { return p, nil },
			SameFile:     func(a, b string) bool { return false },
		},
	}
	hook := hookfile.Hook{Host: hosts.Claude, Command: "gauntlet stop-hook"}
	for _, tt := range []struct {
		answer string
		err    error
		want   Level
	}{
		{"gauntlet v1.2.0 (commit def, go1.25 linux/amd64)", nil, OK},
		{"gauntlet v1.1.0 (commit old, go1.25 linux/amd64)", nil, Warn},
		{"", errors.New("exit status 2"), Problem},
	} {
		env.VersionOf = func(context.Context, string) (string, error) { return tt.answer, tt.err }
		if c := commandCheck(context.Background(), env, hook); c.Level != tt.want {
			t.Errorf("answer %q: %+v", tt.answer, c)
		}
	}
	// The real runner takes a program that prints nothing as an empty answer, not an error.
	if _, err := runVersion(context.Background(), prog); err != nil {
		t.Errorf("a program printing nothing: %v", err)
	}
	env.Resolver.LookPath = func(string) (string, error) { return "", errors.New("executable file not found in $PATH") }
	if c := commandCheck(context.Background(), env, hook); c.Level != Problem || !strings.Contains(c.Message, "does not resolve") {
		t.Errorf("unresolved: %+v", c)
	}
}
