package scaffold

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSplitCommands(t *testing.T) {
	tests := []struct {
		script string
		want   []string // each command, words joined by a space; "cd:" prefix when in a folder
	}{
		{"go test ./...", []string{"go test ./..."}},
		{"FOO=1 BAR=2 go vet ./... && golangci-lint run", []string{"go vet ./...", "golangci-lint run"}},
		{"go test -v ./... | tee test.log; exit ${PIPESTATUS[0]}", []string{"go test -v ./...", "tee test.log", "exit ${PIPESTATUS[0]}"}},
		{"go test ./... 2>&1 > out.txt", []string{"go test ./..."}},
		{"cd web && pnpm lint\npnpm build", []string{"web: pnpm lint", "pnpm build"}},
		{"cargo test \\\n  --workspace", []string{"cargo test --workspace"}},
		{`echo "a && b" # comment`, []string{"echo a && b"}},
		{"go test ${{ matrix.flags }} ./...", []string{"go test ./..."}},
		{"case $g in\n  a) go test ./a/... ;;\nesac", []string{"case $g in", "a", "go test ./a/...", "esac"}},
		{`[ -z "$(gofmt -l .)" ] || (gofmt -d .; exit 1)`, []string{"[ -z $(gofmt -l .) ]", "gofmt -d .", "exit 1"}},
		{"env GOFLAGS=-mod=mod go test ./...", []string{"go test ./..."}},
		{"for d in $(PKGS); do if [ -n \"$T\" ]; then go test $T $d; else go test -v $d; fi; done",
			[]string{"for d in", "PKGS", "[ -n $T ]", "go test $T $d", "go test -v $d", "fi", "done"}},
	}
	for _, tt := range tests {
		var got []string
		for _, c := range splitCommands(tt.script) {
			s := strings.Join(c.words, " ")
			if c.cd != "" {
				s = c.cd + ": " + s
			}
			got = append(got, s)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("splitCommands(%q) = %q, want %q", tt.script, got, tt.want)
		}
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		cmd, key, run string // run "" means not a check
	}{
		{"go test -race -coverprofile=coverage.txt -covermode=atomic ./...", "go-test", "go test -race ./..."},
		{"go test -v -coverprofile c.out", "go-test", "go test ./..."},
		{"go vet ./...", "go-vet", "go vet ./..."},
		{"gotestsum -f '{{.FORMAT}}' ./...", "go-test", "go test ./..."},
		{"gotestsum --junitfile r.xml -- -race -tags x ./pkg/...", "go-test", "go test -race -tags x ./pkg/..."},
		{"golangci-lint run -v --fix --timeout=5m", "golangci-lint", "golangci-lint run"},
		{"golangci-lint cache clean", "", ""},
		{"go build ./...", "", ""},
		{"go install github.com/x/y@latest", "", ""},
		{"cargo fmt --all -- --check", "cargo-fmt", "cargo fmt --all -- --check"},
		{"cargo fmt --all", "cargo-fmt", "cargo fmt --all --check"},
		{"cargo clippy --fix --allow-dirty -- -D warnings", "cargo-clippy", "cargo clippy -- -D warnings"},
		{"cargo +nightly test --workspace --all-features --verbose", "cargo-test", "cargo test --workspace --all-features"},
		{"cargo build --release", "", ""},
		{"cargo publish --dry-run", "", ""},
		{"uv run --frozen ruff check --fix src", "ruff", "ruff check src"},
		{"ruff format --diff", "ruff-format", "ruff format --check"},
		{"ruff --version", "", ""},
		{"black .", "black", "black --check ."},
		{"isort", "isort", "isort --check-only ."},
		{"python -m pytest --cov=x --junitxml=r.xml -x", "pytest", "python -m pytest -x"},
		{"pytest -v --basetemp={envtmpdir} {posargs}", "pytest", "pytest"},
		{"codespell -w", "codespell", "codespell"},
		{"pip install -e .", "", ""},
		{"coverage run -m pytest tests/unit/ -s", "pytest", "python -m pytest tests/unit/ -s"},
		{"coverage run --parallel-mode -m pytest", "pytest", "python -m pytest"},
		{"coverage erase", "", ""},
		{"coverage run scripts/fuzz.py", "", ""},
		{"npx tsc --noEmit --watch", "tsc", "tsc --noEmit"},
		{"pnpm exec eslint --fix .", "eslint", "eslint ."},
		{"prettier --write .", "prettier", "prettier --check ."},
		{"npx vitest --coverage", "vitest", "vitest run --coverage"},
		{"biome check --write .", "biome", "biome check ."},
		{"biome migrate", "", ""},
	}
	for _, tt := range tests {
		c, ok := classify(splitCommands(tt.cmd)[0].words)
		if tt.run == "" {
			if ok {
				t.Errorf("classify(%q) = %+v, want no check", tt.cmd, c)
			}
			continue
		}
		if !ok || c.key != tt.key || (c.words != nil && strings.Join(c.words, " ") != tt.run) {
			t.Errorf("classify(%q) = %v %q %q, want %q %q", tt.cmd, ok, c.key, strings.Join(c.words, " "), tt.key, tt.run)
		}
	}
}

// gateSources maps each gate of the root project to "command <- source".
func gateSources(t *testing.T, files map[string]string) map[string]string {
	t.Helper()
	projects, err := Detect(writeTree(t, files))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, g := range Layout(projects) {
		out[g.Name] = g.Run + " <- " + g.Source
	}
	return out
}

func TestDeclaredSources(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  map[string]string // a subset of the gates
	}{
		{"gitlab ci", map[string]string{"go.mod": "module x\n", ".gitlab-ci.yml": "stages: [test]\n.hidden:\n  script: go test -short ./...\nunit:\n  stage: test\n  script:\n    - go mod download\n    - go test -race ./...\n"},
			map[string]string{"test": "go test -race ./... <- from .gitlab-ci.yml, job unit"}},
		{"lefthook", map[string]string{"go.mod": "module x\n", "lefthook.yml": "pre-push:\n  commands:\n    lint:\n      run: golangci-lint run {push_files}\n"},
			map[string]string{"lint": "golangci-lint run <- from lefthook.yml, pre-push command lint"}},
		{"justfile", map[string]string{"Cargo.toml": "[package]\nname='x'\n", "justfile": "build:\n    cargo build\n\ntest *args:\n    cargo test --all-features {{args}}\n"},
			map[string]string{"test": "cargo test --all-features <- from justfile, recipe test"}},
		{"Taskfile", map[string]string{"go.mod": "module x\n", "Taskfile.yml": "version: '3'\ntasks:\n  lint:\n    cmds:\n      - cmd: go vet -tags integration ./...\n  deploy:\n    cmds: [go test ./...]\n"},
			map[string]string{"vet": "go vet -tags integration ./... <- from Taskfile.yml, task lint"}},
		{"noxfile", map[string]string{"pyproject.toml": "", "noxfile.py": "import nox\n\n@nox.session\ndef tests(session):\n    session.install('.')\n    session.run('pytest', '-x')\n\n@nox.session\ndef lint(session):\n    session.run('ruff', 'check', *session.posargs)\n"},
			map[string]string{"test": "pytest -x <- from noxfile.py, session tests"}},
		{"tox 4 in pyproject.toml", map[string]string{"pyproject.toml": "[project]\nname = 'x'\n\n[tool.tox.env_run_base]\ncommands = [[\"pytest\", \"-x\", \"--basetemp={env_tmp_dir}\", {replace = \"posargs\", extend = true}]]\n\n[tool.tox.env.typing]\ncommands = [[\"mypy\"], [\"pyright\", \"src\"]]\n"},
			map[string]string{"test": "pytest -x <- from pyproject.toml [tool.tox], env_run_base",
				"typecheck": "mypy . <- from pyproject.toml [tool.tox], env typing", "pyright": "pyright src <- from pyproject.toml [tool.tox], env typing"}},
		{"CI matrix of go test groups is one go test", map[string]string{"go.mod": "module x\n",
			".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: |\n          case x in\n            a) go test -v ./store/... ;;\n            b) go test -race -coverprofile=c.out ./server/... ./store/... ;;\n          esac\n      - run: go test ./... -fuzz=FuzzX -fuzztime=5s\n"},
			map[string]string{"test": "go test -race ./store/... ./server/... <- from .github/workflows/ci.yml, job t"}},
		{"a workflow's env names the tool", map[string]string{"Cargo.toml": "[package]\nname='x'\n",
			".github/workflows/ci.yml": "env:\n  CARGO: cargo\njobs:\n  t:\n    steps:\n      - run: ${{ env.CARGO }} test --verbose --all-features ${{ env.TARGET_FLAGS }}\n"},
			map[string]string{"test": "cargo test --all-features <- from .github/workflows/ci.yml, job t"}},
		{"a Makefile target that CI runs, whatever its name", map[string]string{"go.mod": "module x\n",
			"Makefile":                 "lint-go:\n\tgolangci-lint run ./...\nrelease:\n\tgo test -run Release ./...\n",
			".github/workflows/ci.yml": "jobs:\n  l:\n    steps:\n      - run: make -j2 lint-go\n"},
			map[string]string{"lint": "golangci-lint run ./... <- from Makefile, target lint-go"}},
		{"an odd value elsewhere in the workflow hides no step", map[string]string{"go.mod": "module x\n",
			".github/workflows/ci.yml": "on: push\njobs:\n  t:\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          fetch-depth: 0\n          sparse: [a, b]\n      - run: go test -short ./...\n"},
			map[string]string{"test": "go test -short ./... <- from .github/workflows/ci.yml, job t"}},
		{"makefile variables and prerequisites", map[string]string{"go.mod": "module x\n", "Makefile": "GO ?= go\nGOFLAGS := -race\n\ncheck: vet\n\t$(GO) test $(GOFLAGS) ./...\nvet:\n\t@$(GO) vet ./...\n"},
			map[string]string{"test": "go test -race ./... <- from Makefile, target check", "vet": "go vet ./... <- from Makefile, target vet"}},
		{"CI beats the Makefile, and both are named", map[string]string{"go.mod": "module x\n", "Makefile": "test:\n\tgo test -v ./...\n",
			".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: go test -short ./...\n"},
			map[string]string{"test": "go test -short ./... <- from .github/workflows/ci.yml, job t; also in Makefile, target test"}},
		{"working-directory scopes a step to its folder", map[string]string{"go.mod": "module x\n", "api/go.mod": "module api\n",
			".github/workflows/ci.yml": "jobs:\n  api:\n    defaults:\n      run:\n        working-directory: ./api\n    steps:\n      - run: go test -count=1 ./...\n"},
			map[string]string{"api-test": "go test ./... <- from .github/workflows/ci.yml, job api"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := gateSources(t, tt.files)
			for name, want := range tt.want {
				if got[name] != want {
					t.Errorf("gate %s = %q, want %q (all: %v)", name, got[name], want, got)
				}
			}
		})
	}
}

func TestGolangciConfigDecidesVet(t *testing.T) {
	for _, tt := range []struct {
		config  string
		wantVet bool
	}{
		{"linters:\n  enable: [revive]\n", false},                                   // govet is on by default
		{"linters:\n  disable: [govet]\n", true},                                    // turned off: go vet runs alone
		{"version: \"2\"\nlinters:\n  default: none\n  enable: [errcheck]\n", true}, // v2 without govet
		{"linters:\n  disable-all: true\n  enable: [govet]\n", false},
	} {
		got := gateSources(t, map[string]string{"go.mod": "module x\n", ".golangci.yml": tt.config})
		if _, vet := got["vet"]; vet != tt.wantVet {
			t.Errorf("config %q: vet gate %v, want %v (%v)", tt.config, vet, tt.wantVet, slices.Sorted(maps.Keys(got)))
		}
		if got["lint"] != "golangci-lint run <- from .golangci.yml" {
			t.Errorf("config %q: lint = %q", tt.config, got["lint"])
		}
	}
}

func TestNodeScriptsThatWrapOthers(t *testing.T) {
	tests := []struct {
		name    string
		scripts string
		want    []string
	}{
		{"test runs lint and build", `{"lint": "eslint .", "build": "tsc", "test": "npm run lint && npm run build && vitest run"}`, []string{"test"}},
		{"run-s with a glob", `{"lint:js": "eslint .", "lint:types": "tsc --noEmit", "lint": "run-s 'lint:*'", "check": "npm-run-all lint test", "test": "vitest run"}`, []string{"check"}},
		{"pretest runs lint", `{"lint": "xo", "pretest": "npm run lint", "test": "ava"}`, []string{"test"}},
		{"independent scripts stay", `{"lint": "eslint .", "test": "vitest run", "build": "vite build"}`, []string{"lint", "test", "build"}},
		{"yarn shorthand", `{"typecheck": "tsc --noEmit", "test": "yarn typecheck && jest"}`, []string{"test"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			projects, err := Detect(writeTree(t, map[string]string{"package.json": `{"scripts": ` + tt.scripts + `}`,
				"tsconfig.json": "{}", "yarn.lock": ""}))
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, g := range Layout(projects) {
				names = append(names, g.Name)
			}
			if !slices.Equal(names, tt.want) {
				t.Errorf("gates = %v, want %v", names, tt.want)
			}
		})
	}
}

func TestNodeLinterConfigWithoutAScript(t *testing.T) {
	got := gateSources(t, map[string]string{
		"package.json":     `{"scripts": {"test": "vitest run"}, "devDependencies": {"eslint": "^9", "@biomejs/biome": "^1"}}`,
		"pnpm-lock.yaml":   "",
		"eslint.config.js": "export default []",
		"biome.json":       "{}",
	})
	// The project runs its tests, and no script runs eslint or biome: they are offered, not gated.
	want := map[string]string{"test": "pnpm run test <- from package.json, script test"}
	if !maps.Equal(got, want) {
		t.Errorf("gates = %v, want %v", got, want)
	}
	offers := offerNames(detectTree(t, map[string]string{
		"package.json":     `{"scripts": {"test": "vitest run"}, "devDependencies": {"eslint": "^9", "@biomejs/biome": "^1"}}`,
		"pnpm-lock.yaml":   "",
		"eslint.config.js": "export default []",
		"biome.json":       "{}",
	}))["Node with pnpm"]
	if !slices.Equal(offers, []string{"lint", "biome"}) {
		t.Errorf("offers = %v, want eslint's and biome's", offers)
	}
	// A script that runs the linter already covers it.
	got = gateSources(t, map[string]string{
		"package.json":     `{"scripts": {"lint": "eslint --max-warnings 0 ."}, "devDependencies": {"eslint": "^9"}}`,
		"eslint.config.js": "export default []",
	})
	if len(got) != 1 || got["lint"] != "npm run lint <- from package.json, script lint" {
		t.Errorf("gates = %v, want the lint script alone", got)
	}
}

// CI that runs a Node tool directly, not through a script: a gate through the package manager,
// unless a script already runs that tool.
func TestNodeToolsRunByCI(t *testing.T) {
	got := gateSources(t, map[string]string{
		"package.json":   `{"scripts": {"lint": "eslint ."}, "devDependencies": {"typescript": "^5"}}`,
		"tsconfig.json":  "{}",
		"pnpm-lock.yaml": "",
		".github/workflows/ci.yml": "jobs:\n  c:\n    steps:\n      - run: pnpm install\n      - run: pnpm exec eslint --max-warnings 0 .\n" +
			"      - run: pnpm exec tsc -p tsconfig.app.json --noEmit\n      - run: npx prettier --check src\n",
	})
	want := map[string]string{
		"lint":      "pnpm run lint <- from package.json, script lint",
		"typecheck": "pnpm exec tsc -p tsconfig.app.json --noEmit <- from .github/workflows/ci.yml, job c",
		"fmt":       "pnpm exec prettier --check src <- from .github/workflows/ci.yml, job c",
	}
	if !maps.Equal(got, want) {
		t.Errorf("gates = %v\nwant %v", got, want)
	}
}

func TestStopHookTimeout(t *testing.T) {
	short := []Gate{{Name: "fmt", Timeout: 2 * time.Minute}, {Name: "vet", Timeout: 5 * time.Minute}}
	if d := StopHookTimeout(short); d.Raised || d.Timeout != 9*time.Minute {
		t.Errorf("short gates: %+v, want the default 9m", d)
	}
	long := append(short, Gate{Name: "test", Timeout: 20 * time.Minute})
	if d := StopHookTimeout(long); !d.Raised || d.Timeout != 21*time.Minute || d.Slowest.Name != "test" {
		t.Errorf("a 20m gate: %+v, want 21m for test", d)
	}
	// A gate without a timeout of its own gets the config's default, 10m: too long for 9m.
	if d := StopHookTimeout([]Gate{{Name: "x"}}); !d.Raised || d.Timeout != 11*time.Minute {
		t.Errorf("default timeout: %+v, want 11m", d)
	}
}
