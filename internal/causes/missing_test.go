package causes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/preflight"
)

// The shell not finding a tool is named as preflight names it before any gate runs: the tool, and
// the command that gets it. A virtualenv is the fix only in a project that has one.
func TestMissingToolNamesItsInstall(t *testing.T) {
	plain := t.TempDir()
	uvProject := t.TempDir()
	os.WriteFile(filepath.Join(uvProject, "uv.lock"), []byte("version = 1\n"), 0o644)
	poetryWeb := t.TempDir()
	os.MkdirAll(filepath.Join(poetryWeb, "api"), 0o755)
	os.WriteFile(filepath.Join(poetryWeb, "api", "poetry.lock"), nil, 0o644)
	inactive := t.TempDir()
	os.MkdirAll(filepath.Join(inactive, ".venv", "bin"), 0o755)
	os.WriteFile(filepath.Join(inactive, ".venv", "bin", "mypy"), []byte("#!/bin/sh\n"), 0o755)

	hint := func(tool string) string {
		h, ok := preflight.InstallHint(tool)
		if !ok {
			t.Fatalf("preflight knows no %s", tool)
		}
		return h
	}
	for _, tt := range []struct {
		name, root, dir, line string
		summary, fix          string // wanted in the summary, and the fix it starts with
		venv                  bool   // the words mention a virtualenv
	}{
		{"uv itself, no project", "", "", "/bin/sh: 1: uv: not found", "uv is not on PATH", hint("uv"), false},
		{"uv itself, in a uv project", uvProject, uvProject, "/bin/sh: 1: uv: not found", "uv is not on PATH", hint("uv"), false},
		{"ruff, project without a virtualenv", plain, plain, "/bin/sh: 1: ruff: not found", "ruff is not on PATH", hint("ruff"), false},
		{"ruff, in a uv project", uvProject, uvProject, "/bin/sh: 1: ruff: not found", "the project's virtualenv (uv.lock)", "uv sync", true},
		{"pytest, poetry sub-project", poetryWeb, filepath.Join(poetryWeb, "api"), "sh: 1: pytest: not found", "virtualenv (api/poetry.lock)", "poetry install", true},
		{"mypy in an inactive .venv", inactive, inactive, "sh: 1: mypy: not found", "mypy is in " + filepath.Join(inactive, ".venv"), "activate the environment", true},
		{"a toolchain", plain, plain, "sh: 1: go: not found", "go is not on PATH", hint("go"), false},
		{"a linter", plain, plain, "sh: 1: golangci-lint: not found", "golangci-lint is not on PATH", hint("golangci-lint"), false},
		{"make without a shell", plain, plain, "make: ruff: No such file or directory", "ruff is not on PATH", hint("ruff"), false},
		{"a recursive make", plain, plain, "make[1]: ruff: No such file or directory", "ruff is not on PATH", hint("ruff"), false},
		{"an older make", plain, plain, "make: ruff: Command not found", "ruff is not on PATH", hint("ruff"), false},
		{"zsh", plain, plain, "zsh:1: command not found: uv", "uv is not on PATH", hint("uv"), false},
		{"a zsh script", plain, plain, "./scripts/lint.zsh:3: command not found: ruff", "ruff is not on PATH", hint("ruff"), false},
		{"env", plain, plain, "env: 'uv': No such file or directory", "uv is not on PATH", hint("uv"), false},
		{"env in a UTF-8 locale", plain, plain, "env: \u2018uv\u2019: No such file or directory", "uv is not on PATH", hint("uv"), false},
		{"make, in a uv project", uvProject, uvProject, "make: ruff: No such file or directory", "the project's virtualenv (uv.lock)", "uv sync", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := settle(t, ample(), Options{Root: tt.root, Dir: tt.dir, Env: []string{"PATH=" + plain}}, tt.line, 127)
			c := o.Cause
			if c == nil || c.ID != "tool-missing" {
				t.Fatalf("cause %+v, rejected %q", c, o.CauseRejected)
			}
			if !strings.Contains(c.Summary, tt.summary) || !strings.HasPrefix(c.Fix, tt.fix) {
				t.Errorf("summary %q, fix %q; want %q in the summary and the fix to start %q", c.Summary, c.Fix, tt.summary, tt.fix)
			}
			if got := strings.Contains(c.Summary+c.Fix, "virtualenv") || strings.Contains(c.Summary+c.Fix, "environment"); got != tt.venv {
				t.Errorf("summary %q, fix %q: mentions a virtualenv %v, want %v", c.Summary, c.Fix, got, tt.venv)
			}
		})
	}
}

// The interpreter without a module: the virtualenv is named when the interpreter is in one or the
// project has one, else the module and how to install it.
func TestMissingModuleNamesTheEnvironment(t *testing.T) {
	plain := t.TempDir()
	uvProject := t.TempDir()
	os.WriteFile(filepath.Join(uvProject, "uv.lock"), nil, 0o644)
	for _, tt := range []struct {
		name, root, line string
		summary, fix     string
		venv             bool
	}{
		{"system python, no virtualenv", plain, "/usr/bin/python3: No module named pytest", "/usr/bin/python3 has no module pytest", "pip install pytest", false},
		{"system python, uv project", uvProject, "/usr/bin/python3: No module named pytest", "the project's virtualenv (uv.lock)", "uv sync", true},
		{"a virtualenv's python", plain, "/tmp/cap/venv/bin/python: No module named pytest", "the virtualenv /tmp/cap/venv", "install the project's dev dependencies into it", true},
		// Tools of no language that init gates as `python3 -m MODULE` (a pre-commit hook's entry).
		{"ansible-lint's module", plain, "/usr/bin/python3: No module named ansiblelint", "/usr/bin/python3 has no module ansiblelint", "pipx install ansible-lint", false},
		{"yamllint's module", plain, "/usr/bin/python3: No module named yamllint", "/usr/bin/python3 has no module yamllint", "pipx install yamllint", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := settle(t, ample(), Options{Root: tt.root, Dir: tt.root}, tt.line, 1)
			c := o.Cause
			if c == nil || c.ID != "python-env-missing" {
				t.Fatalf("cause %+v, rejected %q", c, o.CauseRejected)
			}
			if !strings.Contains(c.Summary, tt.summary) || !strings.HasPrefix(c.Fix, tt.fix) {
				t.Errorf("summary %q, fix %q; want %q in the summary and the fix to start %q", c.Summary, c.Fix, tt.summary, tt.fix)
			}
			if got := strings.Contains(c.Summary+c.Fix, "virtualenv"); got != tt.venv {
				t.Errorf("summary %q, fix %q: mentions a virtualenv %v, want %v", c.Summary, c.Fix, got, tt.venv)
			}
		})
	}
}

// The tools the shell may not find are the ones preflight knows, each with its install command:
// one table, not two.
func TestMissingToolsArePreflights(t *testing.T) {
	for _, tool := range preflight.ToolNames() {
		c := Match("sh: 1: "+tool+": not found", 127)
		if c == nil || c.ID != "tool-missing" {
			t.Errorf("%s: cause %+v", tool, c)
			continue
		}
		if h, _ := preflight.InstallHint(tool); !strings.Contains(c.Fix, h) {
			t.Errorf("%s: fix %q, want preflight's %q", tool, c.Fix, h)
		}
	}
	// A program nobody knows (the project's own script) stays exit 127's "command not found", in
	// every program's words.
	for _, line := range []string{"sh: 1: license-check: not found", "make: license-check: No such file or directory", "zsh:1: command not found: license-check", "env: 'license-check': No such file or directory", "make: ./scripts/ruff: No such file or directory"} {
		if c := Match(line, 127); c != nil {
			t.Errorf("%s: matched %s", line, c.ID)
		}
	}
	// Every program's words for each of preflight's tools.
	for _, tool := range preflight.ToolNames() {
		for _, line := range []string{"make: " + tool + ": No such file or directory", "zsh:1: command not found: " + tool, "env: '" + tool + "': No such file or directory"} {
			if c := Match(line, 127); c == nil || c.ID != "tool-missing" {
				t.Errorf("%s: cause %+v", line, c)
			}
		}
	}
}

// A JavaScript tool the shell cannot find, in a project whose package.json does not declare it:
// installing the dependencies would not bring it, so the cause says to add it. Where it is
// declared, installing them is the fix.
func TestNodeToolNotDeclared(t *testing.T) {
	undeclared := t.TempDir()
	os.WriteFile(filepath.Join(undeclared, "package.json"), []byte(`{"scripts": {"lint": "eslint ."}}`), 0o644)
	declared := t.TempDir()
	os.WriteFile(filepath.Join(declared, "package.json"), []byte(`{"devDependencies": {"eslint": "^9"}}`), 0o644)
	for _, tt := range []struct {
		name, root, summary, fix string
	}{
		{"not in package.json", undeclared, "eslint is not installed, and package.json does not declare it", "add it: npm install --save-dev eslint, pnpm add -D eslint or yarn add -D eslint"},
		{"in package.json", declared, "the project's node_modules are not installed", "install the dependencies"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := settle(t, ample(), Options{Root: tt.root, Dir: tt.root}, "> eslint .\n\nsh: 1: eslint: not found", 127)
			c := o.Cause
			if c == nil || c.ID != "node-modules-missing" {
				t.Fatalf("cause %+v, rejected %q", c, o.CauseRejected)
			}
			if c.Summary != tt.summary || !strings.HasPrefix(c.Fix, tt.fix) {
				t.Errorf("summary %q, fix %q; want %q and a fix starting %q", c.Summary, c.Fix, tt.summary, tt.fix)
			}
		})
	}
}
