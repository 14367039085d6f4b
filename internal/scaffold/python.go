package scaffold

import (
	"bufio"
	"bytes"
	"path/filepath"
	"slices"
	"strings"
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
	if ruff, ok := tool["ruff"].(map[string]any); ok {
		s.ruff = true
		s.ruffFix = ruff["fix"] == true
	}
	for _, name := range []string{"ruff.toml", ".ruff.toml"} {
		if exists(dir, name) {
			var cfg map[string]any
			_, _ = toml.Decode(string(readCapped(filepath.Join(dir, name))), &cfg)
			s.ruff = true
			s.ruffFix = s.ruffFix || cfg["fix"] == true
		}
	}
	if mypy, ok := tool["mypy"].(map[string]any); ok {
		s.mypy = true
		s.mypyFiles = mypy["files"] != nil
	}
	for _, name := range []string{"mypy.ini", ".mypy.ini", "setup.cfg"} {
		keys, ok := iniSection(readCapped(filepath.Join(dir, name)), "mypy")
		if ok || name != "setup.cfg" && exists(dir, name) {
			s.mypy = true
			s.mypyFiles = s.mypyFiles || keys["files"]
		}
	}
	_, s.pyright = tool["pyright"]
	s.pyright = s.pyright || exists(dir, "pyrightconfig.json")
	_, s.codespl = tool["codespell"]
	return s
}

func detectPython(c *dirContext) *Project {
	dir := c.abs
	requirements, _ := filepath.Glob(filepath.Join(dir, "requirements*.txt"))
	if !exists(dir, "pyproject.toml") && len(requirements) == 0 && !exists(dir, "setup.py") && !exists(dir, "tox.ini") {
		return nil
	}
	if contains([]string{"docs", "doc", "documentation"}, c.rel) && !exists(dir, "pyproject.toml") && !exists(dir, "setup.py") {
		return nil // the docs' build requirements (sphinx), not a Python project
	}
	set := readPythonSettings(dir)

	// A project managed by uv or Poetry keeps its tools in its own environment: run them there.
	p := &Project{Kind: "Python"}
	var prefix []string
	switch {
	case exists(dir, "uv.lock"):
		p.Tool, prefix = "uv", []string{"uv", "run"}
	case exists(dir, "poetry.lock"):
		p.Tool, prefix = "Poetry", []string{"poetry", "run"}
	}
	def := strings.Replace(gauntletDefault, "%s", "this configuration", 1)

	add := func(key string, fallback *Gate) {
		g, ok := c.pick(key)
		if !ok {
			if fallback == nil {
				return
			}
			g = *fallback
		}
		words := splitCommands(g.Run)
		var parts []string
		for _, cmd := range words {
			w := cmd.words
			switch key {
			case "ruff":
				if set.ruffFix && !slices.Contains(w, "--no-fix") {
					w = append(w, "--no-fix") // the config's fix = true would rewrite files
				}
			case "mypy":
				if !set.mypyFiles && !hasPositional(w) {
					w = append(w, ".") // nothing names the files: mypy would stop at "missing target"
				}
			}
			if len(prefix) > 0 {
				w = append(slices.Clone(prefix), w...)
			}
			parts = append(parts, strings.Join(quoteAll(w), " "))
		}
		g.Run = strings.Join(parts, " && ")
		if g.Fix != "" && len(prefix) > 0 {
			var fixes []string
			for _, cmd := range splitCommands(g.Fix) {
				fixes = append(fixes, strings.Join(quoteAll(append(slices.Clone(prefix), cmd.words...)), " "))
			}
			g.Fix = strings.Join(fixes, " && ")
		}
		if len(prefix) > 0 && g.Hint != "" {
			g.Hint = strings.Replace(g.Hint, "`", "`"+strings.Join(prefix, " ")+" ", 1)
		}
		p.Gates = append(p.Gates, g)
	}

	ruffDefault := &Gate{Name: "lint", Comment: "ruff's lint rules", Run: "ruff check", Fix: "ruff check --fix", Timeout: 5 * time.Minute,
		Source: def + " (ruff)", Inferred: true}
	if !set.ruff {
		ruffDefault = nil
	}
	add("ruff", ruffDefault)
	add("ruff-format", nil)
	add("black", nil)
	add("isort", nil)
	add("flake8", nil)
	add("pylint", nil)
	mypyDefault := &Gate{Name: "typecheck", Comment: "type errors, as mypy reports them", Run: "mypy", Timeout: typeTime,
		Source: def + " (mypy)", Inferred: true}
	if !set.mypy {
		mypyDefault = nil
	}
	add("mypy", mypyDefault)
	pyrightDefault := &Gate{Name: "pyright", Comment: "type errors, as pyright reports them", Run: "pyright", Timeout: lintTime,
		Source: def + " (pyright)", Inferred: true}
	if !set.pyright {
		pyrightDefault = nil
	}
	add("pyright", pyrightDefault)
	add("codespell", nil)

	pytest := "python3 -m pytest"
	if len(prefix) > 0 {
		pytest = "pytest"
	}
	add("pytest", &Gate{Name: "test", Comment: "the tests, with pytest", Run: pytest, Timeout: testTime,
		Source: strings.Replace(gauntletDefault, "%s", "a Python project", 1), Inferred: true})
	if last := &p.Gates[len(p.Gates)-1]; !strings.Contains(last.Run, "&&") {
		last.Hint = "Rerun one test with `" + last.Run + " -k NAME`."
	}
	return p
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
			header := strings.TrimSpace(strings.Trim(line, "[]"))
			in = header == name
			found = found || in
			continue
		}
		if in && line != "" && !strings.HasPrefix(line, "#") && !strings.HasPrefix(line, ";") {
			if k, _, ok := strings.Cut(line, "="); ok {
				keys[strings.TrimSpace(k)] = true
			}
		}
	}
	return keys, found
}
