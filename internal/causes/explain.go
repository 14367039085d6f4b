package causes

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/gauntlet-dev/gauntlet/internal/preflight"
)

// The fixes that depend on the line: the tool or version it names, the project around the gate.

var languageVersion = lazyRegexp(`^\d+\.\d+$`)

var golangciGo = lazyRegexp(`the Go language version \((go\S+)\) used to build golangci-lint is lower than the targeted Go version \((?:go)?(\d[^)\s]*)\)`)

// explainGolangciGo names the Go golangci-lint was built with and the one to rebuild it with,
// with the install command preflight gives for golangci-lint.
func explainGolangciGo(line string, _ Options) (summary, fix string) {
	m := golangciGo().FindStringSubmatch(line)
	install, ok := preflight.InstallHint("golangci-lint")
	if m == nil || !ok {
		return "", ""
	}
	target := m[2]
	if languageVersion().MatchString(target) {
		target += ".0" // a language version (go 1.27): its first release is go1.27.0
	}
	summary = "golangci-lint was built with " + m[1] + ", older than the go " + m[2] + " go.mod targets"
	fix = "rebuild it with Go " + target + " or newer (GOTOOLCHAIN=go" + target + " " + install + "), or install a release binary built with it"
	return summary, fix
}

// toolNotFound is the line of the program that looked for a tool preflight knows and did not find
// it, in each program's words: sh (dash) and bash; zsh, also running a script; GNU make running a
// recipe without a shell (older versions said "Command not found"), also recursively; env.
func toolNotFound() string {
	names := preflight.ToolNames()
	for i, n := range names {
		names[i] = regexp.QuoteMeta(n)
	}
	tool := `(` + strings.Join(names, "|") + `)`
	return `^(` +
		`((\S*/)?sh: \d+: |(\S*/)?bash: (line \d+: )?)` + tool + `: (not found|command not found)` +
		`|\S+:\d+: command not found: ` + tool +
		`|(\S*/)?g?make(\[\d+\])?: ` + tool + `: (No such file or directory|Command not found)` +
		`|(\S*/)?env: ['‘]` + tool + `['’]: No such file or directory` +
		`)$`
}

// explainMissingTool names the tool the shell did not find and the command that gets it, as
// preflight does: one source of truth for a missing tool.
func explainMissingTool(line string, opts Options) (summary, fix string) {
	prog, found := notFoundProgram(line)
	if !found {
		return "", ""
	}
	p, ok := preflight.Missing(prog, opts.Root, opts.Dir, preflight.System())
	if !ok {
		return "", ""
	}
	return p.Message, p.Fix
}

var missingModule = lazyRegexp(`^(\S*python[\d.]*): No module named (\S+)$`)

// explainPythonEnv names the interpreter that lacks the module and what puts it there: the
// project's virtualenv when the interpreter is one or the project keeps one, else the module's
// install command.
func explainPythonEnv(line string, opts Options) (summary, fix string) {
	m := missingModule().FindStringSubmatch(line)
	if m == nil {
		return "", "" // a virtualenv's binary not found: the catalogue's words are right
	}
	python, module := m[1], m[2]
	if venv, ok := virtualenvOf(python); ok {
		return "the virtualenv " + venv + " has no module " + module,
			"install the project's dev dependencies into it (or: " + python + " -m pip install " + module + ")"
	}
	if v, ok := preflight.ProjectVirtualenv(opts.Root, opts.Dir, preflight.System()); ok {
		summary = python + " has no module " + module + ", and the project's virtualenv (" + v.Evidence + ") is not created, not active or lacks it"
		if v.Sync != "" {
			return summary, v.Sync + ", then activate the virtualenv before running gauntlet (or run the tool through " + v.Run + ")"
		}
		return summary, "activate it before running gauntlet, and install " + module + " there (" + v.Evidence + "/bin/pip install " + module + ")"
	}
	fix = python + " -m pip install " + module
	if hint, ok := preflight.InstallHint(toolOfModule(module)); ok {
		fix = hint
	}
	return python + " has no module " + module, fix
}

// toolOfModule is the tool a Python module is installed as, where the two names differ
// (python3 -m ansiblelint runs ansible-lint).
func toolOfModule(module string) string {
	if module == "ansiblelint" {
		return "ansible-lint"
	}
	return module
}

// virtualenvOf is the virtualenv an interpreter's path is in: ".../venv/bin/python" is in ".../venv".
func virtualenvOf(python string) (string, bool) {
	bin := filepath.Dir(python)
	if filepath.Base(bin) != "bin" || !filepath.IsAbs(python) {
		return "", false
	}
	venv := filepath.Dir(bin)
	if base := filepath.Base(venv); base == ".venv" || base == "venv" || strings.Contains(venv, "/virtualenvs/") || strings.Contains(venv, "/.tox/") || strings.Contains(venv, "/.nox/") {
		return venv, true
	}
	return "", false
}
