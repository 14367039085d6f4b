package scaffold

import (
	"strings"
	"testing"
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
	for name, want := range map[string]string{
		"ansible-lint": "python3 -m ansiblelint site.yml -c .ansible-lint <- from .pre-commit-config.yaml, hook ansible-lint",
		"typos":        "typos <- from .github/workflows/ci.yml, job lint",
	} {
		if got[name] != want {
			t.Errorf("%s = %q, want %q", name, got[name], want)
		}
	}
}
