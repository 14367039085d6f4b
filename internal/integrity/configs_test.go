package integrity

import (
	"slices"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

const gauntletYML = `version: 1
gates:
  vet:
    run: go vet ./...
  test:
    run: go test ./...
`

// Public keys of the remote cache: CI's, and one the agent made.
const (
	ciKey    = "ed25519:3SEQoBFWjaq76Tp/KzcoNX6H1ql+uA2KkdvwC2XBTAU="
	agentKey = "ed25519:UBup0fl3gPJpRecdWPPHQpY68UvTmNVeWA+HXROf2Ow="
)

// remote is a cache section with a remote cache at url trusting keys (public_keys on line 4 of it).
func remote(url string, keys ...string) string {
	return "cache:\n  remote:\n    url: " + url + "\n    public_keys: [" + strings.Join(keys, ", ") + "]\n"
}

func TestGauntletConfigRules(t *testing.T) {
	cfg := func(s string) map[string]string { return map[string]string{".gauntlet.yml": s} }
	runCases(t, []detectCase{
		{name: "gate removed", old: cfg(gauntletYML), new: cfg("version: 1\ngates:\n  vet:\n    run: go vet ./...\n"),
			want: []string{"gate-relaxed .gauntlet.yml:2"}},
		{name: "gate added is honest", old: cfg(gauntletYML), new: cfg(gauntletYML + "  lint:\n    run: golangci-lint run\n")},
		{name: "reformatted config is no change", old: cfg(gauntletYML),
			new: cfg("version: 1\ngates:\n  test: {run: \"go test ./...\"}\n  vet:\n    run: 'go vet ./...'\n")},
		{name: "gate renamed with the same definition", old: cfg(gauntletYML),
			new: cfg("version: 1\ngates:\n  vet:\n    run: go vet ./...\n  unit:\n    run: go test ./...\n")},
		{name: "gate disabled, warned, narrowed", old: cfg(gauntletYML),
			new:  cfg("version: 1\ngates:\n  vet:\n    run: go vet ./...\n    enabled: false\n  test:\n    run: go test ./...\n    severity: warn\n    paths: [\"x/**\"]\n    new_only: true\n"),
			want: []string{"gate-relaxed .gauntlet.yml:5", "gate-relaxed .gauntlet.yml:8", "gate-relaxed .gauntlet.yml:9", "gate-relaxed .gauntlet.yml:10"}},
		{name: "command changed", old: cfg(gauntletYML), new: cfg(replace(gauntletYML, "go test ./...", "go test ./... || true")),
			want: []string{"gate-relaxed .gauntlet.yml:6"}},
		{name: "max attempts lowered", old: cfg(gauntletYML), new: cfg(gauntletYML + "stop_hook:\n  max_attempts: 1\n"),
			want: []string{"gate-relaxed .gauntlet.yml:8"}},
		{name: "edit guard turned down", old: cfg(gauntletYML), new: cfg(gauntletYML + "stop_hook:\n  pre_edit: warn\n"),
			want: []string{"gate-relaxed .gauntlet.yml:8"}},
		{name: "edit guard made stricter", old: cfg(gauntletYML + "stop_hook:\n  pre_edit: off\n"), new: cfg(gauntletYML + "stop_hook:\n  pre_edit: deny\n")},
		{name: "config moved to .gauntlet.yaml and a gate dropped", old: cfg(gauntletYML),
			new:  map[string]string{".gauntlet.yaml": "version: 1\ngates:\n  vet:\n    run: go vet ./...\n"},
			want: []string{"gate-relaxed .gauntlet.yaml:2"}},
		{name: "config moved as it was", old: cfg(gauntletYML), new: map[string]string{".gauntlet.yaml": gauntletYML}},
		{name: "config deleted", old: cfg(gauntletYML), new: map[string]string{}, want: []string{"gate-relaxed .gauntlet.yml:0"}},
		{name: "integrity lowered", old: cfg(gauntletYML), new: cfg(gauntletYML + "integrity: off\n"),
			want: []string{"integrity-relaxed .gauntlet.yml:7"}},
		{name: "inputs narrowed for the cache", old: cfg(gauntletYML + "cache: true\n"),
			new:  cfg("version: 1\ngates:\n  vet:\n    run: go vet ./...\n  test:\n    run: go test ./...\n    inputs: [README.md]\ncache: true\n"),
			want: []string{"gate-relaxed .gauntlet.yml:7"}},
		{name: "inputs losing a pattern", old: cfg("version: 1\ngates:\n  test:\n    run: go test ./...\n    inputs: [\"**/*.go\", go.mod]\n"),
			new:  cfg("version: 1\ngates:\n  test:\n    run: go test ./...\n    inputs: [go.mod]\n"),
			want: []string{"gate-relaxed .gauntlet.yml:5"}},
		{name: "inputs widened is honest", old: cfg("version: 1\ngates:\n  test:\n    run: go test ./...\n    inputs: [go.mod]\n"),
			new: cfg("version: 1\ngates:\n  test:\n    run: go test ./...\n    inputs: [go.mod, \"**/*.go\"]\n")},
		// The keys decide what is believed: a key of the agent's own would let it sign passes.
		{name: "remote cache public key added", old: cfg(gauntletYML + remote("https://cache.example", ciKey)),
			new:  cfg(gauntletYML + remote("https://cache.example", ciKey, agentKey)),
			want: []string{"gate-relaxed .gauntlet.yml:10"}},
		{name: "remote cache public key replaced", old: cfg(gauntletYML + remote("https://cache.example", ciKey)),
			new:  cfg(gauntletYML + remote("https://cache.example", agentKey)),
			want: []string{"gate-relaxed .gauntlet.yml:10"}},
		{name: "remote cache added", old: cfg(gauntletYML), new: cfg(gauntletYML + "cache:\n  enabled: true\n  remote:\n    url: http://127.0.0.1:9\n    public_keys:\n      - " + agentKey + "\n"),
			want: []string{"gate-relaxed .gauntlet.yml:11"}},
		{name: "remote cache public key retired is honest", old: cfg(gauntletYML + remote("https://cache.example", ciKey, agentKey)),
			new: cfg(gauntletYML + remote("https://cache.example", agentKey))},
		// Another server can only hand out what the listed keys signed.
		{name: "remote cache pointed at a mirror is honest", old: cfg(gauntletYML + remote("https://cache.example", ciKey)),
			new: cfg(gauntletYML + remote("http://127.0.0.1:9", ciKey))},
		{name: "remote cache made to write is honest", old: cfg(gauntletYML + remote("https://cache.example", ciKey)),
			new: cfg(gauntletYML + "cache:\n  remote:\n    url: https://cache.example\n    public_keys: [" + ciKey + "]\n    write: true\n")},
		{name: "integrity raised is honest", old: cfg(gauntletYML + "integrity: warn\n"), new: cfg(gauntletYML + "integrity: block\n")},
	})
}

func TestLintConfigRules(t *testing.T) {
	runCases(t, []detectCase{
		{name: "golangci linter disabled", old: map[string]string{".golangci.yml": "linters:\n  enable: [errcheck, govet]\n"},
			new:  map[string]string{".golangci.yml": "linters:\n  enable: [govet]\n  disable: [errcheck]\n"},
			want: []string{"lint-relaxed .golangci.yml:2", "lint-relaxed .golangci.yml:3"}},
		{name: "golangci exclusion added", old: map[string]string{".golangci.yml": "version: \"2\"\nlinters:\n  default: standard\n"},
			new:  map[string]string{".golangci.yml": "version: \"2\"\nlinters:\n  default: standard\n  exclusions:\n    paths: [internal/legacy]\n"},
			want: []string{"lint-relaxed .golangci.yml:4"}},
		{name: "golangci v1 exclusions moved to v2 are no change",
			old: map[string]string{".golangci.yml": "issues:\n  exclude-dirs: [gen]\n"},
			new: map[string]string{".golangci.yml": "version: \"2\"\nlinters:\n  exclusions:\n    paths: [gen]\n"}},
		{name: "eslint rule off", old: map[string]string{".eslintrc.json": `{"rules": {"no-unused-vars": "error", "eqeqeq": ["error", "always"]}}`},
			new:  map[string]string{".eslintrc.json": "{\n  \"rules\": {\n    \"no-unused-vars\": \"off\",\n    \"eqeqeq\": [\"error\", \"always\"]\n  }\n}\n"},
			want: []string{"lint-relaxed .eslintrc.json:3"}},
		{name: "eslint reformatted and rule raised", old: map[string]string{".eslintrc.json": `{"rules": {"no-unused-vars": "warn"}}`},
			new: map[string]string{".eslintrc.yml": "rules:\n  no-unused-vars: error\n"}, renames: map[string]string{".eslintrc.json": ".eslintrc.yml"}},
		{name: "eslint flat config rule off", old: map[string]string{"eslint.config.js": "export default [{ rules: {\n  'no-console': 'error',\n} }]\n"},
			new:  map[string]string{"eslint.config.js": "export default [{ rules: {\n  'no-console': 'off',\n} }]\n"},
			want: []string{"lint-relaxed eslint.config.js:2"}},
		// A linter swapped for another is judged by what the new config checks.
		{name: "eslint replaced by oxlint that checks: a swap",
			old: map[string]string{".eslintrc.json": `{"extends": ["eslint:recommended"], "rules": {"no-console": "error"}}`},
			new: map[string]string{".oxlintrc.json": "{\n  \"categories\": {\"correctness\": \"error\"},\n  \"rules\": {\"no-console\": \"error\", \"no-debugger\": \"off\"}\n}\n"}},
		{name: "eslint replaced by an oxlint config that checks nothing",
			old:  map[string]string{".eslintrc.json": `{"rules": {"no-console": "error"}}`},
			new:  map[string]string{".oxlintrc.json": "{\n  \"rules\": {\"no-console\": \"off\"}\n}\n"},
			want: []string{"lint-relaxed .eslintrc.json:0"}},
		{name: "eslint flat config replaced by biome with its preset",
			old: map[string]string{"eslint.config.js": "export default [{ rules: {\n  'no-console': 'error',\n} }]\n"},
			new: map[string]string{"biome.json": "{\n  \"linter\": {\"enabled\": true, \"rules\": {\"recommended\": true, \"style\": {\"noParameterAssign\": \"off\"}}}\n}\n"}},
		{name: "eslintrc migrated to a flat config that turns off a preset's rule it did not check before",
			old: map[string]string{".eslintrc.json": `{"extends": ["eslint:recommended"], "rules": {"eqeqeq": "error"}}`},
			new: map[string]string{"eslint.config.js": "import js from '@eslint/js'\nexport default [js.configs.recommended, { rules: {\n  'eqeqeq': 'error',\n  'no-prototype-builtins': 'off',\n} }]\n"}},
		{name: "eslintrc migrated to a flat config that turns off a rule it checked",
			old:  map[string]string{".eslintrc.json": `{"extends": ["eslint:recommended"], "rules": {"eqeqeq": "error"}}`},
			new:  map[string]string{"eslint.config.js": "import js from '@eslint/js'\nexport default [js.configs.recommended, { rules: {\n  'eqeqeq': 'off',\n} }]\n"},
			want: []string{"lint-relaxed eslint.config.js:3"}},
		{name: "eslint preset swapped for another whose own rules the config turns off",
			old: map[string]string{".eslintrc": "{\n  \"extends\": [\"@nuxtjs/eslint-config-typescript\"],\n  \"rules\": {\"no-unused-expressions\": \"off\"}\n}\n"},
			new: map[string]string{".eslintrc": "{\n  \"extends\": [\"eslint-config-unjs\"],\n  \"rules\": {\n    \"unicorn/no-null\": 0,\n    \"unicorn/prevent-abbreviations\": 0\n  }\n}\n"}},
		{name: "eslint preset swapped for prettier's, which only turns rules off",
			old:  map[string]string{".eslintrc": `{"extends": ["eslint:recommended"]}`},
			new:  map[string]string{".eslintrc": "{\n  \"extends\": [\"prettier\"]\n}\n"},
			want: []string{"lint-relaxed .eslintrc:2"}},
		{name: "eslint preset swapped, a rule the old config checked turned off",
			old:  map[string]string{".eslintrc": `{"extends": ["a-config"], "rules": {"eqeqeq": "error"}}`},
			new:  map[string]string{".eslintrc": "{\n  \"extends\": [\"b-config\"],\n  \"rules\": {\n    \"eqeqeq\": \"off\"\n  }\n}\n"},
			want: []string{"lint-relaxed .eslintrc:4"}},
		{name: ".eslintignore naming node_modules, which eslint ignores anyway, and coverage reports",
			old: map[string]string{"README.md": "x\n"}, new: map[string]string{"README.md": "x\n", ".eslintignore": "node_modules\n/node_modules/\ncoverage\nsrc/legacy\n"},
			want: []string{"lint-relaxed .eslintignore:4"}},
		{name: "eslint config deleted, no linter after it",
			old:  map[string]string{".eslintrc.json": `{"rules": {"no-console": "error"}}`},
			new:  map[string]string{},
			want: []string{"lint-relaxed .eslintrc.json:0"}},
		{name: "tsconfig strict false", old: map[string]string{"tsconfig.json": "{\n  // comment\n  \"compilerOptions\": {\"strict\": true,},\n}\n"},
			new:  map[string]string{"tsconfig.json": "{\n  \"compilerOptions\": {\n    \"strict\": false\n  }\n}\n"},
			want: []string{"typecheck-relaxed tsconfig.json:3"}},
		{name: "tsconfig reformatted", old: map[string]string{"tsconfig.json": "{\"compilerOptions\": {\"strict\": true, \"noImplicitAny\": true}}"},
			new: map[string]string{"tsconfig.json": "{\n  // strict implies noImplicitAny\n  \"compilerOptions\": {\n    \"strict\": true,\n  },\n}\n"}},
		{name: "tsconfig noImplicitAny off under strict", old: map[string]string{"tsconfig.json": `{"compilerOptions": {"strict": true}}`},
			new:  map[string]string{"tsconfig.json": "{\"compilerOptions\": {\"strict\": true,\n \"noImplicitAny\": false}}"},
			want: []string{"typecheck-relaxed tsconfig.json:2"}},
		{name: "ruff ignore added", old: map[string]string{"pyproject.toml": "[tool.ruff.lint]\nselect = [\"E\", \"F\"]\n"},
			new:  map[string]string{"pyproject.toml": "[tool.ruff.lint]\nselect = [\"E\", \"F\"]\nignore = [\"F401\"]\n"},
			want: []string{"lint-relaxed pyproject.toml:3"}},
		{name: "ruff settings moved under lint are no change", old: map[string]string{"pyproject.toml": "[tool.ruff]\nignore = [\"E501\"]\n"},
			new: map[string]string{"pyproject.toml": "[tool.ruff.lint]\nignore = [\"E501\"]\n"}},
		{name: "mypy ignore_errors", old: map[string]string{"pyproject.toml": "[tool.mypy]\nstrict = true\n"},
			new:  map[string]string{"pyproject.toml": "[tool.mypy]\nstrict = true\n\n[[tool.mypy.overrides]]\nmodule = \"pkg.*\"\nignore_errors = true\n"},
			want: []string{"typecheck-relaxed pyproject.toml:6"}},
		{name: "flake8 ignore in setup.cfg", old: map[string]string{"setup.cfg": "[flake8]\nmax-line-length = 100\n"},
			new:  map[string]string{"setup.cfg": "[flake8]\nmax-line-length = 100\nextend-ignore = E203, W503\n"},
			want: []string{"lint-relaxed setup.cfg:1"}},
		{name: "cargo lint lowered", old: map[string]string{"Cargo.toml": "[package]\nname = \"x\"\n\n[lints.clippy]\nunwrap_used = \"deny\"\n"},
			new:  map[string]string{"Cargo.toml": "[package]\nname = \"x\"\n\n[lints.clippy]\nunwrap_used = \"allow\"\n"},
			want: []string{"lint-relaxed Cargo.toml:5"}},
		{name: "clippy threshold raised", old: map[string]string{"clippy.toml": "too-many-arguments-threshold = 7\n"},
			new:  map[string]string{"clippy.toml": "too-many-arguments-threshold = 12\n"},
			want: []string{"lint-relaxed clippy.toml:1"}},
	})
}

func TestScriptCoverageCIHookRules(t *testing.T) {
	pkg := func(test string) map[string]string {
		return map[string]string{"package.json": "{\n  \"name\": \"x\",\n  \"scripts\": {\n    \"test\": \"" + test + "\"\n  }\n}\n"}
	}
	claude := func(hooks string) map[string]string {
		return map[string]string{".claude/settings.json": `{"permissions": {}, "hooks": {` + hooks + `}}`}
	}
	const stopHook = `"Stop": [{"hooks": [{"type": "command", "command": "gauntlet stop-hook", "timeout": 600}]}]`
	runCases(t, []detectCase{
		{name: "test script replaced by exit 0", old: pkg("jest"), new: pkg("exit 0"), want: []string{"script-neutered package.json:4"}},
		{name: "test script changed honestly", old: pkg("jest"), new: pkg("jest --ci")},
		{name: "a gate's script neutered", old: map[string]string{"package.json": `{"scripts": {"verify:all": "tsc && jest"}}`},
			new: map[string]string{"package.json": `{"scripts": {"verify:all": "tsc && jest || true"}}`}, commands: []string{"npm run verify:all"},
			want: []string{"script-neutered package.json:1"}},
		{name: "make target neutered", old: map[string]string{"Makefile": "test:\n\tgo test ./...\n"},
			new: map[string]string{"Makefile": "test:\n\t@echo skipped\n"}, want: []string{"script-neutered Makefile:1"}},
		{name: "make target errors ignored", old: map[string]string{"Makefile": "lint:\n\tgolangci-lint run\n"},
			new: map[string]string{"Makefile": "lint:\n\t-golangci-lint run\n"}, want: []string{"script-neutered Makefile:1"}},
		{name: "coverage lowered in pyproject", old: map[string]string{"pyproject.toml": "[tool.pytest.ini_options]\naddopts = \"--cov=x --cov-fail-under=90\"\n"},
			new:  map[string]string{"pyproject.toml": "[tool.pytest.ini_options]\naddopts = \"--cov=x --cov-fail-under=70\"\n"},
			want: []string{"coverage-lowered pyproject.toml:2"}},
		{name: "jest threshold lowered", old: map[string]string{"package.json": `{"jest": {"coverageThreshold": {"global": {"lines": 90}}}}`},
			new:  map[string]string{"package.json": "{\"jest\": {\"coverageThreshold\": {\"global\": {\n\"lines\": 60}}}}"},
			want: []string{"coverage-lowered package.json:2"}},
		{name: "coverage reformatted", old: map[string]string{".coveragerc": "[report]\nfail_under = 80\n"},
			new: map[string]string{".coveragerc": "[report]\nshow_missing = true\nfail_under=80\n"}},
		{name: "CI test step removed", old: map[string]string{".github/workflows/ci.yml": "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: go test ./...\n"},
			new:  map[string]string{".github/workflows/ci.yml": "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"},
			want: []string{"ci-check-removed .github/workflows/ci.yml:3"}},
		{name: "CI step edited in place", old: map[string]string{".github/workflows/ci.yml": "jobs:\n  test:\n    steps:\n      - name: Test\n        run: go test ./...\n"},
			new: map[string]string{".github/workflows/ci.yml": "jobs:\n  test:\n    steps:\n      - name: Test\n        run: go test -race ./...\n"}},
		{name: "CI step moved to another workflow", old: map[string]string{".github/workflows/ci.yml": "jobs:\n  test:\n    steps:\n      - run: go test ./...\n", ".github/workflows/lint.yml": "jobs:\n  lint:\n    steps:\n      - run: go vet ./...\n"},
			new: map[string]string{".github/workflows/lint.yml": "jobs:\n  lint:\n    steps:\n      - run: go vet ./...\n      - run: go test ./...\n"}},
		{name: "CI step handed to a reusable workflow", old: map[string]string{".github/workflows/ci.yml": "jobs:\n  build:\n    steps:\n      - run: pnpm run test\n"},
			new: map[string]string{".github/workflows/ci.yml": "jobs:\n  scripts:\n    uses: org/automation/.github/workflows/run.yml@main\n    with:\n      commands: >\n        [\"build\", \"test\"]\n"}},
		{name: "a tool install step is no check", old: map[string]string{".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: go install x@latest\n"},
			new: map[string]string{".github/workflows/ci.yml": "jobs:\n  t:\n    steps: []\n"}},
		{name: "CI step allowed to fail", old: map[string]string{".github/workflows/ci.yml": "jobs:\n  test:\n    steps:\n      - run: go test ./...\n"},
			new:  map[string]string{".github/workflows/ci.yml": "jobs:\n  test:\n    continue-on-error: true\n    steps:\n      - run: go test ./...\n"},
			want: []string{"ci-check-removed .github/workflows/ci.yml:3"}},
		{name: "hook removed", old: claude(stopHook), new: claude(""), want: []string{"hook-weakened .claude/settings.json:1"}},
		{name: "hook file reformatted", old: claude(stopHook),
			new: map[string]string{".claude/settings.json": "{\n  \"permissions\": {},\n  \"hooks\": {\n    " + stopHook + "\n  }\n}\n"}},
		{name: "hooks disabled", old: claude(stopHook),
			new:  map[string]string{".claude/settings.json": "{\"disableAllHooks\": true, \"hooks\": {" + stopHook + "}}"},
			want: []string{"hook-weakened .claude/settings.json:1"}},
		{name: "hook command changed", old: claude(stopHook), new: claude(replace(stopHook, "gauntlet stop-hook", "gauntlet stop-hook || true")),
			want: []string{"hook-weakened .claude/settings.json:1"}},
		{name: "codex hook removed from config.toml", old: map[string]string{".codex/config.toml": "model = \"x\"\n\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"gauntlet stop-hook\"\n"},
			new:  map[string]string{".codex/config.toml": "model = \"x\"\n"},
			want: []string{"hook-weakened .codex/config.toml:1"}},
		{name: "cursor hook removed", old: map[string]string{".cursor/hooks.json": `{"version": 1, "hooks": {"stop": [{"command": "gauntlet stop-hook", "loop_limit": 5}]}}`},
			new:  map[string]string{".cursor/hooks.json": `{"version": 1, "hooks": {"stop": []}}`},
			want: []string{"hook-weakened .cursor/hooks.json:1"}},
	})
}

func TestApplyPolicy(t *testing.T) {
	found := []gates.IntegrityFinding{
		{Rule: gates.RuleTestSkipped, File: "a_test.go", Line: 3},
		{Rule: gates.RuleSuppressionAdded, File: "a.go", Line: 4},
	}
	levels := func(fs []gates.IntegrityFinding) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Rule+"="+string(f.Level))
		}
		return out
	}
	none := gates.IntegrityPolicy{}
	tests := []struct {
		name          string
		base, current gates.IntegrityPolicy
		hook          bool
		want          []string
	}{
		{"defaults in the hook block", none, none, true, []string{"test-skipped=block", "suppression-added=block"}},
		{"defaults in run warn", none, none, false, []string{"test-skipped=warn", "suppression-added=warn"}},
		{"off on the base and now", gates.IntegrityPolicy{Default: "off"}, gates.IntegrityPolicy{Default: "off"}, true, nil},
		{"per rule", gates.IntegrityPolicy{Rules: map[string]gates.IntegrityLevel{"suppression-added": "off"}},
			gates.IntegrityPolicy{Rules: map[string]gates.IntegrityLevel{"suppression-added": "off"}}, true, []string{"test-skipped=block"}},
		{"the change cannot lower its own bar", none, gates.IntegrityPolicy{Default: "off"}, true, []string{"test-skipped=block", "suppression-added=block"}},
		{"the change can raise it", none, gates.IntegrityPolicy{Default: "block"}, false, []string{"test-skipped=block", "suppression-added=block"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := levels(Apply(found, tt.base, tt.current, tt.hook)); !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// A whole-project command replaced by one on the change's files judges less than before: the
// finding says it was narrowed, not only changed.
func TestCommandNarrowedToFiles(t *testing.T) {
	old := map[string]string{".gauntlet.yml": "version: 1\ngates:\n  lint:\n    run: eslint .\n"}
	now := map[string]string{".gauntlet.yml": "version: 1\ngates:\n  lint:\n    run: eslint {files}\n"}
	found := Detect(changeOf(old, now, nil), Inputs{ConfigFile: ".gauntlet.yml"})
	if len(found) != 1 || found[0].Rule != gates.RuleGateRelaxed ||
		!strings.Contains(found[0].Message, "narrowed to the change's files ({files}): command changed from `eslint .` to `eslint {files}`") {
		t.Errorf("findings:\n%s", renderMessages(found))
	}
}
