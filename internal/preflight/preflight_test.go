package preflight

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// fakeEnv has the programs named on PATH and the paths named on disk.
func fakeEnv(onPath []string, files ...string) Env {
	return Env{
		LookPath: func(f string) (string, error) {
			if slices.Contains(onPath, f) {
				return "/usr/bin/" + f, nil
			}
			return "", errors.New("not found")
		},
		Exists: func(p string) bool { return slices.Contains(files, p) },
		Getenv: func(string) string { return "" },
		Home:   "/home/u",
	}
}

func check(name, run string) gates.Gate {
	return gates.Gate{Name: name, Kind: gates.KindCheck, Run: run, Enabled: true}
}

func TestCheck(t *testing.T) {
	root := "/repo"
	tests := []struct {
		name   string
		gate   gates.Gate
		env    Env
		want   []string // Tool of each problem
		wantIn string   // a Fix that must be among them
	}{
		{"tool missing", check("lint", "golangci-lint run"), fakeEnv([]string{"go"}), []string{"golangci-lint"},
			"go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@latest"},
		{"tool present", check("lint", "golangci-lint run"), fakeEnv([]string{"golangci-lint"}), nil, ""},
		{"every command of a line", check("t", "FOO=1 ruff check && env X=2 mypy ."), fakeEnv(nil), []string{"ruff", "mypy"}, ""},
		{"unknown programs are not judged", check("t", "./scripts/check.sh && [ -z \"$x\" ] || exit 1"), fakeEnv(nil), nil, ""},
		{"argv", gates.Gate{Name: "t", Kind: gates.KindCheck, Argv: []string{"codespell"}, Enabled: true}, fakeEnv(nil),
			[]string{"codespell"}, "pipx install codespell"},
		{"disabled gate", gates.Gate{Name: "t", Kind: gates.KindCheck, Run: "ruff check", Enabled: false}, fakeEnv(nil), nil, ""},
		{"review gate", gates.Gate{Name: "t", Kind: gates.KindReview, Run: "ruff", Enabled: true}, fakeEnv(nil), nil, ""},
		{"clippy component missing", check("lint", "cargo clippy -- -D warnings"), fakeEnv([]string{"cargo"}), []string{"cargo-clippy"},
			"rustup component add clippy"},
		{"clippy under CARGO_HOME", check("lint", "cargo clippy"), fakeEnv([]string{"cargo"}, "/home/u/.cargo/bin/cargo-clippy"), nil, ""},
		{"uv brings the tool", check("lint", "uv run ruff check"), fakeEnv([]string{"uv"}), nil, ""},
		{"uv missing", check("lint", "uv run ruff check"), fakeEnv(nil), []string{"uv"}, "pipx install uv"},
		{"tool in a venv that is not active", check("t", "mypy"), fakeEnv(nil, "/repo/.venv/bin/mypy"), []string{"mypy"},
			"activate the environment (. .venv/bin/activate) before running gauntlet, or run the tool through uv run"},
		{"node_modules missing", check("test", "pnpm run test"), fakeEnv([]string{"pnpm"}), []string{"node_modules"}, "pnpm install"},
		{"node_modules of a sub-project", gates.Gate{Name: "web-lint", Kind: gates.KindCheck, Run: "npm run lint", Dir: "web", Enabled: true},
			fakeEnv([]string{"npm"}), []string{"node_modules"}, "cd web && npm install"},
		{"node_modules of the workspace root", gates.Gate{Name: "w", Kind: gates.KindCheck, Run: "pnpm run lint", Dir: "web", Enabled: true},
			fakeEnv([]string{"pnpm"}, "/repo/node_modules"), nil, ""},
		{"the package manager's own commands need no node_modules", check("t", "pnpm install --frozen-lockfile"), fakeEnv([]string{"pnpm"}), nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CheckEnv(root, []gates.Gate{tt.gate}, tt.env)
			var tools []string
			fixFound := tt.wantIn == ""
			for _, p := range got {
				tools = append(tools, p.Tool)
				if p.Gate != tt.gate.Name || p.Message == "" {
					t.Errorf("problem %+v: want gate %q and a message", p, tt.gate.Name)
				}
				fixFound = fixFound || p.Fix == tt.wantIn
			}
			if !slices.Equal(tools, tt.want) {
				t.Errorf("tools = %v, want %v (%v)", tools, tt.want, got)
			}
			if !fixFound {
				t.Errorf("no problem with fix %q in %v", tt.wantIn, got)
			}
		})
	}
}

func TestPlaywrightBrowsers(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "package.json"), []byte(`{"devDependencies": {"@playwright/test": "^1.48.0"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	g := []gates.Gate{check("e2e", "pnpm exec playwright test")}
	modules := filepath.Join(root, "node_modules")
	got := CheckEnv(root, g, fakeEnv([]string{"pnpm"}, modules))
	if len(got) != 1 || got[0].Tool != "Playwright browsers" || got[0].Fix != "pnpm exec playwright install --with-deps" {
		t.Errorf("problems = %+v, want the browsers with pnpm exec playwright install", got)
	}
	if got := CheckEnv(root, g, fakeEnv([]string{"pnpm"}, modules, "/home/u/.cache/ms-playwright")); len(got) != 0 {
		t.Errorf("browsers installed, problems = %+v", got)
	}
}

func TestGrouped(t *testing.T) {
	ps := []Problem{
		{Gate: "web-lint", Tool: "pnpm", Message: "pnpm is not on PATH", Fix: "f"},
		{Gate: "lint", Tool: "golangci-lint", Message: "m", Fix: "g"},
		{Gate: "web-build", Tool: "pnpm", Message: "pnpm is not on PATH", Fix: "f"},
	}
	got := Grouped(ps)
	if len(got) != 2 || got[0].Gate != "web-lint, web-build" || got[1].Gate != "lint" {
		t.Errorf("Grouped = %+v", got)
	}
	if s := got[0].String(); s != "web-lint, web-build: pnpm is not on PATH; get it with: f" {
		t.Errorf("String() = %q", s)
	}
}
