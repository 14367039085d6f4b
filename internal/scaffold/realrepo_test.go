package scaffold

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"
)

// The fixtures below are trimmed from real repositories on which init once wrote gates the
// project never runs, or left out checks it does run without a word.

func detectTree(t *testing.T, files map[string]string) []Project {
	t.Helper()
	projects, err := Detect(writeTree(t, files))
	if err != nil {
		t.Fatal(err)
	}
	return projects
}

// offerNames lists every project's offered (commented-out) gates, by project label.
func offerNames(projects []Project) map[string][]string {
	out := map[string][]string{}
	for _, p := range projects {
		for _, g := range p.Offers {
			out[p.Label()] = append(out[p.Label()], g.Name)
		}
	}
	return out
}

func allNotes(projects []Project) string {
	var notes []string
	for _, p := range projects {
		notes = append(notes, p.Notes...)
	}
	return strings.Join(notes, "\n")
}

func gateByName(projects []Project, name string) (Gate, bool) {
	for _, g := range Layout(projects) {
		if g.Name == name {
			return g, true
		}
	}
	return Gate{}, false
}

// cobra: CI runs golangci-lint (action) and `make richtest`; the Makefile's fmt target checks with
// gofmt inside $(shell ...). Nothing runs go mod tidy: it is offered, not gated. The license
// header check CI runs through docker is named.
func TestCobraGatesOnlyWhatTheProjectRuns(t *testing.T) {
	projects := detectTree(t, map[string]string{
		"go.mod":        "module github.com/spf13/cobra\n\ngo 1.15\n",
		".golangci.yml": "version: \"2\"\nlinters:\n  default: none\n  enable: [govet, errcheck]\n",
		"Makefile":      "SRC=$(shell find . -name \"*.go\")\n\nall: fmt test\n\nfmt:\n\t$(info ***)\n\t@test -z $(shell gofmt -l $(SRC)) || (gofmt -d $(SRC); exit 1)\n\nlint:\n\tgolangci-lint run -v\n\ntest: install_deps\n\tgo test -v $(GO_TEST_FLAGS) ./...\n\nrichtest: install_deps\n\trichgo test -v $(GO_TEST_FLAGS) ./...\n\ninstall_deps:\n\tgo get -v ./...\n",
		".github/workflows/test.yml": `env:
  GO111MODULE: on
jobs:
  lic-headers:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: >-
          docker run
          -v $(pwd):/wrk -w /wrk
          ghcr.io/google/addlicense
          -c 'The Cobra Authors'
          -check
          .
  golangci-lint:
    steps:
      - uses: golangci/golangci-lint-action@v8.0.0
        with:
          version: latest
          args: --verbose
  test-unix:
    steps:
    - run: |
        export GOBIN=$HOME/go/bin
        go install github.com/kyoh86/richgo@latest
    - run: RICHGO_FORCE_COLOR=1 PATH=$HOME/go/bin/:$PATH make richtest
`,
	})
	cmds := gateCommands(projects)
	if want := []string{"fmt", "lint", "test"}; !slices.Equal(slices.Sorted(maps.Keys(cmds)), want) {
		t.Errorf("gates = %v, want %v", cmds, want)
	}
	if g, _ := gateByName(projects, "fmt"); !strings.HasPrefix(g.Source, "from Makefile, target fmt") {
		t.Errorf("fmt source = %q, want the Makefile's fmt target", g.Source)
	}
	if g, _ := gateByName(projects, "test"); !strings.Contains(g.Source, "make richtest") && !strings.Contains(g.Source, "target richtest") {
		t.Errorf("test source = %q, want the richtest target CI runs", g.Source)
	}
	if offers := offerNames(projects)["Go"]; !slices.Equal(offers, []string{"tidy"}) {
		t.Errorf("offered = %v, want tidy only (vet is golangci-lint's)", offers)
	}
	if notes := allNotes(projects); !strings.Contains(notes, "addlicense") {
		t.Errorf("notes = %q, want the license-header check named", notes)
	}
}

// fzf: the Makefile's test sets SHELL=/bin/sh for go test; its lint runs rubocop (fixing, -a) and
// a script's --check; CI runs typos through an action and a fuzz run. The environment stays, and
// every check that becomes no gate is named.
func TestFzfKeepsTheEnvironmentAndNamesWhatItLeavesOut(t *testing.T) {
	projects := detectTree(t, map[string]string{
		"go.mod": "module github.com/junegunn/fzf\n\ngo 1.23\n",
		"Makefile": "GO ?= go\nMAKEFILE := $(realpath $(lastword $(MAKEFILE_LIST)))\nROOT_DIR := $(shell dirname $(MAKEFILE))\n" +
			"BASH_SCRIPTS := $(ROOT_DIR)/bin/fzf-preview.sh \\\n\t\t\t$(ROOT_DIR)/shell/update.sh\n\n" +
			"test: $(SOURCES)\n\tSHELL=/bin/sh GOOS= $(GO) test -v -tags \"$(TAGS)\" \\\n\t\t\tgithub.com/junegunn/fzf/src \\\n\t\t\tgithub.com/junegunn/fzf/src/algo\n\n" +
			"lint: $(SOURCES)\n\t[ -z \"$$(gofmt -s -d src)\" ] || (gofmt -s -d src; exit 1)\n\tbundle exec rubocop -a --require rubocop-minitest\n\tshellcheck $(filter-out -x,$(FLAGS)) shell/*.sh\n\tshell/update.sh --check ${BASH_SCRIPTS}\n\n" +
			"fmt: $(SOURCES)\n\tgofmt -s -w src\n\tshell/update.sh ${BASH_SCRIPTS}\n",
		".github/workflows/linux.yml": `env:
  LANG: C.UTF-8
jobs:
  build:
    steps:
    - name: Install packages
      run: |
        sudo apt-get update
        sudo apt-get install --yes zsh fish tmux shfmt
    - run: bundle install
    - name: Rubocop
      run: make lint
    - name: Unit test
      run: make test
    - name: Fuzz test
      run: |
        go test ./src/algo/ -fuzz=FuzzIndexByteTwo -fuzztime=5s
    - name: Integration test
      run: make install && ./install --all && tmux new-session -d && ruby test/runner.rb --verbose
`,
		".github/workflows/typos.yml": "jobs:\n  typos:\n    steps:\n    - uses: actions/checkout@v4\n    - uses: crate-ci/typos@685eb3d55be2f85191e8c84acb9f44d7756f84ab # v1.29.4\n",
	})
	test, ok := gateByName(projects, "test")
	if !ok {
		t.Fatalf("no test gate in %v", gateCommands(projects))
	}
	env := map[string]string{}
	for _, e := range test.Env {
		env[e.Name] = e.Value
	}
	if env["SHELL"] != "/bin/sh" {
		t.Errorf("test env = %v, want SHELL=/bin/sh as the Makefile sets it", test.Env)
	}
	if _, ok := gateByName(projects, "vet"); ok {
		t.Errorf("a vet gate nothing in the project runs: %v", gateCommands(projects))
	}
	notes := allNotes(projects)
	// The fuzz run is no test suite and no gate, but CI runs it as a check: it is named.
	for _, want := range []string{"rubocop", "shell/update.sh --check", "ruby test/runner.rb", "-fuzz=FuzzIndexByteTwo"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes do not name %q:\n%s", want, notes)
		}
	}
	// typos's action is a check init knows: a gate, run as typos runs locally.
	if g, ok := gateByName(projects, "typos"); !ok || g.Run != "typos" {
		t.Errorf("typos gate = %+v, want `typos` from its action", g)
	}
	// Make's functions ($(shell ...), $(realpath ...)) are not commands of the recipe.
	for _, noise := range []string{"apt-get", "bundle install", "lastword", "MAKEFILE_LIST", "dirname", "filter-out"} {
		if strings.Contains(notes, noise) {
			t.Errorf("notes name %q, which checks nothing:\n%s", noise, notes)
		}
	}
}

// ripgrep: the test job's env is CI's plumbing (the cargo program and cross-compilation flags,
// filled into the command already) and must not be copied; clippy and the fuzz folder are run by
// no CI job, so they are offered rather than gated.
func TestRipgrepCopiesNoCIPlumbingAndInventsNoRustGates(t *testing.T) {
	projects := detectTree(t, map[string]string{
		"Cargo.toml":      "[package]\nname = \"ripgrep\"\n\n[workspace]\nmembers = [\"crates/*\"]\n",
		"fuzz/Cargo.toml": "[package]\nname = \"fuzz\"\n",
		".github/workflows/ci.yml": `jobs:
  test:
    env:
      CARGO: cargo
      TARGET_FLAGS:
      TARGET_DIR: ./target
      CROSS_VERSION: v0.2.5
      RUST_BACKTRACE: 1
    strategy:
      matrix:
        include:
        - build: pinned
          rust: 1.96.0
    steps:
    - name: Use Cross
      run: |
        curl -LO "https://github.com/cross-rs/cross/releases/download/$CROSS_VERSION/cross.tar.gz"
        echo "CARGO=cross" >> $GITHUB_ENV
    - run: ${{ env.CARGO }} build --verbose --workspace ${{ env.TARGET_FLAGS }}
    - name: Show build.rs stderr
      run: |
        stderr="$(find "${{ env.TARGET_DIR }}/debug" -name stderr -print0 | xargs -0 ls -t | head -n1)"
    - run: ${{ env.CARGO }} test --verbose --workspace --features unstable-index ${{ env.TARGET_FLAGS }}
    - shell: bash
      run: ci/test-complete
  release:
    steps:
      - run: gh release create $VERSION --draft --verify-tag --title $VERSION
  rustfmt:
    steps:
    - run: cargo fmt --all --check
  docs:
    steps:
      - name: Check documentation
        env:
          RUSTDOCFLAGS: -D warnings
        run: cargo doc --no-deps --document-private-items --workspace
  fuzz_testing:
    steps:
      - run: cargo install cargo-fuzz
        working-directory: fuzz
      - name: Verify fuzz targets build
        run: cargo check
        working-directory: fuzz
`,
	})
	cmds := gateCommands(projects)
	if want := []string{"fmt", "test"}; !slices.Equal(slices.Sorted(maps.Keys(cmds)), want) {
		t.Errorf("gates = %v, want %v", cmds, want)
	}
	if test, _ := gateByName(projects, "test"); len(test.Env) != 0 {
		t.Errorf("test env = %v, want none of CI's plumbing", test.Env)
	}
	offers := offerNames(projects)
	if !slices.Contains(offers["Rust workspace"], "lint") {
		t.Errorf("offers = %v, want clippy offered", offers)
	}
	// The fuzz folder, which nothing checks, is one line, not three commented gates.
	if len(offers["Rust workspace (fuzz)"]) != 0 || !strings.Contains(allNotes(projects), "`cargo test`") {
		t.Errorf("fuzz offers = %v, notes:\n%s\nwant its defaults named in a note", offers["Rust workspace (fuzz)"], allNotes(projects))
	}
	notes := allNotes(projects)
	for _, want := range []string{"cargo doc", "ci/test-complete", "cargo check"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes do not name %q:\n%s", want, notes)
		}
	}
}

// memos: DRIVER comes from an expression over the matrix (`cond && ” || 'sqlite'` is always
// 'sqlite'); GO_VERSION only feeds CI's own steps; golangci-lint's --timeout=3m is CI's budget, not
// the project's; buf's checks are named; the web app's biome check already formats, so no fmt
// gate of its format script.
func TestMemosEnvironmentTimeoutsAndCoveredFormatting(t *testing.T) {
	projects := detectTree(t, map[string]string{
		"go.mod":             "module github.com/usememos/memos\n\ngo 1.25\n",
		".golangci.yaml":     "version: \"2\"\n",
		"web/package.json":   `{"scripts": {"dev": "vite", "build": "vite build", "lint": "tsc --noEmit --skipLibCheck && biome check src tests", "lint:fix": "biome check --write src tests", "format": "biome format --write src tests", "test": "vitest run", "test:watch": "vitest", "test:coverage": "vitest run --coverage"}}`,
		"web/pnpm-lock.yaml": "",
		".github/workflows/backend-tests.yml": `env:
  GO_VERSION: "1.25.0"
jobs:
  static-checks:
    steps:
      - uses: actions/setup-go@v6
        with:
          go-version: ${{ env.GO_VERSION }}
      - name: Verify go.mod is tidy
        run: |
          go mod tidy -go=${{ env.GO_VERSION }}
          git diff --exit-code
      - uses: golangci/golangci-lint-action@v9
        with:
          version: v2.13.1
          args: --timeout=3m
  tests:
    strategy:
      matrix:
        test-group: [store, server]
    steps:
      - run: |
          case "${{ matrix.test-group }}" in
            store)
              go test -v -coverprofile=coverage.out ./store/...
              ;;
            server)
              go test -v -race ./server/...
              ;;
          esac
        env:
          DRIVER: ${{ matrix.test-group == 'store' && '' || 'sqlite' }}
`,
		".github/workflows/proto-linter.yml": `jobs:
  lint:
    steps:
      - uses: bufbuild/buf-lint-action@v1
        with:
          input: proto
      - name: Check buf format
        run: |
          if [[ $(buf format -d) ]]; then
            echo "Proto files are not formatted."
            exit 1
          fi
`,
		".github/workflows/frontend-tests.yml": "jobs:\n  lint:\n    steps:\n      - working-directory: web\n        run: pnpm install --frozen-lockfile\n      - working-directory: web\n        run: pnpm lint\n      - working-directory: web\n        run: pnpm test\n",
	})
	test, _ := gateByName(projects, "test")
	if !slices.Equal(test.Env, []EnvVar{{"DRIVER", "sqlite"}}) {
		t.Errorf("test env = %v, want DRIVER=sqlite only", test.Env)
	}
	if lint, _ := gateByName(projects, "lint"); strings.Contains(lint.Run, "--timeout") || strings.Contains(lint.Fix, "--timeout") {
		t.Errorf("lint = %q / %q, want CI's --timeout left out", lint.Run, lint.Fix)
	}
	if _, ok := gateByName(projects, "web-fmt"); ok {
		t.Errorf("a web-fmt gate beside biome check: %v", gateCommands(projects))
	}
	notes := allNotes(projects)
	for _, want := range []string{"buf-lint-action", "buf format"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes do not name %q:\n%s", want, notes)
		}
	}
	for _, noise := range []string{"test:watch", "test:coverage"} {
		if strings.Contains(notes, noise) {
			t.Errorf("notes name %q, a variant of the test gate:\n%s", noise, notes)
		}
	}
}

// A tox project: the env CI runs keeps python's -W error; pytest's -v only floods the reason; an env
// CI never runs (pylint) is offered, not gated.
func TestToxEnvsCIDoesNotRunAreOffered(t *testing.T) {
	projects := detectTree(t, map[string]string{
		"pyproject.toml": "[project]\nname = 'x'\n",
		"tox.ini": "[tox]\nenvlist = py\n\n[testenv]\nsetenv =\n    PYTHONWARNINGS = error\n    cov: COVERAGE_FILE = x\ncommands =\n    python -W error -m pytest -v {posargs}\n\n" +
			"[testenv:pylint]\ncommands = pylint src\n\n[testenv:check]\ncommands =\n    python scripts/check_changelog.py\n    python scripts/check_manifest.py\n",
		".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: pip install tox\n      - run: tox -e py\n",
	})
	cmds := gateCommands(projects)
	if cmds["test"] != "python -W error -m pytest" {
		t.Errorf("test = %q, want python -W error -m pytest", cmds["test"])
	}
	if _, ok := cmds["pylint"]; ok {
		t.Errorf("a pylint gate from an env CI never runs: %v", cmds)
	}
	if offers := offerNames(projects)["Python"]; !slices.Contains(offers, "pylint") {
		t.Errorf("offers = %v, want pylint offered", offers)
	}
	if test, _ := gateByName(projects, "test"); !slices.Equal(test.Env, []EnvVar{{"PYTHONWARNINGS", "error"}}) {
		t.Errorf("test env = %v, want setenv's PYTHONWARNINGS=error (not the cov factor's)", test.Env)
	}
	// The check env's scripts are declared, if not run by CI: named, not dropped.
	if notes := allNotes(projects); !strings.Contains(notes, "scripts/check_changelog.py") || !strings.Contains(notes, "scripts/check_manifest.py") {
		t.Errorf("notes do not name the check env's scripts:\n%s", notes)
	}
}

// A project that declares nothing anywhere (no CI, hooks or task runners) still gets gauntlet's
// defaults as gates: there is nothing else to go by.
func TestBareProjectGetsDefaults(t *testing.T) {
	projects := detectTree(t, map[string]string{"go.mod": "module x\n", "main.go": "package main\n"})
	if want := []string{"fmt", "test", "tidy", "vet"}; !slices.Equal(slices.Sorted(maps.Keys(gateCommands(projects))), want) {
		t.Errorf("gates = %v, want %v", gateCommands(projects), want)
	}
}

// A two-file project got a 20m test timeout and a 21m stop hook from a guess sized for a cold
// build of a large one: the guess scales with the project's files and dependencies.
func TestTimeoutsScaleWithTheProject(t *testing.T) {
	small := detectTree(t, map[string]string{"go.mod": "module x\n", "main.go": "package main\n", "main_test.go": "package main\n"})
	test, _ := gateByName(small, "test")
	if test.Timeout > 5*time.Minute {
		t.Errorf("two-file module: test timeout %s, want at most 5m", test.Timeout)
	}
	if d := StopHookTimeout(Layout(small)); d.Raised {
		t.Errorf("two-file module: stop hook raised to %s", d.Timeout)
	}
	files := map[string]string{"go.mod": "module x\n"}
	var sum strings.Builder
	for i := range 400 {
		fmt.Fprintf(&sum, "example.com/m%d v1.0.0 h1:x=\nexample.com/m%d v1.0.0/go.mod h1:y=\n", i, i)
	}
	files["go.sum"] = sum.String()
	for i := range 1200 {
		files[fmt.Sprintf("pkg%d/f%d.go", i/20, i)] = "package p\n"
	}
	large := detectTree(t, files)
	if test, _ := gateByName(large, "test"); test.Timeout != 20*time.Minute {
		t.Errorf("large module: test timeout %s, want the cold-build 20m", test.Timeout)
	}
}

// An nx monorepo: its build and test (which builds the projects it tests first, through nx)
// ran side by side, and publint read a half-written dist/. A gate that builds through a task
// orchestrator or writes build outputs waits for the build gate.
func TestGatesThatBuildWaitForTheBuild(t *testing.T) {
	projects := detectTree(t, map[string]string{
		"package.json":   `{"scripts": {"build": "nx run-many -t build", "test": "nx run-many -t test", "typecheck": "tsc --noEmit"}}`,
		"pnpm-lock.yaml": "",
		"nx.json":        `{"targetDefaults": {"test": {"dependsOn": ["^build"]}}}`,
	})
	test, _ := gateByName(projects, "test")
	if !slices.Equal(test.Needs, []string{"build"}) {
		t.Errorf("test needs %v, want [build]", test.Needs)
	}
	if tc, _ := gateByName(projects, "typecheck"); len(tc.Needs) != 0 {
		t.Errorf("typecheck (tsc --noEmit writes nothing) needs %v", tc.Needs)
	}
	plain := detectTree(t, map[string]string{
		"package.json": `{"scripts": {"build": "vite build", "test": "vitest run"}}`,
	})
	if test, _ := gateByName(plain, "test"); len(test.Needs) != 0 {
		t.Errorf("vitest beside vite build needs %v, want nothing", test.Needs)
	}
}

// The same monorepo formats with `prettier --write` but checks formatting nowhere (CI runs nx's
// targets): the check form is offered, not gated, and neither is a root eslint or tsc nothing runs.
func TestAFormatScriptAloneIsOffered(t *testing.T) {
	projects := detectTree(t, map[string]string{
		"package.json":     `{"scripts": {"format": "prettier --write .", "test": "nx run-many -t test"}, "devDependencies": {"eslint": "^9", "typescript": "^5"}}`,
		"pnpm-lock.yaml":   "",
		"eslint.config.js": "export default []",
		"tsconfig.json":    "{}",
	})
	if cmds := gateCommands(projects); len(cmds) != 1 || cmds["test"] == "" {
		t.Errorf("gates = %v, want the test script alone", cmds)
	}
	if offers := offerNames(projects)["Node with pnpm"]; !slices.Equal(offers, []string{"fmt", "lint", "typecheck"}) {
		t.Errorf("offers = %v, want fmt, lint and typecheck", offers)
	}
}

// A small Go root beside a large web app is measured without the app's files.
func TestRootSizeLeavesOutOtherProjects(t *testing.T) {
	files := map[string]string{
		"go.mod": "module x\n", "main_test.go": "package main\n",
		".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: go test ./...\n",
		"web/package.json":         `{"scripts": {"test": "vitest run"}}`,
	}
	for i := range 1500 {
		files[fmt.Sprintf("web/src/c%d.ts", i)] = "export {}\n"
	}
	if test, _ := gateByName(detectTree(t, files), "test"); test.Timeout > 5*time.Minute {
		t.Errorf("root test timeout %s, want the small module's 5m at most", test.Timeout)
	}
}

// pluggy: tox's base env runs `{env:_PLUGGY_TOX_CMD:pytest} {posargs}` (pytest unless a factor
// sets the variable) and factor-conditional lines (`coverage: coverage xml`) that run only in the
// coverage envs; CI runs the py envs. The test gate is the base env's pytest; the factor lines
// and tox's substitutions are no checks left out; the benchmark env CI never runs is offered.
func TestToxSubstitutionsAndFactors(t *testing.T) {
	projects := detectTree(t, map[string]string{
		"pyproject.toml":             "[project]\nname = 'pluggy'\n",
		"tox.ini":                    "[tox]\nenvlist=py{310,311}\n\n[testenv]\ncommands=\n  {env:_PLUGGY_TOX_CMD:pytest} {posargs}\n  coverage: coverage combine\n  coverage: coverage xml\n\n[testenv:benchmark]\ncommands=pytest {posargs:testing/benchmark.py}\n",
		".github/workflows/test.yml": "jobs:\n  build:\n    strategy:\n      matrix:\n        include:\n          - tox_env: py310\n    steps:\n      - run: tox -e ${{ matrix.tox_env }}\n",
		"docs/requirements.txt":      "sphinx\n",
	})
	test, _ := gateByName(projects, "test")
	if test.Run != "pytest" || !strings.HasPrefix(test.Source, "from tox.ini, env testenv") {
		t.Errorf("test = %q %q, want pytest from the base env", test.Run, test.Source)
	}
	notes := allNotes(projects)
	for _, noise := range []string{"coverage", "_PLUGGY_TOX_CMD", "docs"} {
		if strings.Contains(notes, noise) {
			t.Errorf("notes name %q:\n%s", noise, notes)
		}
	}
}

// TanStack form: test runs `nx run-many --targets=test:knip,...,build`, and nx runs the root's
// package.json scripts of those names as its targets: test covers build and knip, so there is
// one gate, and knip is not named as left out.
func TestNxTargetsAreTheRootScripts(t *testing.T) {
	projects := detectTree(t, map[string]string{
		"package.json":   `{"scripts": {"test": "pnpm run test:ci", "test:ci": "nx run-many --targets=test:knip,test:lib,build", "test:knip": "knip", "build": "nx affected --target=build --exclude=examples/**"}}`,
		"pnpm-lock.yaml": "",
	})
	if cmds := gateCommands(projects); len(cmds) != 1 || cmds["test"] != "pnpm run test" {
		t.Errorf("gates = %v, want the test script alone", cmds)
	}
	if notes := allNotes(projects); strings.Contains(notes, "knip") {
		t.Errorf("notes name knip, which test runs through nx:\n%s", notes)
	}
}

// A monorepo's test through nx builds every package first: its size is not its root's files and
// direct dependencies, and it keeps the cold-build guess.
func TestMonorepoKeepsTheColdGuess(t *testing.T) {
	projects := detectTree(t, map[string]string{
		"package.json":        `{"scripts": {"test": "nx run-many -t test"}}`,
		"pnpm-lock.yaml":      "",
		"pnpm-workspace.yaml": "packages: ['packages/*']\n",
		"nx.json":             "{}",
	})
	if test, _ := gateByName(projects, "test"); test.Timeout != 20*time.Minute {
		t.Errorf("monorepo test timeout %s, want the cold-build 20m", test.Timeout)
	}
}

// memos: 389 Go files and 196 modules in go.sum; its cold go test -race took more than 8m here,
// downloading and compiling those modules. Dependencies weigh on a cold build more than files.
func TestManyModulesKeepTheColdGuess(t *testing.T) {
	files := map[string]string{"go.mod": "module x\n", "main_test.go": "package main\n"}
	var sum strings.Builder
	for i := range 196 {
		fmt.Fprintf(&sum, "example.com/m%d v1.0.0 h1:x=\nexample.com/m%d v1.0.0/go.mod h1:y=\n", i, i)
	}
	files["go.sum"] = sum.String()
	if test, _ := gateByName(detectTree(t, files), "test"); test.Timeout != 20*time.Minute {
		t.Errorf("196 modules: test timeout %s, want the cold-build 20m", test.Timeout)
	}
}
