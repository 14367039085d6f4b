package scaffold

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// Classes of file shapes that repositories init had not been tried on exposed. Each fixture
// follows the format's documentation, not one project.

// pnpm runs every script a regular expression matches (`pnpm run "/^test:.*/"`, pnpm's docs,
// "pnpm run"): the scripts it matches run under the one gate, and are neither named as left out
// nor offered again as tools no script runs.
func TestPnpmRegexScriptSelector(t *testing.T) {
	files := map[string]string{
		"package.json": `{"scripts": {"test": "pnpm run \"/^test:.*/\"", "test:format": "prettier . --list-different",
			"test:types": "tsc --noEmit", "test:lint": "eslint .", "test:spec": "vitest run", "watch:x": "vitest"},
			"devDependencies": {"eslint": "^9", "typescript": "^5", "prettier": "^3"}}`,
		"pnpm-lock.yaml":   "",
		"tsconfig.json":    "{}",
		"eslint.config.js": "export default []",
	}
	got := gateSources(t, files)
	if got["test"] != "pnpm run test <- from package.json, script test" || len(got) != 1 {
		t.Errorf("gates = %v, want the test script alone", got)
	}
	projects := detectTree(t, files)
	if notes := allNotes(projects); strings.Contains(notes, "test:") {
		t.Errorf("scripts the test script runs are named as no gate:\n%s", notes)
	}
	if offers := offerNames(projects); len(offers) != 0 {
		t.Errorf("offers = %v, want none: the test script runs eslint and tsc", offers)
	}
}

// A package script CI runs by name is a check of the project's, whatever its name
// (`pnpm lint && pnpm lint:ws`): a gate, not a note telling the user to add it.
func TestPackageScriptCIRunsIsAGate(t *testing.T) {
	files := map[string]string{
		"package.json":   `{"scripts": {"lint": "eslint .", "lint:ws": "sherif", "lint:fix": "eslint --fix .", "deploy": "wrangler deploy"}}`,
		"pnpm-lock.yaml": "",
		".github/workflows/ci.yml": "jobs:\n  lint:\n    steps:\n      - run: pnpm install\n" +
			"      - run: pnpm lint && pnpm lint:ws\n  deploy:\n    steps:\n      - run: pnpm deploy\n",
	}
	got := gateSources(t, files)
	if got["lint-ws"] != "pnpm run lint:ws <- from package.json, script lint:ws; run by .github/workflows/ci.yml, job lint" {
		t.Errorf("lint-ws = %q (all: %v)", got["lint-ws"], got)
	}
	if _, ok := got["deploy"]; ok {
		t.Errorf("a deploy script CI runs became a gate: %v", got)
	}
	if notes := allNotes(detectTree(t, files)); strings.Contains(notes, "lint:ws") {
		t.Errorf("a gated script is named as no gate:\n%s", notes)
	}
}

// prettier reads .gauntlet.yml only when it is given the root (`prettier --check .`) or a glob
// that matches the file there; a run scoped to folders (`prettier -c src test`) never reads it,
// so init has no reason to list it in .prettierignore.
func TestRunsPrettierOnlyWhenItReachesTheRoot(t *testing.T) {
	for _, tt := range []struct {
		script string
		want   bool
	}{
		{"eslint . && prettier -c src test", false},
		{"prettier --check 'src/**/*.ts'", false},
		{"prettier --check --ignore-path .gitignore lib", false},
		{"prettier --check .", true},
		{"prettier . --list-different", true},
		{"prettier --check '**/*.{ts,yml}'", true},
		{"prettier -c '*.yml'", true},
		{"prettier --check", true}, // no path read: assume the worst
		{"npx prettier --check ./", true},
	} {
		root := writeTree(t, map[string]string{"package.json": `{"scripts": {"lint": ` + jsonString(tt.script) + `, "test": "pnpm lint && vitest run"}}`})
		if got := RunsPrettier(root, "", "pnpm run test"); got != tt.want {
			t.Errorf("%q: RunsPrettier = %v, want %v", tt.script, got, tt.want)
		}
	}
}

func jsonString(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

// A flag that forces colours (`--force-color`, `--color=always`) is for a terminal: in a gate's
// captured output the escape codes split the `file:line` its findings are read from.
func TestColourForcingFlagsDropped(t *testing.T) {
	files := map[string]string{
		"site.yml": "- hosts: all\n",
		".pre-commit-config.yaml": "repos:\n- repo: https://github.com/ansible-community/ansible-lint\n  rev: v25.1.3\n  hooks:\n" +
			"  - id: ansible-lint\n    entry: python3 -m ansiblelint --force-color site.yml -c .ansible-lint\n    pass_filenames: false\n",
		".github/workflows/ci.yml": "jobs:\n  lint:\n    steps:\n      - run: yamllint -s .\n      - run: typos --color=always\n",
	}
	got := gateSources(t, files)
	wantGates(t, got, map[string]string{
		"ansible-lint": "python3 -m ansiblelint site.yml -c .ansible-lint <- from .pre-commit-config.yaml, hook ansible-lint",
		"typos":        "typos <- from .github/workflows/ci.yml, job lint",
	})
}

// pre-commit's docs exclude single files with an anchored path (`exclude: ^docs/conf.py$`,
// often with its dot unescaped, which still matches the file): read as the file itself.
func TestHookFilesSingleFiles(t *testing.T) {
	for _, tt := range []struct {
		pattern string
		globs   []string
	}{
		{`^docs/conf.py$`, []string{"docs/conf.py"}},
		{`^docs/conf\.py$`, []string{"docs/conf.py"}},
		{`^(setup\.py|docs/conf\.py)$`, []string{"setup.py", "docs/conf.py"}},
		{`^CHANGELOG.md$`, []string{"CHANGELOG.md"}},
		{`^docs/.+\.py$`, nil}, // not a file: a pattern init does not read
		{`docs/conf.py`, nil},  // unanchored: any path containing it
	} {
		globs, dirs := hookFiles(tt.pattern)
		if !slices.Equal(globs, tt.globs) || dirs != nil {
			t.Errorf("%q: globs %q, dirs %q; want %q and no folders", tt.pattern, globs, dirs, tt.globs)
		}
	}
	got := gateSources(t, map[string]string{
		"pyproject.toml": "[project]\nname = \"x\"\n[tool.mypy]\nstrict = true\n",
		".pre-commit-config.yaml": "exclude: ^(profiling/|tests/data/)\nrepos:\n  - repo: https://github.com/pre-commit/mirrors-mypy\n" +
			"    rev: v1.0.0\n    hooks:\n      - id: mypy\n        exclude: ^docs/conf.py$\n",
	})
	want := `mypy '--exclude=^(profiling/|tests/data/)' '--exclude=^docs/conf.py$' . <- from .pre-commit-config.yaml, hook mypy`
	if got["typecheck"] != want {
		t.Errorf("typecheck = %q\nwant        %q", got["typecheck"], want)
	}
}

// A step that negates its command (`! bin/bats failing.bats`: the suite must fail on a failing
// fixture) passes when the command fails: the command is not the check, and no gate runs it as
// one; it is named. Under if/while the ! is the condition's, and the command is still read.
func TestNegatedCommandIsNoGate(t *testing.T) {
	files := map[string]string{
		"bin/run": "#!/bin/sh\n",
		"go.mod":  "module x\n",
		".github/workflows/ci.yml": "jobs:\n  failsafe:\n    steps:\n      - run: \"! bin/run --check test/fixtures/failing.bats\"\n" +
			"  vet:\n    steps:\n      - run: |\n          if ! go vet ./...; then exit 1; fi\n",
	}
	got := gateSources(t, files)
	for name, g := range got {
		if strings.Contains(g, "failing.bats") {
			t.Errorf("gate %s runs the negated command: %q", name, g)
		}
	}
	if got["vet"] != "go vet ./... <- from .github/workflows/ci.yml, job vet" {
		t.Errorf("vet = %q (all: %v)", got["vet"], got)
	}
	if notes := allNotes(detectTree(t, files)); !strings.Contains(notes, "! bin/run --check test/fixtures/failing.bats") {
		t.Errorf("the negated check is not named:\n%s", notes)
	}
}

// A shell script of the project's that CI runs by its name alone (scripts/check, scripts/test,
// as "scripts to rule them all" lays them out) is followed into its commands, its top-level
// variables filled in, as a make target is followed into its recipe: the checks it runs are
// the project's declared checks, not gauntlet's defaults. A setup script (scripts/install) is
// not read, and a command of the script init does not know is named.
func TestShellScriptCIRunsIsFollowed(t *testing.T) {
	files := map[string]string{
		"pyproject.toml":  "[project]\nname = \"pkg\"\n[tool.ruff.lint]\nselect = [\"E\"]\n[tool.mypy]\nstrict = true\n",
		"pkg/__init__.py": "",
		"scripts/install": "#!/bin/sh -e\npip install -r requirements.txt\n",
		"scripts/check": "#!/bin/sh -e\n\nexport PREFIX=\"\"\nif [ -d 'venv' ] ; then\n    export PREFIX=\"venv/bin/\"\nfi\n" +
			"export SOURCE_FILES=\"pkg tests\"\n\nset -x\n\n./scripts/sync-version\n${PREFIX}ruff format $SOURCE_FILES --diff\n" +
			"${PREFIX}mypy $SOURCE_FILES\n${PREFIX}ruff check $SOURCE_FILES\n",
		"scripts/sync-version": "#!/bin/sh -e\n[ \"$(cat VERSION)\" = x ]\n",
		"scripts/test":         "#!/bin/sh\n\nexport PREFIX=\"\"\nif [ -d 'venv' ] ; then\n    export PREFIX=\"venv/bin/\"\nfi\n\nset -ex\n\nif [ -z $GITHUB_ACTIONS ]; then\n    scripts/check\nfi\n\n${PREFIX}coverage run -m pytest \"$@\"\n",
		".github/workflows/ci.yml": "jobs:\n  tests:\n    steps:\n      - run: \"scripts/install\"\n      - run: \"scripts/check\"\n" +
			"      - run: \"scripts/test\"\n",
	}
	got := gateSources(t, files)
	wantGates(t, got, map[string]string{
		"lint":      "ruff check pkg tests <- from scripts/check, run by .github/workflows/ci.yml, job tests",
		"typecheck": "mypy pkg tests <- from scripts/check, run by .github/workflows/ci.yml, job tests",
	})
	if !strings.Contains(got["fmt"], "ruff format") || !strings.Contains(got["fmt"], "scripts/check, run by") {
		t.Errorf("fmt = %q, want scripts/check's ruff format", got["fmt"])
	}
	if !strings.Contains(got["test"], "pytest") || !strings.Contains(got["test"], "scripts/test, run by") {
		t.Errorf("test = %q, want scripts/test's pytest", got["test"])
	}
	notes := allNotes(detectTree(t, files))
	if strings.Contains(notes, "`scripts/check`") || strings.Contains(notes, "`scripts/test`") || strings.Contains(notes, "pip install") {
		t.Errorf("a followed script or its setup is named as a check left out:\n%s", notes)
	}
	if !strings.Contains(notes, "./scripts/sync-version") {
		t.Errorf("the script's unknown check is not named:\n%s", notes)
	}
}

// A script with functions, or of a shell other than sh and bash, is no flat list of commands:
// it is not followed (CI's zsh completion check stays named, as before).
func TestShellScriptWithFunctionsIsNotFollowed(t *testing.T) {
	for name, script := range map[string]string{
		"functions": "#!/bin/bash\nmain() {\n  go vet ./...\n}\nmain \"$@\"\n",
		"zsh":       "#!/usr/bin/env zsh\ngo vet ./...\n",
	} {
		got := gateSources(t, map[string]string{
			"go.mod":                   "module x\n",
			"ci/test-all":              script,
			".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: ci/test-all\n",
		})
		if strings.Contains(got["vet"], "ci/test-all") {
			t.Errorf("%s: the script was followed: %v", name, got)
		}
	}
}

// A script whose name says it runs integration or end-to-end tests (which reach services, the
// network, a build) is not followed: its pytest would take the test gate from the unit suite CI
// runs through tox. It stays named.
func TestIntegrationScriptIsNamedNotFollowed(t *testing.T) {
	files := map[string]string{
		"pyproject.toml":              "[project]\nname = \"pkg\"\n",
		"tox.ini":                     "[tox]\nenvlist = py\n[testenv]\ncommands = pytest tests/unit/ -s\n",
		"scripts/test_integration.sh": "#!/usr/bin/env bash\nset -euxo pipefail\n\npytest tests/integration/ -s\n",
		".github/workflows/ci.yml": "jobs:\n  unit:\n    steps:\n      - run: tox -e py\n  integration:\n    steps:\n" +
			"      - run: ./scripts/test_integration.sh\n",
	}
	if got := gateSources(t, files)["test"]; !strings.HasPrefix(got, "pytest tests/unit/ -s <- from tox.ini") {
		t.Errorf("test = %q, want the unit suite tox runs", got)
	}
	if notes := allNotes(detectTree(t, files)); !strings.Contains(notes, "./scripts/test_integration.sh") {
		t.Errorf("the integration script is not named:\n%s", notes)
	}
}

// A followed script whose check takes what the script computes (shellcheck -x "${targets[@]}",
// the files a loop gathered) runs as the script itself: the command read here lost its
// arguments. The loop's own words (read, targets+=) are the shell's, never checks left out.
func TestFollowedScriptWithComputedArgumentsRunsWhole(t *testing.T) {
	files := map[string]string{
		"lib/x.sh": "#!/bin/sh\n",
		"shellcheck.sh": "#!/usr/bin/env bash\n\nset -e\n\ntargets=()\nwhile IFS= read -r -d $'\\0'; do\n  targets+=(\"$REPLY\")\n" +
			"done < <(\n  find . -type f \\( -name \\*.bash -o -name \\*.sh \\) -print0\n  find bin -type f -print0\n)\n\n" +
			"LC_ALL=C.UTF-8 shellcheck -x \"${targets[@]}\"\n\nexit $?\n",
		".github/workflows/ci.yml": "jobs:\n  shellcheck:\n    steps:\n      - run: |\n          sudo apt-get install shellcheck\n          ./shellcheck.sh\n",
	}
	got := gateSources(t, files)
	if got["shellcheck"] != "./shellcheck.sh <- from shellcheck.sh, run by .github/workflows/ci.yml, job shellcheck" {
		t.Errorf("shellcheck = %q (all: %v)", got["shellcheck"], got)
	}
	notes := allNotes(detectTree(t, files))
	for _, shell := range []string{"read -r", "targets+=", "${targets"} {
		if strings.Contains(notes, shell) {
			t.Errorf("the script's shell words %q are named as a check:\n%s", shell, notes)
		}
	}
}

// codespell checks the spelling of any text, like typos: a project with no Python (a shell
// project published on npm) whose CI runs it gets it as a gate, not a note that there is no
// Python project to run it in.
func TestCodespellIsOfNoLanguage(t *testing.T) {
	files := map[string]string{
		"package.json": `{"name": "x", "scripts": {"test": "bin/bats test"}}`,
		".github/workflows/codespell.yml": "jobs:\n  codespell:\n    steps:\n      - run: pip install codespell\n" +
			"      - run: codespell\n",
	}
	if got := gateSources(t, files)["spelling"]; got != "codespell <- from .github/workflows/codespell.yml, job codespell" {
		t.Errorf("spelling = %q", got)
	}
	if notes := allNotes(detectTree(t, files)); strings.Contains(notes, "codespell") {
		t.Errorf("codespell is named as no gate:\n%s", notes)
	}
}

// A target that installs a tool when it is missing (`tool --version >/dev/null 2>&1 || { curl
// ... | sh; }`, a check target's prerequisite) checks nothing: the version probe and the brace
// group's words are never named as checks left out.
func TestInstallIfMissingIsNoCheck(t *testing.T) {
	files := map[string]string{
		"go.mod": "module x\n",
		"Makefile": "linters-install:\n\t@golangci-lint --version >/dev/null 2>&1 || { \\\n\t\techo \"installing linting tools...\"; \\\n" +
			"\t\tcurl -sfL https://example.com/install.sh| sh -s v2.0.2; \\\n\t}\n\nlint: linters-install\n\tgolangci-lint run\n\n" +
			"test:\n\tgo test -race ./...\n",
		".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: make lint test\n",
	}
	if got := gateSources(t, files)["lint"]; !strings.HasPrefix(got, "golangci-lint run <- ") {
		t.Errorf("lint = %q", got)
	}
	notes := allNotes(detectTree(t, files))
	for _, noise := range []string{"--version", "}"} {
		if strings.Contains(notes, noise) {
			t.Errorf("%q is named as a check:\n%s", noise, notes)
		}
	}
}

// A CI step that runs what a package script runs (bin/bats test --print-output-on-failure, where
// the test script is `bin/bats test`) is that script's check with a flag more: the script's gate
// covers it, and no second gate runs the same suite.
func TestCIRunOfAPackageScriptsCommandIsThatScript(t *testing.T) {
	files := map[string]string{
		"bin/bats":     "#!/usr/bin/env bash\n",
		"bin/style":    "#!/usr/bin/env bash\n",
		"package.json": `{"name": "bats", "scripts": {"test": "bin/bats test"}}`,
		".github/workflows/ci.yml": "jobs:\n  nounset:\n    steps:\n      - run: bin/bats test --print-output-on-failure\n" +
			"  alpine:\n    steps:\n      - run: time ./bin/bats --print-output-on-failure test/\n" +
			"  other:\n    steps:\n      - run: bin/style --check\n",
	}
	got := gateSources(t, files)
	if len(got) != 2 || got["test"] != "npm run test <- from package.json, script test" || got["style"] == "" {
		t.Errorf("gates = %v, want the test script's and the other check script's", got)
	}
	if notes := allNotes(detectTree(t, files)); strings.Contains(notes, "bin/bats") {
		t.Errorf("the test script's run is named as no gate:\n%s", notes)
	}
}

// A tox env that runs pytest twice (the suite, then its jupyter-marked tests with another extra
// installed) has one test gate, the first run; the other is named beside it, not dropped.
func TestSecondPytestRunIsNamed(t *testing.T) {
	got := gateSources(t, map[string]string{
		"pyproject.toml": "[project]\nname = \"x\"\n",
		"tox.ini": "[tox]\nenvlist = py\n[testenv]\ncommands =\n    pip install -e .[d]\n    pytest tests --run-optional no_jupyter \\\n" +
			"        --cov {posargs}\n    pip install -e .[jupyter]\n    pytest tests --run-optional jupyter \\\n        -m jupyter \\\n" +
			"        --cov-append {posargs}\n",
	})
	want := "pytest tests --run-optional no_jupyter <- from tox.ini, env testenv; there the suite also runs as " +
		"`pytest tests --run-optional jupyter -m jupyter` (other options: add it as a gate to check those too)"
	if got["test"] != want {
		t.Errorf("test = %q\nwant   %q", got["test"], want)
	}
}

// Several folders that nothing checks and that would get the same defaults (isort's three
// example plugins) are one line that names them all, on the root's project of their kind, not a
// line each.
func TestUncheckedFoldersAreOneNote(t *testing.T) {
	files := map[string]string{
		"pyproject.toml": "[project]\nname = \"x\"\n",
		"tox.ini":        "[tox]\nenvlist = py\n[testenv]\ncommands = pytest tests/unit\n",
	}
	for _, ex := range []string{"example_a", "example_b", "example_c"} {
		files[ex+"/pyproject.toml"] = "[project]\nname = \"" + ex + "\"\n"
	}
	notes := allNotes(detectTree(t, files))
	if n := strings.Count(notes, "no check that init knows runs in"); n != 1 {
		t.Fatalf("%d notes of folders nothing checks, want one:\n%s", n, notes)
	}
	want := "no check that init knows runs in the folders example_a, example_b and example_c, so they have no gates; " +
		"gauntlet's defaults there would be `python3 -m pytest` (add them as gates with dir: FOLDER to check one)."
	if !strings.Contains(notes, want) {
		t.Errorf("notes:\n%s\nwant:\n%s", notes, want)
	}
	var onRoot bool
	for _, p := range detectTree(t, files) {
		onRoot = onRoot || p.Dir == "" && strings.Contains(strings.Join(p.Notes, "\n"), want)
	}
	if !onRoot {
		t.Errorf("the note is not on the root's project")
	}
}

// Yelp's detect-secrets hook (its README's shape: `id: detect-secrets`, args with the baseline)
// runs detect-secrets-hook on the files pre-commit passes it: a gate given the change's files,
// with the hook's args.
func TestDetectSecretsHookIsAGate(t *testing.T) {
	files := map[string]string{
		"site.yml":          "- hosts: all\n",
		".secrets.baseline": "{}\n",
		".pre-commit-config.yaml": "repos:\n-   repo: https://github.com/Yelp/detect-secrets\n    rev: v1.5.0\n    hooks:\n" +
			"    -   id: detect-secrets\n        args: ['--baseline', '.secrets.baseline']\n",
	}
	got := gateSources(t, files)
	if got["detect-secrets"] != "detect-secrets-hook --baseline .secrets.baseline {files} <- from .pre-commit-config.yaml, hook detect-secrets" {
		t.Errorf("detect-secrets = %q (all: %v)", got["detect-secrets"], got)
	}
	if notes := allNotes(detectTree(t, files)); strings.Contains(notes, "detect-secrets") {
		t.Errorf("the gated hook is named as no gate:\n%s", notes)
	}
}

// A shell project's test suite loads its .bats and shell files as a compiler loads sources: they
// count toward the project's size, so that bats-core (some 280 of them, no compiled file) does not
// get the 5-minute cap of a two-file module for a suite of nearly 500 tests.
func TestShellTestFilesCountTowardTheSize(t *testing.T) {
	files := map[string]string{"package.json": `{"name": "x", "scripts": {"test": "bin/bats test"}}`, "bin/bats": "#!/bin/bash\n"}
	for i := range 150 {
		files[fmt.Sprintf("test/t%d.bats", i)] = "@test x { true; }\n"
		files[fmt.Sprintf("lib/l%d.bash", i)] = "x() { :; }\n"
	}
	if test, _ := gateByName(detectTree(t, files), "test"); test.Timeout <= 5*time.Minute {
		t.Errorf("300 shell files: test timeout %s, want above the small project's 5m", test.Timeout)
	}
}

// A check script CI runs through its shell (`bash scripts/lint.sh`, `sh ./scripts/test`) is read
// the same way; the interpreter named decides nothing, the script's own #! line still does.
func TestShellScriptRunThroughItsShellIsFollowed(t *testing.T) {
	got := gateSources(t, map[string]string{
		"go.mod":                   "module x\n",
		"scripts/lint.sh":          "#!/usr/bin/env bash\nset -euo pipefail\ngo vet ./...\n",
		".github/workflows/ci.yml": "jobs:\n  lint:\n    steps:\n      - run: bash scripts/lint.sh\n",
	})
	if got["vet"] != "go vet ./... <- from scripts/lint.sh, run by .github/workflows/ci.yml, job lint" {
		t.Errorf("vet = %q (all: %v)", got["vet"], got)
	}
}
