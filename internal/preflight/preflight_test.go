package preflight

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// withLock gives env a lock file with its content.
func withLock(env Env, path, content string) Env {
	env.ReadFile = func(p string) ([]byte, error) {
		if p == path {
			return []byte(content), nil
		}
		return nil, errors.New("no such file")
	}
	return env
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
		{"a Python tool in a project without a virtualenv", check("lint", "ruff check"), fakeEnv(nil), []string{"ruff"},
			"uv tool install ruff (or: pipx install ruff)"},
		{"a Python tool in a uv project", check("lint", "ruff check"), fakeEnv(nil, "/repo/uv.lock"), []string{"ruff"},
			"uv sync, then activate the virtualenv before running gauntlet (or run the tool through uv run); or install ruff alone: uv tool install ruff (or: pipx install ruff)"},
		{"uv itself in a uv project", check("lint", "uv run ruff check"), fakeEnv(nil, "/repo/uv.lock"), []string{"uv"}, "pipx install uv"},
		{"node_modules missing", check("test", "pnpm run test"), fakeEnv([]string{"pnpm"}), []string{"node_modules"}, "pnpm install"},
		{"node_modules of a sub-project", gates.Gate{Name: "web-lint", Kind: gates.KindCheck, Run: "npm run lint", Dir: "web", Enabled: true},
			fakeEnv([]string{"npm"}), []string{"node_modules"}, "cd web && npm install"},
		{"node_modules of the workspace root", gates.Gate{Name: "w", Kind: gates.KindCheck, Run: "pnpm run lint", Dir: "web", Enabled: true},
			fakeEnv([]string{"pnpm"}, "/repo/node_modules"), nil, ""},
		{"shellcheck missing", check("sh", "shellcheck -x {files}"), fakeEnv(nil), []string{"shellcheck"},
			"apt-get install shellcheck (or: brew install shellcheck)"},
		{"markdownlint-cli2 missing", check("md", "markdownlint-cli2 {files}"), fakeEnv(nil), []string{"markdownlint-cli2"},
			"npm install -g markdownlint-cli2"},
		{"markdownlint missing", check("md", "markdownlint {files}"), fakeEnv(nil), []string{"markdownlint"},
			"npm install -g markdownlint-cli"},
		{"maven missing", check("test", "mvn -B verify"), fakeEnv(nil), []string{"mvn"},
			"install Maven (apt-get install maven, or https://maven.apache.org/download.cgi)"},
		{"the Maven wrapper needs a JDK", check("test", "./mvnw -B verify"), fakeEnv(nil, "/repo/mvnw"), []string{"java"},
			"install a JDK (apt-get install default-jdk, or https://adoptium.net)"},
		{"the Gradle wrapper needs a JDK", check("check", "./gradlew check"), fakeEnv(nil, "/repo/gradlew"), []string{"java"},
			"install a JDK (apt-get install default-jdk, or https://adoptium.net)"},
		{"the wrapper with a JDK", check("test", "./mvnw -B verify"), fakeEnv([]string{"java"}, "/repo/mvnw"), nil, ""},
		{"detect-secrets missing", check("secrets", "detect-secrets-hook --baseline .secrets.baseline {files}"), fakeEnv(nil),
			[]string{"detect-secrets-hook"}, "pipx install detect-secrets"},
		// A project that declares no dependency has no node_modules to install: `npm install`
		// would not make eslint appear, and node --test needs none.
		{"no dependency declared, no node_modules needed", check("test", "npm run test"),
			withLock(fakeEnv([]string{"npm"}), "/repo/package.json", `{"scripts": {"test": "node --test"}}`), nil, ""},
		{"a dependency declared, node_modules needed", check("test", "npm run test"),
			withLock(fakeEnv([]string{"npm"}), "/repo/package.json", `{"devDependencies": {"vitest": "^2"}}`), []string{"node_modules"}, "npm install"},
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
	env := fakeEnv([]string{"pnpm"}, modules)
	env.ReadFile = os.ReadFile
	got := CheckEnv(root, g, env)
	if len(got) != 1 || got[0].Tool != "Playwright browsers" || got[0].Fix != "pnpm exec playwright install --with-deps" {
		t.Errorf("problems = %+v, want the browsers with pnpm exec playwright install", got)
	}
	installed := fakeEnv([]string{"pnpm"}, modules, "/home/u/.cache/ms-playwright")
	installed.ReadFile = os.ReadFile
	if got := CheckEnv(root, g, installed); len(got) != 0 {
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

// Tools older than the project requires are named, each with the file that requires it.
func TestCheckVersions(t *testing.T) {
	root := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module x\n\ngo 1.27.0\n")
	write("package.json", `{"engines": {"node": ">=22.12 || ^20.19"}}`)
	write("pyproject.toml", "[tool.pytest.ini_options]\nminversion = \"8.0\"\n")
	write(".pre-commit-config.yaml", "minimum_pre_commit_version: '3.2.0'\nrepos: []\n")
	installed := map[string]string{"go": "go1.26.8\n", "node": "v20.20.2\n", "pytest": "pytest 7.2.1\n", "pre-commit": "pre-commit 3.0.4\n"}
	env := fakeEnv([]string{"go", "node", "npm", "pytest", "pre-commit"})
	env.Version = func(_ string, argv ...string) (string, error) { return installed[argv[0]], nil }
	env.Exists = func(string) bool { return true }
	gs := []gates.Gate{check("build", "go build ./..."), check("web", "npm test"), check("py", "pytest -q"), check("hooks", "pre-commit run --all-files")}
	var got []string
	for _, p := range CheckEnv(root, gs, env) {
		got = append(got, p.Gate+": "+p.Message)
	}
	want := []string{
		"build: Go 1.26.8 is older than the project requires (go.mod: 1.27.0): the gate will error",
		"py: pytest 7.2.1 is older than the project requires (pytest's minversion: 8.0): the gate will error",
		"hooks: pre-commit 3.0.4 is older than the project requires (.pre-commit-config.yaml minimum_pre_commit_version: 3.2.0): the gate will error",
	}
	// Node 20.20.2 satisfies ^20.19.
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	installed["node"] = "v20.11.0\n"
	installed["go"] = "go1.27.1\n"
	got = nil
	for _, p := range CheckEnv(root, gs[:2], env) {
		got = append(got, p.Message)
	}
	if len(got) != 1 || !strings.Contains(got[0], "Node.js 20.11.0 is older than the project requires (package.json engines.node: >=22.12 || ^20.19)") {
		t.Errorf("node: %v", got)
	}
}

func TestInRange(t *testing.T) {
	for _, tc := range []struct {
		have, rng string
		want      bool
	}{
		{"22.1.0", ">=20", true}, {"18.0.0", ">=20", false}, {"20.5.0", "^20.3", true}, {"21.0.0", "^20.3", false},
		{"20.5.0", "20.x", true}, {"19.9.0", "20.x", false}, {"20.5.0", ">=18 <21", true}, {"22.0.0", ">=18 <21", false},
		{"24.1.0", "^22.1.0 || >=24", true}, {"23.0.0", "^22.1.0 || >=24", false}, {"20.0.0", "lts/*", true}, {"20.0.0", "*", true},
	} {
		if got := inRange(tc.have, tc.rng); got != tc.want {
			t.Errorf("inRange(%q, %q) = %v", tc.have, tc.rng, got)
		}
	}
}

func TestStartedProgram(t *testing.T) {
	tests := []struct {
		gate gates.Gate
		prog string // "" when the command is not judged
		cwd  string
	}{
		{check("t", "golangci-lint-missing run ./..."), "golangci-lint-missing", "."},
		{gates.Gate{Argv: []string{"golangci-lint-missing2", "run"}}, "golangci-lint-missing2", "."},
		{check("t", "FOO=1 BAR=2 tool x"), "tool", "."},
		{check("t", "env FOO=1 tool x"), "tool", "."},
		{check("t", "exec tool"), "tool", "."},
		{check("t", "cd web && npm-tool lint"), "npm-tool", "web"},
		{check("t", "cd web; cd ../api && ./check.sh"), "./check.sh", "api"},
		{check("t", "export A=1; set -e\ntool"), "tool", "."},
		{check("t", "tool | tee out"), "tool", "."},
		{check("t", "make build && ./bin/tool"), "make", "."},
		{check("t", "test -x ./bin/tool && ./bin/tool"), "", ""},
		{check("t", "[ -f x ] || tool"), "", ""},
		{check("t", "if true; then tool; fi"), "", ""},
		{check("t", "true || tool"), "", ""},
		{check("t", "cd \"$DIR\" && tool"), "", ""},
		{check("t", "cd .. && tool"), "", ""},
		{check("t", "$TOOL run"), "", ""},
		{check("t", "FOO='a b' tool"), "", ""},
		{check("t", "env -i tool"), "", ""},
		{check("t", "(cd x && tool)"), "", ""},
		{check("t", "f() { tool; }; f"), "", ""},
		{check("t", "echo hi"), "", ""},
		{gates.Gate{Run: "Get-ChildItem", Shell: "pwsh"}, "", ""},
	}
	for _, tt := range tests {
		prog, cwd, ok := startedProgram(tt.gate)
		if !ok {
			prog, cwd = "", ""
		}
		if prog != tt.prog || cwd != tt.cwd {
			t.Errorf("startedProgram(%q %q) = %q in %q, want %q in %q", tt.gate.Run, tt.gate.Argv, prog, cwd, tt.prog, tt.cwd)
		}
	}
}

func TestPrograms(t *testing.T) {
	root := "/repo"
	setup := gates.Gate{Name: "deps", Kind: gates.KindCheck, Run: "echo install", Enabled: true, Setup: true}
	needsSetup := check("gen", "protoc-gen-x")
	needsSetup.Needs = []string{"deps"}
	ciOnly := check("ci", "ci-tool")
	ciOnly.When = gates.WhenCI
	ownPath := check("own", "own-tool")
	ownPath.Env = []string{"PATH=/opt/own/bin"}
	tests := []struct {
		name string
		gate gates.Gate
		env  Env
		want string // "problem", "warn" or "" for nothing said
	}{
		{"missing everywhere", check("t", "ghost run"), fakeEnv(nil), "problem"},
		{"on PATH", check("t", "ghost run"), fakeEnv([]string{"ghost"}), ""},
		{"known tools are Check's", check("t", "golangci-lint run"), fakeEnv(nil), ""},
		{"script in the gate's dir", gates.Gate{Name: "t", Kind: gates.KindCheck, Run: "./lint.sh", Dir: "web", Enabled: true},
			fakeEnv(nil, "/repo/web/lint.sh"), ""},
		{"script missing", check("t", "./lint.sh"), fakeEnv(nil), "problem"},
		{"in node_modules/.bin", check("t", "eslint ."), fakeEnv(nil, "/repo/node_modules/.bin/eslint"), "warn"},
		{"dependencies not installed", check("t", "eslint ."), fakeEnv(nil, "/repo/package.json"), "warn"},
		{"in a venv", check("t", "pyflakes"), fakeEnv(nil, "/repo/.venv/bin/pyflakes"), "warn"},
		{"a setup step may install it", needsSetup, fakeEnv(nil), "warn"},
		{"runs only in CI", ciOnly, fakeEnv(nil), "warn"},
		{"own PATH", ownPath, fakeEnv(nil), "warn"},
		{"disabled", gates.Gate{Name: "t", Kind: gates.KindCheck, Run: "ghost"}, fakeEnv(nil), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ProgramsEnv(root, []gates.Gate{setup, tt.gate}, tt.env)
			level := ""
			if len(got) == 1 {
				level = map[bool]string{true: "problem", false: "warn"}[got[0].Sure]
			}
			if len(got) > 1 || level != tt.want {
				t.Errorf("ProgramsEnv = %+v, want %s", got, tt.want)
			}
		})
	}
}

// Missing is what preflight says of a tool not on PATH, for whoever finds it missing: the
// virtualenv only where the project has one.
func TestMissing(t *testing.T) {
	for _, tt := range []struct {
		name, prog, dir string
		env             Env
		message, fix    string
	}{
		{"unknown", "license-check", "/repo", fakeEnv(nil), "", ""},
		{"uv", "uv", "/repo", fakeEnv(nil, "/repo/uv.lock"), "uv is not on PATH", "pipx install uv"},
		{"ruff alone", "ruff", "/repo", fakeEnv(nil), "ruff is not on PATH", "uv tool install ruff (or: pipx install ruff)"},
		{"ruff, poetry sub-project", "ruff", "/repo/api", fakeEnv(nil, "/repo/api/poetry.lock"),
			"ruff is not on PATH, and the project's virtualenv (api/poetry.lock) is not created or lacks it",
			"poetry install, then activate the virtualenv before running gauntlet (or run the tool through poetry run); or install ruff alone: uv tool install ruff (or: pipx install ruff)"},
		{"ruff, a uv.lock that does not hold it", "ruff", "/repo", withLock(fakeEnv(nil, "/repo/uv.lock"), "/repo/uv.lock",
			"version = 1\n\n[[package]]\nname = \"pytest\"\nversion = \"8.3.0\"\n"),
			"ruff is not on PATH, and the project's uv.lock does not hold it (a pre-commit hook's tool, say)",
			"uv tool install ruff (or: pipx install ruff)"},
		{"ruff, a uv.lock that holds it", "ruff", "/repo", withLock(fakeEnv(nil, "/repo/uv.lock"), "/repo/uv.lock",
			"version = 1\n\n[[package]]\nname = \"ruff\"\nversion = \"0.6.0\"\n"),
			"ruff is not on PATH, and the project's virtualenv (uv.lock) is not created or lacks it",
			"uv sync, then activate the virtualenv before running gauntlet (or run the tool through uv run); or install ruff alone: uv tool install ruff (or: pipx install ruff)"},
		{"ruff, an existing .venv without it", "ruff", "/repo", fakeEnv(nil, "/repo/.venv"),
			"ruff is not on PATH nor in the project's virtualenv (.venv)",
			"install it there (.venv/bin/pip install ruff) and activate it before running gauntlet; or install ruff alone: uv tool install ruff (or: pipx install ruff)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, ok := Missing(tt.prog, "/repo", tt.dir, tt.env)
			if ok != (tt.message != "") || p.Message != tt.message || p.Fix != tt.fix {
				t.Errorf("Missing = %+v, %v\nwant message %q, fix %q", p, ok, tt.message, tt.fix)
			}
		})
	}
	for _, name := range ToolNames() {
		if h, ok := InstallHint(name); !ok || h == "" {
			t.Errorf("%s has no install hint", name)
		}
	}
}

// A package.json that declares no dependency (a shell project published on npm, whose test
// script runs its own bin/bats) installs nothing: node_modules is never there, and its absence
// is no problem. One that declares dependencies still needs them.
func TestNodeModulesOnlyWhereThereAreDependencies(t *testing.T) {
	g := []gates.Gate{check("test", "npm run test")}
	for _, tt := range []struct {
		pkg  string
		want int
	}{
		{`{"name": "bats", "scripts": {"test": "bin/bats test"}}`, 0},
		{`{"name": "x", "scripts": {"test": "bin/bats test"}, "dependencies": {}, "devDependencies": {}}`, 0},
		{`{"name": "x", "scripts": {"test": "vitest run"}, "devDependencies": {"vitest": "^3"}}`, 1},
		{`{"name": "x", "scripts": {"test": "node t.js"}, "optionalDependencies": {"fsevents": "^2"}}`, 1},
		{`not json`, 1},
	} {
		root := t.TempDir()
		if err := os.WriteFile(filepath.Join(root, "package.json"), []byte(tt.pkg), 0o644); err != nil {
			t.Fatal(err)
		}
		env := fakeEnv([]string{"npm"})
		env.ReadFile = os.ReadFile
		if got := CheckEnv(root, g, env); len(got) != tt.want {
			t.Errorf("%s: problems = %+v, want %d", tt.pkg, got, tt.want)
		}
	}
}

// The wrapper runs $JAVA_HOME/bin/java, java.exe on Windows: a JDK named there needs no java on
// PATH.
func TestJVMWrapperJavaHome(t *testing.T) {
	for _, java := range []string{"java", "java.exe"} {
		env := fakeEnv(nil, "/repo/mvnw", filepath.Join("/jdk", "bin", java))
		env.Getenv = func(k string) string {
			if k == "JAVA_HOME" {
				return "/jdk"
			}
			return ""
		}
		if got := CheckEnv("/repo", []gates.Gate{check("test", "./mvnw -B verify")}, env); len(got) != 0 {
			t.Errorf("JAVA_HOME holding bin/%s: problems %+v", java, got)
		}
	}
}
