package scaffold

import (
	"slices"
	"strings"
	"testing"
)

// The fixtures below are written from each format's own documentation (lefthook.dev's jobs and
// group pages, pre-commit.com's top-level files/exclude, tox's multi-line commands), not from one
// project: a project init has never seen must come out right because its format is read right.

// lefthook 1.10's jobs: a list, named or not, with groups (parallel or piped) whose root, glob
// and exclude hold for every nested job; commit-msg and other non-check hooks are no gates.
const lefthookJobsDoc = `pre-commit:
  parallel: true
  jobs:
    - name: lint
      glob: "*.go"
      run: golangci-lint run --fix {staged_files}
      stage_fixed: true
    - name: web
      root: web/
      glob: "*.{js,ts}"
      exclude:
        - "*.min.js"
      group:
        piped: true
        jobs:
          - run: npx eslint {staged_files}
          - group:
              jobs:
                - run: npx prettier --check {staged_files}
    - script: verify.sh
      runner: bash

pre-push:
  jobs:
    - name: test
      run: go test -race ./...
    - group:
        parallel: true
        jobs:
          - run: go vet ./...

commit-msg:
  jobs:
    - run: npx commitlint --edit {1}
`

func TestLefthookJobs(t *testing.T) {
	files := map[string]string{"go.mod": "module x\n", "lefthook.yml": lefthookJobsDoc,
		"web/package.json":      `{"name": "web", "devDependencies": {"eslint": "^9", "prettier": "^3"}}`,
		"web/package-lock.json": "{}"}
	got := gateSources(t, files)
	want := map[string]string{
		"lint":     "golangci-lint run <- from lefthook.yml, pre-commit job lint",
		"test":     "go test -race ./... <- from lefthook.yml, pre-push job test",
		"vet":      "go vet ./... <- from lefthook.yml, pre-push job 2.1",
		"web-lint": "npx eslint . <- from lefthook.yml, pre-commit job web.1",
		"web-fmt":  "npx prettier --check --ignore-unknown {files} <- from lefthook.yml, pre-commit job web.2.1",
	}
	wantGates(t, got, want)
	for name, g := range got {
		if strings.Contains(g, "commitlint") {
			t.Errorf("gate %s runs commit-msg's commitlint, which checks no code: %q", name, g)
		}
	}
	notes := allNotes(detectTree(t, files))
	if !strings.Contains(notes, "bash .lefthook/pre-commit/verify.sh") {
		t.Errorf("the script job is not named among the checks init does not know:\n%s", notes)
	}
	if strings.Contains(notes, "commitlint") {
		t.Errorf("commit-msg's commitlint is named as a check:\n%s", notes)
	}
}

func TestLefthookJobScope(t *testing.T) {
	projects := detectTree(t, map[string]string{"go.mod": "module x\n", "lefthook.yml": lefthookJobsDoc,
		"web/package.json":      `{"name": "web", "devDependencies": {"eslint": "^9", "prettier": "^3"}}`,
		"web/package-lock.json": "{}"})
	g, ok := gateByName(projects, "web-lint")
	if !ok {
		t.Fatal("no web-lint gate")
	}
	// lefthook applies a group's glob and exclude to the files under its root.
	if !slices.Equal(g.Paths, []string{"web/**/*.{js,ts}"}) || !slices.Equal(g.Exclude, []string{"web/**/*.min.js"}) || g.Dir != "web" {
		t.Errorf("web-lint: dir %q paths %q exclude %q, want web, web/**/*.{js,ts}, web/**/*.min.js", g.Dir, g.Paths, g.Exclude)
	}
}

// tox.ini's commands as tox reads them: a line's factor condition is read per physical line
// (a negated factor holds outside that factor), then lines ending in a backslash are joined, and
// {posargs} is its default; the gate runs the command tox runs.
func TestToxContinuedCommands(t *testing.T) {
	got := gateSources(t, map[string]string{
		"pyproject.toml": "[project]\nname = 'x'\n",
		"tox.ini": "[tox]\nenvlist = py, lint\n\n[testenv]\ndeps = -r{toxinidir}/test_requirements.txt\ncommands =\n" +
			"    pip install -e .[d]\n    coverage erase\n    pytest tests --run-optional no_jupyter \\\n" +
			"        !ci: --numprocesses auto \\\n        ci: --numprocesses 1 \\\n        --cov {posargs}\n    coverage report\n\n" +
			"[testenv:lint]\ncommands =\n    flake8 {posargs:src tests} \\\n      --count\n    mypy -- {posargs:src}\n",
	})
	want := map[string]string{
		"test":      "pytest tests --run-optional no_jupyter --numprocesses auto <- from tox.ini, env testenv",
		"flake8":    "flake8 src tests --count <- from tox.ini, env lint",
		"typecheck": "mypy -- src <- from tox.ini, env lint",
	}
	wantGates(t, got, want)
	for name, g := range got {
		if strings.Contains(g, "\\") || strings.Contains(g, "ci:") {
			t.Errorf("gate %s keeps tox's line syntax: %q", name, g)
		}
	}
}

// A Makefile recipe whose command takes its arguments from what make computes ($(shell ...),
// $(wildcard ...)) is the target itself: `go vet` with the package list lost would check only
// the root package.
func TestMakeComputedArgumentsRunTheTarget(t *testing.T) {
	files := map[string]string{"go.mod": "module x\n",
		"Makefile": "PKGS := $(shell go list ./... | grep -v /vendor/)\nGOFILES = $(wildcard *.go cmd/*.go)\nVETFLAGS = -tags integration $(PKGS)\n\n" +
			".PHONY: vet test fmt-check\nvet:\n\t@go vet $(VETFLAGS)\n\ntest:\n\tgo test -race ./...\n\nfmt-check:\n\t@test -z \"$$(gofmt -l $(GOFILES))\"\n\nlint:\n\tgolangci-lint run $(shell go list -f '{{.Dir}}' ./...)\n",
		".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: make vet test lint\n"}
	got := gateSources(t, files)
	want := map[string]string{
		"vet":  "make vet <- from Makefile, target vet",
		"test": "go test -race ./... <- from Makefile, target test",
		"lint": "make lint <- from Makefile, target lint",
	}
	wantGates(t, got, want)
	if g, ok := gateByName(detectTree(t, files), "vet"); ok && (g.Fix != "" || len(g.Inputs) > 0) {
		t.Errorf("make vet: fix %q inputs %q, want neither (the target's inputs are make's)", g.Fix, g.Inputs)
	}
}

// A repository with no manifest at all (shell scripts and docs, checked only in CI) gets the
// checks its CI runs as gates: typos's action, yamllint, the project's own check script;
// setup in the same steps (curl | sh installers, mkdir, unset) is neither a gate nor named.
func TestCIOnlyRepositoryGetsItsGates(t *testing.T) {
	files := map[string]string{
		"shell/update.sh": "#!/bin/sh\necho ok\n",
		"README.md":       "# x\n",
		".github/workflows/check.yml": "name: check\non: [push, pull_request]\njobs:\n  check:\n    runs-on: ubuntu-latest\n    steps:\n" +
			"      - uses: actions/checkout@v4\n      - uses: crate-ci/typos@v1.29.0\n" +
			"      - name: Install tools\n        run: |\n          unset GOFLAGS\n          mkdir -p ~/.local/bin\n          curl -sSfL https://example.com/install.sh | sh -s -- -b ~/.local/bin\n" +
			"      - run: yamllint -s .\n      - name: Scripts are current\n        run: shell/update.sh --check\n" +
			"      - run: govulncheck ./...\n",
	}
	got := gateSources(t, files)
	want := map[string]string{
		"typos":    "typos <- from .github/workflows/check.yml, job check",
		"yamllint": "yamllint -s {files} <- from .github/workflows/check.yml, job check",
		"update":   "shell/update.sh --check <- from .github/workflows/check.yml, job check",
	}
	wantGates(t, got, want)
	notes := allNotes(detectTree(t, files))
	for _, setup := range []string{"unset", "mkdir", "curl", "install.sh"} {
		if strings.Contains(notes, setup) {
			t.Errorf("setup %q is named as a check:\n%s", setup, notes)
		}
	}
	if strings.Contains(notes, "shell/update.sh --check") {
		t.Errorf("the CI's check script is a gate and named as no gate:\n%s", notes)
	}
}

// A Go module whose CI runs govulncheck has it as a gate.
func TestGovulncheckFromCI(t *testing.T) {
	got := gateSources(t, map[string]string{"go.mod": "module x\n",
		".github/workflows/ci.yml": "jobs:\n  v:\n    steps:\n      - run: go install golang.org/x/vuln/cmd/govulncheck@latest\n      - run: govulncheck ./...\n      - run: go test ./...\n"})
	if got["vulncheck"] != "govulncheck ./... <- from .github/workflows/ci.yml, job v" {
		t.Errorf("vulncheck = %q (all: %v)", got["vulncheck"], got)
	}
}

// An Ansible repository's pre-commit hooks that check: each a gate, or named with why.
func TestPreCommitCheckingHooks(t *testing.T) {
	files := map[string]string{
		"playbook.yml": "- hosts: all\n",
		".pre-commit-config.yaml": "repos:\n" +
			"  - repo: https://github.com/adrienverge/yamllint\n    rev: v1.35.1\n    hooks:\n      - id: yamllint\n        args: [--strict]\n" +
			"  - repo: https://github.com/ansible/ansible-lint\n    rev: v24.2.0\n    hooks:\n      - id: ansible-lint\n" +
			"        entry: python3 -m ansiblelint site.yml -c .ansible-lint\n        pass_filenames: false\n" +
			"  - repo: https://github.com/crate-ci/typos\n    rev: v1.29.0\n    hooks:\n      - id: typos\n" +
			"  - repo: https://github.com/markdownlint/markdownlint\n    rev: v0.12.0\n    hooks:\n      - id: markdownlint\n" +
			"  - repo: https://github.com/pre-commit/pre-commit-hooks\n    rev: v4.5.0\n    hooks:\n      - id: trailing-whitespace\n",
	}
	got := gateSources(t, files)
	want := map[string]string{
		"yamllint": "yamllint {files} --strict <- from .pre-commit-config.yaml, hook yamllint",
		// The config's entry overrides the hook's: it is what pre-commit runs.
		"ansible-lint": "python3 -m ansiblelint site.yml -c .ansible-lint <- from .pre-commit-config.yaml, hook ansible-lint",
		"typos":        "typos <- from .pre-commit-config.yaml, hook typos",
		// markdownlint/markdownlint's hook is the Ruby mdl, not the Node markdownlint.
		"mdl": "mdl . <- from .pre-commit-config.yaml, hook markdownlint",
	}
	wantGates(t, got, want)
}

// What sets up, reports or generates in a check target is no check left out: init names only
// what may check.
func TestSetupInCheckTargetsIsNotNamed(t *testing.T) {
	files := map[string]string{"go.mod": "module x\n",
		"Makefile": "comp_dir=@mkdir -p autocomplete\ntest:\n\t$(comp_dir)\n\tunset GOFLAGS\n\tmkdir -p out\n\tcurl -sSfL https://example.com/install.sh | sh -s -- -b bin\n" +
			"\tcoverage erase\n\tgo test ./...\n\tcoverage report\n\tcoverage html\n\t./bin/tool completion bash > out/tool.bash\n" +
			"\tsh scripts/check-links.sh\n\tcurl -sSfL https://example.com/install.sh | sh -s -- -b bin/ v$$(cat .tool-versions | grep lint | cut -d' ' -f2)\n"}
	notes := allNotes(detectTree(t, files))
	for _, setup := range []string{"unset", "mkdir", "install.sh", "sh -s", "coverage", "completion", "cut -d", "@mkdir"} {
		if strings.Contains(notes, setup) {
			t.Errorf("setup %q is named as a check:\n%s", setup, notes)
		}
	}
	if !strings.Contains(notes, "sh scripts/check-links.sh") {
		t.Errorf("the target's own check script is not named:\n%s", notes)
	}
}

// pre-commit's top-level exclude (and a hook's own) keeps files from every hook: the gates made
// of whole-project commands leave them out too, as the gate's exclude and, where the tool walks
// the tree itself, its own exclude flag (mypy's regex, flake8's and ruff's --extend-exclude,
// isort's --extend-skip-glob), so that `mypy .` does not type-check tests/data.
func TestPreCommitTopLevelExclude(t *testing.T) {
	files := map[string]string{
		"pyproject.toml": "[project]\nname = 'x'\n",
		".pre-commit-config.yaml": "exclude: ^(profiling/|tests/data/)\nrepos:\n" +
			"  - repo: https://github.com/pycqa/isort\n    rev: 5.13.2\n    hooks:\n      - id: isort\n" +
			"  - repo: https://github.com/pycqa/flake8\n    rev: 7.0.0\n    hooks:\n      - id: flake8\n" +
			"  - repo: https://github.com/astral-sh/ruff-pre-commit\n    rev: v0.4.0\n    hooks:\n      - id: ruff\n" +
			"  - repo: https://github.com/pre-commit/mirrors-mypy\n    rev: v1.9.0\n    hooks:\n      - id: mypy\n        args: [--strict]\n",
	}
	projects := detectTree(t, files)
	want := map[string]string{
		"isort":     "isort --extend-skip-glob 'profiling/*' --extend-skip-glob 'tests/data/*' --check-only .",
		"flake8":    "flake8 --extend-exclude profiling,tests/data",
		"lint":      "ruff check --extend-exclude profiling,tests/data --force-exclude {files}",
		"typecheck": "mypy '--exclude=^(profiling/|tests/data/)' --strict .",
	}
	for name, run := range want {
		g, ok := gateByName(projects, name)
		if !ok || g.Run != run {
			t.Errorf("gate %s = %q, want %q (all: %v)", name, g.Run, run, gateCommands(projects))
			continue
		}
		if !slices.Equal(g.Exclude, []string{"profiling/**", "tests/data/**"}) {
			t.Errorf("gate %s exclude = %q, want pre-commit's", name, g.Exclude)
		}
	}
}

// A pnpm/turbo monorepo as turbo's docs lay it out: a gate waits for the build only where
// turbo.json's dependsOn says the task builds first, and CI's `turbo run --filter=www check` is
// the www package's check, a gate scoped to that package.
func turboMonorepo() map[string]string {
	return map[string]string{
		"package.json": `{"name": "mono", "private": true, "packageManager": "pnpm@9.0.0",
 "scripts": {"build": "turbo run build", "lint": "turbo run lint", "test": "turbo run test", "dev": "turbo run dev"},
 "devDependencies": {"turbo": "^2"}}`,
		"pnpm-workspace.yaml": "packages:\n  - \"apps/*\"\n  - \"packages/*\"\n",
		"pnpm-lock.yaml":      "",
		"turbo.json": `{"$schema": "https://turbo.build/schema.json",
 "tasks": {"build": {"dependsOn": ["^build"], "outputs": ["dist/**"]},
           "lint": {}, "typecheck": {"dependsOn": ["^build"]},
           "check": {}, "test": {"dependsOn": ["build"]}, "dev": {"cache": false, "persistent": true}}}`,
		"apps/www/package.json": `{"name": "www", "private": true,
 "scripts": {"dev": "next dev", "build": "next build", "lint": "eslint .", "typecheck": "tsc --noEmit",
  "format:check": "prettier --check .", "check": "pnpm lint && pnpm typecheck && pnpm format:check"}}`,
		"packages/ui/package.json": `{"name": "@repo/ui", "scripts": {"build": "tsc", "lint": "eslint .", "test": "vitest run"}}`,
		".github/workflows/ci.yml": "jobs:\n  check:\n    steps:\n      - run: pnpm install --frozen-lockfile\n" +
			"      - run: pnpm turbo run --filter=www check\n      - run: pnpm lint\n      - run: pnpm test\n",
	}
}

func TestTurboDependsOnDecidesNeeds(t *testing.T) {
	projects := detectTree(t, turboMonorepo())
	lint, ok := gateByName(projects, "lint")
	if !ok || len(lint.Needs) != 0 {
		t.Errorf("lint = %+v: turbo's lint task depends on no build, so it needs none", lint)
	}
	test, ok := gateByName(projects, "test")
	if !ok || !slices.Equal(test.Needs, []string{"build"}) {
		t.Errorf("test = %+v: turbo's test task depends on build", test)
	}
}

func TestTurboFilteredTaskIsThePackagesGate(t *testing.T) {
	projects := detectTree(t, turboMonorepo())
	g, ok := gateByName(projects, "www-check")
	if !ok {
		t.Fatalf("no www-check gate: %v", gateCommands(projects))
	}
	if g.Run != "pnpm turbo run --filter=www check" || !slices.Equal(g.Paths, []string{"apps/www/**"}) || len(g.Needs) != 0 {
		t.Errorf("www-check = run %q paths %q needs %q, want CI's command, apps/www/**, no needs", g.Run, g.Paths, g.Needs)
	}
}

// CI's plumbing is no gate env: action names kept in variables for YAML anchors, the
// installer's settings (PIP_*, UV_*, npm's config), passwords and keys. A variable a check reads
// (DRIVER) stays.
func TestCIPlumbingIsNoGateEnv(t *testing.T) {
	projects := detectTree(t, map[string]string{"go.mod": "module x\n",
		".github/workflows/ci.yml": "env:\n  CHECKOUT_ACTION: actions/checkout@v4.2.2\n  PIP_UPLOADED_PRIOR_TO: '2025-01-01'\n" +
			"  UV_FROZEN: '1'\n  NPM_CONFIG_FUND: 'false'\n  DB_PASSWORD: hunter2\n  DRIVER: sqlite\n" +
			"jobs:\n  t:\n    steps:\n      - run: go test ./...\n"})
	g, ok := gateByName(projects, "test")
	if !ok {
		t.Fatal("no test gate")
	}
	var names []string
	for _, e := range g.Env {
		names = append(names, e.Name)
	}
	if !slices.Equal(names, []string{"DRIVER"}) {
		t.Errorf("test env = %v, want DRIVER alone", names)
	}
}

// yamllint judges each YAML file by itself, and its config's ignore holds for named files too:
// `yamllint .` is given the change's YAML files, unless the config widens what counts as YAML
// (yaml-files), which naming files would bypass, or another config is named inline (-d).
func TestYamllintGivenTheChangesFiles(t *testing.T) {
	ci := func(run string) map[string]string {
		return map[string]string{"a.yml": "a: 1\n",
			".github/workflows/ci.yml": "jobs:\n  l:\n    steps:\n      - run: " + run + "\n"}
	}
	files := ci("yamllint -s .")
	g, ok := gateByName(detectTree(t, files), "yamllint")
	if !ok || g.Run != "yamllint -s {files}" || !slices.Equal(g.Glob, []string{"**/*.yaml", "**/*.yml", "**/.yamllint"}) || g.FilesNote == "" {
		t.Errorf("yamllint gate = %+v, want yamllint -s {files} on the YAML files", g)
	}
	files[".yamllint.yml"] = "extends: default\nyaml-files:\n  - '*.yaml'\n  - '*.yml'\n  - '*.yaml.j2'\n"
	if g, _ := gateByName(detectTree(t, files), "yamllint"); g.Run != "yamllint -s ." {
		t.Errorf("with yaml-files in the config: %q, want the whole project", g.Run)
	}
	if g, _ := gateByName(detectTree(t, ci("yamllint -d relaxed .")), "yamllint"); g.Run != "yamllint -d relaxed ." {
		t.Errorf("with -d: %q, want the whole project", g.Run)
	}
}

// Every hook that checks is a gate or named: a local hook whose entry init does not know, and a
// hook whose tool belongs to no project here (prettier's hook in a Python project), are named;
// a tox env that generates files is no check.
func TestHooksThatBecomeNoGateAreNamed(t *testing.T) {
	files := map[string]string{
		"pyproject.toml": "[project]\nname = 'x'\n",
		".pre-commit-config.yaml": "repos:\n  - repo: local\n    hooks:\n      - id: check-version-in-example\n" +
			"        name: Check version\n        language: python\n        entry: python -m scripts.check_version\n" +
			"  - repo: https://github.com/rbubley/mirrors-prettier\n    rev: v3.3.3\n    hooks:\n      - id: prettier\n" +
			"        types_or: [markdown, yaml, json]\n" +
			"  - repo: https://github.com/pycqa/flake8\n    rev: 7.0.0\n    hooks:\n      - id: flake8\n",
		"tox.ini": "[testenv:generate_schema]\ncommands = python scripts/generate_schema.py --outfile schema.json\n",
	}
	notes := allNotes(detectTree(t, files))
	for _, want := range []string{"check-version-in-example (`python -m scripts.check_version`)", "hooks init does not know", "prettier --check ."} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes do not name %q:\n%s", want, notes)
		}
	}
	if strings.Contains(notes, "generate_schema.py") {
		t.Errorf("a generator is named as a check:\n%s", notes)
	}
}

// A format script with a fixing sibling (format and format:fix, as create-t3-turbo has them) is
// the check: its sibling rewrites, so it does not, and CI runs it as the format check.
func TestFormatScriptWithAFixingSiblingIsTheCheck(t *testing.T) {
	got := gateSources(t, map[string]string{
		"package.json": `{"packageManager": "pnpm@10.19.0", "scripts": {"lint": "eslint .",
  "format": "prettier --check . --cache", "format:fix": "prettier --write . --cache", "lint:ws": "pnpm dlx sherif@latest"}}`,
		"pnpm-lock.yaml":           "",
		".github/workflows/ci.yml": "jobs:\n  f:\n    steps:\n      - run: pnpm format\n      - run: pnpm lint\n",
	})
	if got["fmt"] != "pnpm run format <- from package.json, script format; fix: script format:fix" {
		t.Errorf("fmt = %q (all: %v)", got["fmt"], got)
	}
}

// A monorepo linter fetched and run by the package manager (pnpm dlx sherif@latest) is named.
func TestDownloadedCheckScriptIsNamed(t *testing.T) {
	notes := allNotes(detectTree(t, map[string]string{
		"package.json":   `{"scripts": {"lint": "eslint .", "lint:ws": "pnpm dlx sherif@latest"}}`,
		"pnpm-lock.yaml": ""}))
	if !strings.Contains(notes, "lint:ws script (sherif)") {
		t.Errorf("sherif's script is not named:\n%s", notes)
	}
}

// A check run as `python -m TOOL` is fixed the same way: the fixer runs the module the check
// ran, not a TOOL that may not be on PATH.
func TestPythonModuleFixRunsTheModule(t *testing.T) {
	g, ok := gateByName(detectTree(t, map[string]string{"pyproject.toml": "[project]\nname = 'x'\n",
		".github/workflows/ci.yml": "jobs:\n  f:\n    steps:\n      - run: python -m black --check .\n"}), "fmt")
	if !ok || g.Run != "python -m black --check {files}" || g.Fix != "python -m black ." {
		t.Errorf("fmt = run %q fix %q, want python -m black for both", g.Run, g.Fix)
	}
}

// mypy's config may name what it checks by packages or modules as well as files: then plain
// `mypy` is the project's check, never `mypy .` over scripts and examples.
func TestMypyConfigPackagesKeepPlainMypy(t *testing.T) {
	got := gateSources(t, map[string]string{
		"pyproject.toml": "[project]\nname = 'x'\n\n[tool.mypy]\nstrict = true\npackages = [\"isort\", \"tests\"]\n",
		"tox.ini":        "[testenv:lint]\ncommands =\n    mypy\n",
	})
	if got["typecheck"] != "mypy <- from tox.ini, env lint" {
		t.Errorf("typecheck = %q, want plain mypy", got["typecheck"])
	}
}

// A Makefile's fmt target that only rewrites (gofmt -s -w) says how the project formats, not
// that it checks the formatting: nothing runs the check, so it is offered, not gated (gin's
// clean tree has a file gofmt would change).
func TestFormattingTargetAloneIsNoGate(t *testing.T) {
	projects := detectTree(t, map[string]string{"go.mod": "module x\n",
		"Makefile":                 "GOFILES := $(shell find . -name '*.go')\nfmt:\n\tgofmt -s -w $(GOFILES)\ntest:\n\tgo test ./...\n",
		".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: make test\n"})
	if g, ok := gateByName(projects, "fmt"); ok {
		t.Errorf("fmt gated from a target that only formats: %+v", g)
	}
	if offers := offerNames(projects)["Go"]; !slices.Contains(offers, "fmt") {
		t.Errorf("fmt not offered: %v", offers)
	}
}

// gin's fmt-check runs $(GOFMT) -d with GOFMT ?= gofmt "-s": the quoted -s still simplifies.
func TestGofmtQuotedSimplifyFlag(t *testing.T) {
	g, ok := gateByName(detectTree(t, map[string]string{"go.mod": "module x\n",
		"Makefile": "GOFMT ?= gofmt \"-s\"\nfmt-check:\n\t@diff=$$($(GOFMT) -d .); if [ -n \"$$diff\" ]; then exit 1; fi\n"}), "fmt")
	if !ok || !strings.Contains(g.Run, "gofmt -s -l") {
		t.Errorf("fmt = %q, want gofmt -s", g.Run)
	}
}

// A per-file tool whose project config makes the verdict depend on more than the named file, or
// on how the files are chosen, keeps its whole-project command, and its comment says why.
func TestWholeProjectPerFileToolSaysWhy(t *testing.T) {
	projects := detectTree(t, map[string]string{
		"pyproject.toml":           "[project]\nname = 'x'\n\n[tool.black]\nextend-exclude = 'vendored'\n",
		".github/workflows/ci.yml": "jobs:\n  f:\n    steps:\n      - run: black --check .\n",
	})
	g, ok := gateByName(projects, "fmt")
	if !ok || g.Run != "black --check ." || !strings.Contains(g.FilesNote, "whole project") {
		t.Errorf("fmt = run %q note %q, want the whole project with the reason", g.Run, g.FilesNote)
	}
}

// Found on pypa/packaging: uv run's flags take values (--python python3), and a nox or tox behind
// pipx run or uvx is the project's session all the same; a session.run ending in *posargs is the
// command the session runs (the user's extra arguments aside).
func TestRunnerFlagsValuesAndSplats(t *testing.T) {
	if got := withoutRunner([]string{"uv", "run", "--python", "python3", "python", "-m", "pytest"}); !slices.Equal(got, []string{"python", "-m", "pytest"}) {
		t.Errorf("uv run --python: %v", got)
	}
	for _, cmd := range []string{"pipx run nox -s tests", "uvx nox -s tests", "pipx run --spec nox==2024.4.15 nox -s tests"} {
		runner, units := runnerUnits(simpleCommand{words: strings.Fields(cmd)})
		if runner != "nox" || !slices.Equal(units, []string{"tests"}) {
			t.Errorf("%q: %q %v, want nox [tests]", cmd, runner, units)
		}
	}
	words, ok := literalArgs(`"pytest", "--capture=no", *session.posargs`)
	if !ok || !slices.Equal(words, []string{"pytest", "--capture=no"}) {
		t.Errorf("posargs: %v %v", words, ok)
	}
	if _, ok := literalArgs(`"pytest", *coverage`); ok {
		t.Error("a computed splat other than posargs is read as literal")
	}
}

// wantGates checks that each gate named in want runs as want says (command <- source).
func wantGates(t *testing.T, got, want map[string]string) {
	t.Helper()
	for name, w := range want {
		if got[name] != w {
			t.Errorf("gate %s = %q, want %q\nall: %v", name, got[name], w, got)
		}
	}
}
