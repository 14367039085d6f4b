package scaffold

import (
	"strings"
	"testing"
)

// Each recognised tool has a writing form, and a command written in it says so: such a command
// may become a fixer, never a gate.
func TestClassifyFixForms(t *testing.T) {
	tests := []struct {
		cmd, run, fix string
		writes        bool
	}{
		{"golangci-lint run --fix --timeout=5m", "golangci-lint run", "golangci-lint run --fix", true}, // CI's --timeout is CI's
		{"golangci-lint run", "golangci-lint run", "golangci-lint run --fix", false},
		{"ruff check --fix src", "ruff check src", "ruff check --fix src", true},
		{"ruff format", "ruff format --check", "ruff format", true},
		{"ruff format --check", "ruff format --check", "ruff format", false},
		{"black .", "black --check .", "black .", true},
		{"black --check src", "black --check src", "black src", false},
		{"isort --check-only .", "isort --check-only .", "isort .", false},
		{"codespell -w", "codespell", "codespell -w", true},
		{"eslint --fix .", "eslint .", "eslint --fix .", true},
		{"eslint .", "eslint .", "eslint --fix .", false},
		{"prettier --write .", "prettier --check .", "prettier --write .", true},
		{"prettier --check src", "prettier --check src", "prettier --write src", false},
		{"biome lint --write --unsafe", "biome lint", "biome lint --write", true},
		{"biome ci .", "biome ci .", "biome check --write .", false},
		{"cargo fmt --all -- --check", "cargo fmt --all -- --check", "cargo fmt --all", false},
		{"cargo fmt", "cargo fmt --check", "cargo fmt", true},
		{"cargo clippy --all-targets -- -D warnings", "cargo clippy --all-targets -- -D warnings", "cargo clippy --all-targets --fix --allow-dirty -- -D warnings", false},
	}
	for _, tt := range tests {
		c, ok := classify(splitCommands(tt.cmd)[0].words)
		if !ok {
			t.Errorf("classify(%q): no check", tt.cmd)
			continue
		}
		if got := strings.Join(c.words, " "); got != tt.run {
			t.Errorf("classify(%q) runs %q, want %q", tt.cmd, got, tt.run)
		}
		if got := strings.Join(c.fix, " "); got != tt.fix || c.writes != tt.writes {
			t.Errorf("classify(%q) fixes with %q (writes %v), want %q (writes %v)", tt.cmd, got, c.writes, tt.fix, tt.writes)
		}
	}
	for _, cmd := range []string{"gofmt -l -w .", "go fmt ./...", "go mod tidy"} {
		if c, _ := classify(splitCommands(cmd)[0].words); !c.writes {
			t.Errorf("classify(%q) does not say it writes", cmd)
		}
	}
}

// gateFixes maps each laid-out gate to "run | fix".
func gateFixes(t *testing.T, files map[string]string) map[string]string {
	t.Helper()
	projects, err := Detect(writeTree(t, files))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, g := range Layout(projects) {
		out[g.Name] = g.Run + " | " + g.Fix
	}
	return out
}

func TestInitWritesCheckAndFixForms(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  map[string]string // a subset of the gates: "run | fix"
	}{
		{"lint and lint:fix scripts", map[string]string{"package.json": `{"scripts": {"lint": "eslint .", "lint:fix": "eslint --fix ."}}`, "package-lock.json": "{}"},
			map[string]string{"lint": "npm run lint | npm run lint:fix"}},
		{"a fix script for lint", map[string]string{"package.json": `{"scripts": {"lint": "eslint .", "fix": "eslint --fix ."}}`, "pnpm-lock.yaml": ""},
			map[string]string{"lint": "pnpm run lint | pnpm run fix"}},
		{"a lint script that writes is the fix, its check form the gate", map[string]string{"package.json": `{"scripts": {"lint": "biome lint --write --unsafe"}}`, "pnpm-lock.yaml": ""},
			map[string]string{"lint": "pnpm exec biome lint | pnpm run lint"}},
		{"format and format:check", map[string]string{"package.json": `{"scripts": {"test": "vitest run", "format": "prettier --write .", "format:check": "prettier --check ."}}`, "package-lock.json": "{}"},
			map[string]string{"fmt": "npm run format:check | npm run format", "test": "npm run test | "}},
		{"a format script alone", map[string]string{"package.json": `{"scripts": {"format": "prettier --write src"}}`, "yarn.lock": ""},
			map[string]string{"fmt": "yarn prettier --check src | yarn run format"}},
		{"eslint configured, no script", map[string]string{"package.json": `{"devDependencies": {"eslint": "9"}}`, "eslint.config.js": "", "package-lock.json": "{}"},
			map[string]string{"lint": "npx eslint --no-warn-ignored {files} | npx eslint --fix ."}},
		{"go", map[string]string{"go.mod": "module x\n", ".golangci.yml": "version: 2\n"},
			map[string]string{"fmt": gofmtCheck + " | " + gofmtFix, "lint": "golangci-lint run | golangci-lint run --fix", "tidy": "go mod tidy -diff | go mod tidy",
				"test": "go test ./... | "}},
		{"ruff through uv", map[string]string{"pyproject.toml": "[tool.ruff]\n", "uv.lock": ""},
			map[string]string{"lint": "uv run ruff check --force-exclude {files} | uv run ruff check --fix"}},
		{"rust", map[string]string{"Cargo.toml": "[package]\nname='x'\n"},
			map[string]string{"fmt": "cargo fmt --check | cargo fmt", "lint": "cargo clippy --all-targets -- -D warnings | cargo clippy --all-targets --fix --allow-dirty -- -D warnings"}},
		{"a writing script from CI", map[string]string{"package.json": `{"devDependencies": {"prettier": "3"}}`, "pnpm-lock.yaml": "",
			".github/workflows/ci.yml": "jobs:\n  f:\n    steps:\n      - run: pnpm exec prettier --write .\n"},
			map[string]string{"fmt": "pnpm exec prettier --check --ignore-unknown {files} | pnpm exec prettier --write ."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := gateFixes(t, tt.files)
			for name, want := range tt.want {
				if got[name] != want {
					t.Errorf("%s: %q, want %q (all: %v)", name, got[name], want, got)
				}
			}
		})
	}
}

// A script that rewrites files and has no check form gauntlet knows is no gate: gating it would
// rewrite the agent's code.
func TestWritingScriptWithoutCheckFormIsNoGate(t *testing.T) {
	projects, err := Detect(writeTree(t, map[string]string{
		"package.json": `{"scripts": {"lint": "eslint --fix . | tee lint.log", "test": "vitest run"}}`, "package-lock.json": "{}"}))
	if err != nil {
		t.Fatal(err)
	}
	got := gateCommands(projects)
	if _, ok := got["lint"]; ok {
		t.Errorf("the writing lint script became a gate: %v", got)
	}
	if !strings.Contains(strings.Join(projects[0].Notes, "\n"), "the lint script rewrites files") {
		t.Errorf("notes %q do not say why lint is no gate", projects[0].Notes)
	}
}
