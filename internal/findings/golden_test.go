package findings

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

var update = flag.Bool("update", false, "rewrite the expected findings in testdata")

// The captured outputs in testdata were printed by the tools themselves (go, gofmt, cargo,
// clippy, gcc, shellcheck, eslint, tsc, vitest, jest, ava) or, for tools this machine cannot
// install (pytest, mypy, ruff, pylint, staticcheck, golangci-lint), written byte for byte in the format
// their documentation shows. Each golden file pins the exact findings.
func TestGolden(t *testing.T) {
	tests := []struct {
		name    string
		command string   // detection, when format is nil
		format  []string // the gate's format key
		root    string   // project root the tool ran in; "" a temporary one with a go.mod
		dir     string
	}{
		{name: "govet", command: "go vet ./..."},
		{name: "gobuild", command: "go build ./..."},
		{name: "gotest", command: "go test ./..."},
		{name: "gotest-v", command: "go test -v ./..."},
		{name: "gotestsum", command: "gotestsum -- ./..."},
		{name: "gofmt", command: "test -z \"$(gofmt -l .)\" || { gofmt -l .; exit 1; }"},
		{name: "staticcheck", command: "staticcheck ./..."},
		{name: "golangci-lint", command: "golangci-lint run"},
		{name: "cargo-build", command: "cargo build"},
		{name: "clippy", command: "cargo clippy -- -D warnings"},
		{name: "cargo-test", command: "cargo test", dir: "calc"},
		{name: "gcc", command: "gcc -Wall -c c.c"},
		{name: "shellcheck-gcc", command: "shellcheck -f gcc deploy.sh"},
		{name: "shellcheck-tty", command: "shellcheck deploy.sh"},
		{name: "eslint-stylish", command: "npx eslint src", root: "/tmp/jsproj"},
		{name: "eslint-compact", command: "npx eslint -f compact src", root: "/tmp/jsproj"},
		{name: "eslint-unix", command: "npx eslint -f unix src", root: "/tmp/jsproj"},
		{name: "tsc", command: "npx tsc --noEmit"},
		{name: "tsc-pretty", format: []string{"tsc"}},
		{name: "vitest", command: "npx vitest run"},
		{name: "jest", command: "npx jest --rootDir jt"},
		{name: "ava", command: "npx ava", dir: "av"},
		{name: "pytest", command: "python -m pytest"},
		{name: "pytest-q", command: "pytest -q --tb=no"},
		{name: "mypy", command: "mypy calc"},
		{name: "ruff", command: "ruff check ."},
		{name: "ruff-concise", format: []string{"ruff"}},
		{name: "pylint", command: "pylint calc"},
		{name: "pylint-parseable", command: "python -m pylint --output-format=parseable calc"},
		{name: "generic", command: "./lint-docs.sh"},
		{name: "errorformat", format: []string{`%f:%l:%c: %tarning: %m`, `%f:%l: %m`, `%-G%.%#`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := os.ReadFile(filepath.Join("testdata", tt.name+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			root := tt.root
			if root == "" {
				root = t.TempDir()
				if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/shop\n\ngo 1.25\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			spec := Detect(commandWords(gates.Gate{Run: tt.command}))
			if tt.format != nil {
				if spec, err = Parse(tt.format); err != nil {
					t.Fatal(err)
				}
			}
			// Captured absolute paths name the project root /ROOT, wherever the test runs.
			out = bytes.ReplaceAll(out, []byte("/ROOT"), []byte(root))
			got := readAll(spec, Options{Root: root, Dir: tt.dir}, out)
			data, err := json.MarshalIndent(got, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			data = append(data, '\n')
			golden := filepath.Join("testdata", tt.name+".json")
			if *update {
				if err := os.WriteFile(golden, data, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(data, want) {
				t.Errorf("findings differ from %s (rerun with -update after checking):\ngot:\n%s\nwant:\n%s", golden, data, want)
			}
		})
	}
}

// readAll feeds output the way the runner does: line by line, escape sequences stripped.
func readAll(spec Spec, opts Options, out []byte) []gates.Finding {
	r := NewReader(spec, opts)
	var o gates.Outcome
	if r == nil {
		return nil
	}
	for line := range bytes.Lines(out) {
		r.Line(termtext.Strip(nil, bytes.TrimSuffix(line, []byte("\n"))))
	}
	r.Finish(&o)
	if o.Findings == nil {
		return []gates.Finding{}
	}
	return o.Findings
}
