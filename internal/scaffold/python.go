package scaffold

import (
	"bufio"
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"
)

// pythonSettings is what a Python project's config files say that changes how a gate must run.
type pythonSettings struct {
	ruff, ruffFix    bool // ruff is configured; its config sets fix = true
	mypy, mypyFiles  bool // mypy is configured; its config names the files to check
	pyright, codespl bool
}

func readPythonSettings(dir string) pythonSettings {
	var s pythonSettings
	var py map[string]any
	_, _ = toml.Decode(string(readCapped(filepath.Join(dir, "pyproject.toml"))), &py)
	tool, _ := py["tool"].(map[string]any)
	s.ruff, s.ruffFix = ruffSettings(dir, tool)
	s.mypy, s.mypyFiles = mypySettings(dir, tool)
	_, s.pyright = tool["pyright"]
	s.pyright = s.pyright || exists(dir, "pyrightconfig.json")
	_, s.codespl = tool["codespell"]
	return s
}

// ruffSettings: whether ruff is configured (pyproject's [tool.ruff], ruff.toml, .ruff.toml),
// and whether a config sets fix = true.
func ruffSettings(dir string, tool map[string]any) (configured, fix bool) {
	if ruff, ok := tool["ruff"].(map[string]any); ok {
		configured, fix = true, ruff["fix"] == true
	}
	for _, name := range []string{"ruff.toml", ".ruff.toml"} {
		if exists(dir, name) {
			var cfg map[string]any
			_, _ = toml.Decode(string(readCapped(filepath.Join(dir, name))), &cfg)
			configured, fix = true, fix || cfg["fix"] == true
		}
	}
	return configured, fix
}

// mypySettings: whether mypy is configured (pyproject's [tool.mypy], mypy.ini, .mypy.ini, a
// [mypy] section of setup.cfg), and whether a config names the files to check.
func mypySettings(dir string, tool map[string]any) (configured, files bool) {
	if mypy, ok := tool["mypy"].(map[string]any); ok {
		configured = true
		for _, k := range mypyTargets {
			files = files || mypy[k] != nil
		}
	}
	for _, name := range []string{"mypy.ini", ".mypy.ini", "setup.cfg"} {
		keys, ok := iniSection(readCapped(filepath.Join(dir, name)), "mypy")
		if ok || name != "setup.cfg" && exists(dir, name) {
			configured, files = true, files || keys["files"] || keys["packages"] || keys["modules"]
		}
	}
	return configured, files
}

// mypyTargets are the config keys that name what a plain `mypy` checks (isort's packages =
// ["isort", "tests"]): then `mypy .` would check more than the project does.
var mypyTargets = []string{"files", "packages", "modules"}

// pythonConfigDefault is the source comment of a gate that only a tool's config asks for.
var pythonConfigDefault = strings.Replace(gauntletDefault, "%s", "this configuration", 1)

// pythonChecks are a Python project's checks in the order of its gates, each by its tool's key:
// the project's own command when it runs one, else, when the tool is configured (configured is
// nil for a tool init never guesses), the gate gauntlet would write for it.
var pythonChecks = []struct {
	key        string
	configured func(pythonSettings) bool
	fallback   Gate
}{
	{"ruff", func(s pythonSettings) bool { return s.ruff }, Gate{Name: "lint", Comment: "ruff's lint rules", Run: "ruff check",
		Fix: "ruff check --fix", Timeout: 5 * time.Minute, Source: pythonConfigDefault + " (ruff)", Inferred: true}},
	{key: "ruff-format"},
	{key: "black"},
	{key: "isort"},
	{key: "flake8"},
	{key: "pylint"},
	{"mypy", func(s pythonSettings) bool { return s.mypy }, Gate{Name: "typecheck", Comment: "type errors, as mypy reports them",
		Run: "mypy", Timeout: typeTime, Source: pythonConfigDefault + " (mypy)", Inferred: true}},
	{"pyright", func(s pythonSettings) bool { return s.pyright }, Gate{Name: "pyright", Comment: "type errors, as pyright reports them",
		Run: "pyright", Timeout: lintTime, Source: pythonConfigDefault + " (pyright)", Inferred: true}},
}

// pythonEnvironments are the project managers that keep a project's tools in its own
// environment, by their lock file: the tools run there.
var pythonEnvironments = []struct {
	lock, tool string
	prefix     []string
}{
	{"uv.lock", "uv", []string{"uv", "run"}},
	{"poetry.lock", "Poetry", []string{"poetry", "run"}},
}

// pythonScan is one Python project being read: its settings, and the runner of its environment.
type pythonScan struct {
	c      *dirContext
	set    pythonSettings
	prefix []string
	lock   string          // the lock file of the environment runner: "uv.lock"
	locked map[string]bool // the packages the lock file holds; nil when it cannot be read
	p      *Project
}

func detectPython(c *dirContext) *Project {
	if !isPythonProject(c) {
		return nil
	}
	ps := &pythonScan{c: c, set: readPythonSettings(c.abs), p: &Project{Kind: "Python"}}
	for _, env := range pythonEnvironments {
		if exists(c.abs, env.lock) {
			ps.p.Tool, ps.prefix, ps.lock = env.tool, env.prefix, env.lock
			ps.locked = lockedPackages(filepath.Join(c.abs, env.lock))
			break
		}
	}
	for _, check := range pythonChecks {
		var fallback *Gate
		if check.configured != nil && check.configured(ps.set) {
			fallback = &check.fallback
		}
		ps.add(check.key, fallback)
	}
	ps.add("pytest", ps.pytestDefault())
	if last := &ps.p.Gates[len(ps.p.Gates)-1]; !strings.Contains(last.Run, "&&") {
		last.Hint = "Rerun one test with `" + last.Run + " -k NAME`."
	}
	return ps.p
}

// isPythonProject reports whether the folder holds a Python project: not only the docs' build
// requirements (sphinx).
func isPythonProject(c *dirContext) bool {
	requirements, _ := filepath.Glob(filepath.Join(c.abs, "requirements*.txt"))
	packaged := exists(c.abs, "pyproject.toml") || exists(c.abs, "setup.py")
	if !packaged && len(requirements) == 0 && !exists(c.abs, "tox.ini") {
		return false
	}
	return packaged || !contains([]string{"docs", "doc", "documentation"}, c.rel)
}

// pytestDefault is the test gate of a project that runs no tests of its own declaring.
func (ps *pythonScan) pytestDefault() *Gate {
	pytest := "python3 -m pytest"
	if len(ps.prefix) > 0 {
		pytest = "pytest"
	}
	return &Gate{Name: "test", Comment: "the tests, with pytest", Run: pytest, Timeout: testTime,
		Source: strings.Replace(gauntletDefault, "%s", "a Python project", 1), Inferred: true}
}

// add writes the gate of one tool, as the project runs it or else as fallback (nil: none),
// in the project's environment.
func (ps *pythonScan) add(key string, fallback *Gate) {
	g, ok := ps.c.pick(key)
	if !ok {
		if fallback == nil {
			return
		}
		g = *fallback
	}
	var parts []string
	for _, cmd := range splitCommands(g.Run) {
		w := ps.set.tune(key, cmd.words)
		if ps.outsideEnvironment(w) {
			parts = append(parts, strings.Join(quoteAll(w), " "))
			g.EnvNote = ps.outsideNote(w[0], g.Source)
			continue
		}
		parts = append(parts, ps.inEnvironment(w))
	}
	g.Run = strings.Join(parts, " && ")
	if g.EnvNote != "" {
		ps.p.Gates = append(ps.p.Gates, g)
		return
	}
	if len(ps.prefix) > 0 {
		g.Fix = ps.fixInEnvironment(g.Fix)
		if g.Hint != "" {
			g.Hint = strings.Replace(g.Hint, "`", "`"+strings.Join(ps.prefix, " ")+" ", 1)
		}
	}
	ps.p.Gates = append(ps.p.Gates, g)
}

// tune adds what the tool's config makes the command need to check without writing.
func (s pythonSettings) tune(key string, w []string) []string {
	switch {
	case key == "ruff" && s.ruffFix && !slices.Contains(w, "--no-fix"):
		return append(w, "--no-fix") // the config's fix = true would rewrite files
	case key == "mypy" && !s.mypyFiles && !hasPositional(w):
		return append(w, ".") // nothing names the files: mypy would stop at "missing target"
	}
	return w
}

// pythonToolPackages are the Python tools gates run, by command, with the package that installs
// each: what a lock file must list for the tool to be in the project's environment.
var pythonToolPackages = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"ruff": "ruff", "black": "black", "isort": "isort", "flake8": "flake8", "pylint": "pylint",
		"mypy": "mypy", "pyright": "pyright", "basedpyright": "basedpyright", "codespell": "codespell",
		"pytest": "pytest",
	}
})

// outsideEnvironment reports whether a command runs a known Python tool that the project's lock
// file does not hold: pre-commit installs its hooks' tools in environments of its own, and `uv
// run mypy` where the lock has no mypy fails on every run, whatever the code. Such a command
// runs the tool from PATH, where preflight can say it is missing.
func (ps *pythonScan) outsideEnvironment(w []string) bool {
	if len(ps.prefix) == 0 || ps.locked == nil || len(w) == 0 {
		return false
	}
	pkg, known := pythonToolPackages()[w[0]]
	return known && !ps.locked[pkg]
}

// outsideNote says why a gate runs its tool from PATH.
func (ps *pythonScan) outsideNote(tool, source string) string {
	why := ""
	if strings.Contains(source, ".pre-commit-config.yaml") {
		why = " (pre-commit installs its own)"
	}
	return tool + " is not in " + ps.lock + why + ": the gate runs the " + tool + " on PATH."
}

// lockedPackages reads the package names of a uv or poetry lock file (both list them as
// [[package]] tables with a name); nil when the file cannot be read or lists none.
func lockedPackages(path string) map[string]bool {
	var lock struct {
		Package []struct{ Name string } `toml:"package"`
	}
	if _, err := toml.Decode(string(readCapped(path)), &lock); err != nil || len(lock.Package) == 0 {
		return nil
	}
	names := map[string]bool{}
	for _, p := range lock.Package {
		names[strings.ToLower(strings.ReplaceAll(p.Name, "_", "-"))] = true
	}
	return names
}

// inEnvironment writes a command run by the project's environment runner, when it has one.
func (ps *pythonScan) inEnvironment(w []string) string {
	if len(ps.prefix) > 0 {
		w = append(slices.Clone(ps.prefix), w...)
	}
	return strings.Join(quoteAll(w), " ")
}

// fixInEnvironment is inEnvironment for each command of a fixer ("" stays "").
func (ps *pythonScan) fixInEnvironment(fix string) string {
	if fix == "" {
		return ""
	}
	var fixes []string
	for _, cmd := range splitCommands(fix) {
		fixes = append(fixes, ps.inEnvironment(cmd.words))
	}
	return strings.Join(fixes, " && ")
}

// hasPositional reports whether a command names files or folders (an argument not a flag).
func hasPositional(words []string) bool {
	for i := 1; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, "-") {
			switch w {
			case "-p", "-m", "--package", "--module":
				return true // they name what to check
			case "--config-file", "--python-version", "--cache-dir":
				i++ // the flag's value
			}
			continue
		}
		return true
	}
	return false
}

// iniSection reads the keys of [name] in an INI file (mypy.ini, setup.cfg); ok is whether the
// section is there.
func iniSection(data []byte, name string) (map[string]bool, bool) {
	keys := map[string]bool{}
	in, found := false, false
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			in = strings.TrimSpace(strings.Trim(line, "[]")) == name
			found = found || in
			continue
		}
		if k, ok := iniKey(line); in && ok {
			keys[k] = true
		}
	}
	return keys, found
}

// iniKey is the key of a KEY = value line; false for a comment, an empty line or a continued
// value.
func iniKey(line string) (string, bool) {
	if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";") {
		return "", false
	}
	k, _, ok := strings.Cut(line, "=")
	return strings.TrimSpace(k), ok
}
