package scaffold

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"time"
)

func detectPython(dir string) *Project {
	requirements, _ := filepath.Glob(filepath.Join(dir, "requirements*.txt"))
	if !exists(dir, "pyproject.toml") && len(requirements) == 0 {
		return nil
	}
	pyproject, _ := os.ReadFile(filepath.Join(dir, "pyproject.toml"))
	setupCfg, _ := os.ReadFile(filepath.Join(dir, "setup.cfg"))

	// A project managed by uv or Poetry keeps its tools in its own environment: run them there.
	p := &Project{Kind: "Python"}
	prefix := ""
	switch {
	case exists(dir, "uv.lock"):
		p.Tool, prefix = "uv", "uv run "
	case exists(dir, "poetry.lock"):
		p.Tool, prefix = "Poetry", "poetry run "
	}

	if hasTable(pyproject, "tool.ruff") || exists(dir, "ruff.toml") || exists(dir, ".ruff.toml") {
		p.Gates = append(p.Gates, Gate{Name: "lint", Comment: "ruff's lint rules", Run: prefix + "ruff check .",
			Timeout: 5 * time.Minute, Hint: "Run `" + prefix + "ruff check --fix .` first."})
	}
	if hasTable(pyproject, "tool.mypy") || hasTable(setupCfg, "mypy") || exists(dir, "mypy.ini") || exists(dir, ".mypy.ini") {
		p.Gates = append(p.Gates, Gate{Name: "typecheck", Comment: "type errors, as mypy reports them",
			Run: prefix + "mypy .", Timeout: 10 * time.Minute})
	}
	pytest := "python3 -m pytest"
	if prefix != "" {
		pytest = prefix + "pytest"
	}
	p.Gates = append(p.Gates, Gate{Name: "test", Comment: "the tests, with pytest", Run: pytest,
		Timeout: 10 * time.Minute, Hint: "Rerun one test with `" + pytest + " -k NAME`."})
	return p
}

// hasTable reports whether a TOML or INI file has the table [name] or one of its sub-tables
// ([name.something]); a header line is all it takes, so no parser is needed.
func hasTable(data []byte, name string) bool {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "[") {
			continue
		}
		header := strings.TrimSpace(strings.Trim(line, "[]"))
		if i := strings.IndexByte(header, ']'); i >= 0 { // a comment after the header
			header = strings.TrimSpace(header[:i])
		}
		if header == name || strings.HasPrefix(header, name+".") {
			return true
		}
	}
	return false
}
