package scaffold

import (
	"strings"
	"testing"
)

// gateCaches maps each laid-out gate's name to "command # cache note" ("command" alone without one).
func gateCaches(t *testing.T, files map[string]string) map[string]string {
	t.Helper()
	projects, err := Detect(writeTree(t, files))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, g := range Layout(projects) {
		out[g.Name] = g.Run
		if g.CacheNote != "" {
			out[g.Name] += " # " + g.CacheNote
		}
	}
	return out
}

func TestToolCaches(t *testing.T) {
	const (
		ignored   = "node_modules/\ndist\n"
		eslintCfg = "import js from '@eslint/js';\nexport default [js.configs.recommended];\n"
		eslintOn  = " --cache --cache-location node_modules/.cache/eslint/ # " + noteEslintCache
		tscOn     = " --incremental --tsBuildInfoFile node_modules/.cache/tsc/tsbuildinfo # " + noteTscCache
	)
	ci := func(run string) string {
		return "jobs:\n  t:\n    steps:\n      - run: " + run + "\n"
	}
	tests := []struct {
		name  string
		files map[string]string
		want  map[string]string // a subset of the gates
	}{
		{"package scripts of one eslint and one tsc command get their caches through npm",
			map[string]string{".gitignore": ignored, "eslint.config.js": eslintCfg, "package-lock.json": "{}",
				"package.json": `{"scripts": {"lint": "eslint .", "types": "tsc --noEmit"}}`},
			map[string]string{"lint": "npm run lint --" + eslintOn, "typecheck": "npm run types --" + tscOn}},
		{"pnpm hands the flags on without a --",
			map[string]string{".gitignore": "/node_modules\n", "eslint.config.mjs": eslintCfg, "pnpm-lock.yaml": "",
				"package.json": `{"scripts": {"lint": "eslint --max-warnings 0 src"}}`},
			map[string]string{"lint": "pnpm run lint" + eslintOn}},
		{"without node_modules in .gitignore the commands stay as they are",
			map[string]string{".gitignore": "dist\n", "eslint.config.js": eslintCfg,
				"package.json": `{"scripts": {"lint": "eslint .", "typecheck": "tsc --noEmit"}}`},
			map[string]string{"lint": "npm run lint", "typecheck": "npm run typecheck"}},
		{"a negated node_modules is not ignored",
			map[string]string{".gitignore": "node_modules\n!node_modules/\n", "eslint.config.js": eslintCfg,
				"package.json": `{"scripts": {"lint": "eslint ."}}`},
			map[string]string{"lint": "npm run lint"}},
		{"a chain of commands in a script is left alone: appended flags would reach only the last",
			map[string]string{".gitignore": ignored, "eslint.config.js": eslintCfg,
				"package.json": `{"scripts": {"lint": "eslint . && prettier --check .", "typecheck": "tsc --noEmit -- x"}}`},
			map[string]string{"lint": "npm run lint", "typecheck": "npm run typecheck"}},
		{"a cache the command has already",
			map[string]string{".gitignore": ignored, "eslint.config.js": eslintCfg,
				"package.json": `{"scripts": {"lint": "eslint --cache .", "typecheck": "tsc -b"}}`},
			map[string]string{"lint": "npm run lint", "typecheck": "npm run typecheck"}},
		{"tsconfig sets incremental or composite, through extends and with comments",
			map[string]string{".gitignore": ignored,
				"tsconfig.json":      "{\n  // the base has it\n  \"extends\": \"./tsconfig.base.json\",\n  \"compilerOptions\": {\"strict\": true,},\n}\n",
				"tsconfig.base.json": `{"compilerOptions": {"composite": true}}`,
				"package.json":       `{"scripts": {"typecheck": "tsc --noEmit"}}`},
			map[string]string{"typecheck": "npm run typecheck"}},
		{"incremental: false is the project's choice",
			map[string]string{".gitignore": ignored, "tsconfig.json": `{"compilerOptions": {"incremental": false}}`,
				"package.json": `{"scripts": {"typecheck": "tsc --noEmit"}}`},
			map[string]string{"typecheck": "npm run typecheck"}},
		{"a tsconfig that names its build info file keeps it",
			map[string]string{".gitignore": ignored, "tsconfig.app.json": `{"compilerOptions": {"tsBuildInfoFile": "./node_modules/.tmp/app.tsbuildinfo"}}`,
				"package.json": `{"scripts": {"typecheck": "tsc -p tsconfig.app.json --noEmit"}}`},
			map[string]string{"typecheck": "npm run typecheck -- --incremental # " + noteTscCache}},
		{"two tsc projects in one gate get a build info file each",
			map[string]string{".gitignore": ignored, "pnpm-lock.yaml": "", "package.json": `{"devDependencies": {"typescript": "5"}}`,
				".github/workflows/ci.yml": ci("pnpm exec tsc -p tsconfig.app.json --noEmit && pnpm exec tsc -p ./tsconfig.node.json --noEmit")},
			map[string]string{"typecheck": "pnpm exec tsc -p tsconfig.app.json --noEmit --incremental --tsBuildInfoFile node_modules/.cache/tsc/tsconfig-app.tsbuildinfo && " +
				"pnpm exec tsc -p ./tsconfig.node.json --noEmit --incremental --tsBuildInfoFile node_modules/.cache/tsc/tsconfig-node.tsbuildinfo # " + noteTscCache}},
		{"gauntlet's own tsc default",
			map[string]string{".gitignore": ignored, "tsconfig.json": "{}", "package.json": `{"devDependencies": {"typescript": "5"}}`},
			map[string]string{"typecheck": "npx tsc --noEmit" + tscOn}},
		{"vue-tsc is left alone: its incremental mode has missed errors in .vue files",
			map[string]string{".gitignore": ignored, "package.json": `{"scripts": {"typecheck": "vue-tsc --noEmit"}}`},
			map[string]string{"typecheck": "npm run typecheck"}},
		{"typed linting keeps eslint's cache off, and says why",
			map[string]string{".gitignore": ignored, "package.json": `{"scripts": {"lint": "eslint ."}}`,
				"eslint.config.js": "export default tseslint.config({languageOptions: {parserOptions: {projectService: true}}});\n"},
			map[string]string{"lint": "npm run lint # " + noteEslintTyped}},
		{"import plugin rules read other files",
			map[string]string{".gitignore": ignored, "package.json": `{"scripts": {"lint": "eslint ."}}`,
				".eslintrc.json": `{"extends": ["eslint:recommended", "plugin:import/recommended"]}`},
			map[string]string{"lint": "npm run lint # " + noteEslintTyped}},
		{"a typed shared config among the dependencies",
			map[string]string{".gitignore": ignored, ".eslintrc.js": "module.exports = {extends: ['standard']};\n",
				"package.json": `{"scripts": {"lint": "eslint ."}, "devDependencies": {"eslint-config-standard-with-typescript": "1"}}`},
			map[string]string{"lint": "npm run lint # " + noteEslintTyped}},
		{"no eslint config found: the cache stays off",
			map[string]string{".gitignore": ignored, "package.json": `{"scripts": {"lint": "eslint ."}}`},
			map[string]string{"lint": "npm run lint"}},
		{"a sub-project's node_modules, its config at the root, eslint run directly",
			map[string]string{".gitignore": "**/node_modules/\n", "eslint.config.js": eslintCfg,
				"web/package.json": `{"devDependencies": {"eslint": "9"}}`, "web/yarn.lock": "",
				".github/workflows/ci.yml": "jobs:\n  t:\n    defaults:\n      run:\n        working-directory: web\n    steps:\n      - run: npx eslint --fix src\n"},
			map[string]string{"web-lint": "yarn eslint src" + eslintOn}},
		{"an anchored pattern covers only the root's node_modules",
			map[string]string{".gitignore": "/node_modules\n", "eslint.config.js": eslintCfg,
				"web/package.json": `{"scripts": {"lint": "eslint ."}}`},
			map[string]string{"web-lint": "npm run lint"}},
		{"go test: -count=1 goes, in every spelling",
			map[string]string{"go.mod": "module x\n", ".github/workflows/ci.yml": ci("go test -race -count=1 ./...")},
			map[string]string{"test": "go test -race ./... # " + noteGoCount}},
		{"go test -count 1 -args -count=1 keeps the test binary's arguments",
			map[string]string{"go.mod": "module x\n", ".github/workflows/ci.yml": ci("go test -count 1 ./... -args -count=1")},
			map[string]string{"test": "go test ./... -args -count=1 # " + noteGoCount}},
		{"go test -count=3 is asked for: it stays",
			map[string]string{"go.mod": "module x\n", ".github/workflows/ci.yml": ci("go test -count=3 ./...")},
			map[string]string{"test": "go test -count=3 ./..."}},
		{"ruff --no-cache and mypy --no-incremental go, behind uv run",
			map[string]string{"pyproject.toml": "[project]\nname='x'\n", "uv.lock": "",
				".github/workflows/ci.yml": ci("uv run ruff check --no-cache src && uv run mypy --no-incremental --cache-dir /dev/null src")},
			map[string]string{"lint": "uv run ruff check src # " + noteRuffNoCache, "typecheck": "uv run mypy src # " + noteMypyNoIncrem}},
		{"cargo's cache is on already: nothing to change",
			map[string]string{"Cargo.toml": "[package]\nname='x'\n", ".github/workflows/ci.yml": ci("cargo test --workspace")},
			map[string]string{"test": "cargo test --workspace"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := gateCaches(t, tt.files)
			for name, want := range tt.want {
				if got[name] != want {
					t.Errorf("gate %s:\n got %q\nwant %q\n(all: %q)", name, got[name], want, got)
				}
			}
		})
	}
}

func TestToolCacheNotesAreWrittenAsComments(t *testing.T) {
	projects, err := Detect(writeTree(t, map[string]string{"go.mod": "module x\n",
		".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: go test -count=1 ./...\n"}))
	if err != nil {
		t.Fatal(err)
	}
	out := string(Render(projects))
	if !strings.Contains(out, "  # from .github/workflows/ci.yml, job t\n  # -count=1 left out: Go's test cache reruns only the packages an edit can affect") ||
		!strings.Contains(out, "    run: go test ./...\n") {
		t.Errorf("rendered config lacks the note or the changed command:\n%s", out)
	}
}
