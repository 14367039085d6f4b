package scaffold

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestDetectEachEcosystem(t *testing.T) {
	const nodeScripts = `{"scripts": {"lint": "eslint .", "typecheck": "tsc -b", "test": "vitest run", "build": "vite build", "dev": "vite"}}`
	tests := []struct {
		name  string
		files map[string]string
		label string
		want  map[string]string
	}{
		{"go", map[string]string{"go.mod": "module x\n"}, "Go",
			map[string]string{"fmt": gofmtCheck, "vet": "go vet ./...", "tidy": "go mod tidy -diff", "test": "go test ./..."}},
		{"npm", map[string]string{"package.json": nodeScripts, "package-lock.json": "{}"}, "Node with npm",
			map[string]string{"lint": "npm run lint", "typecheck": "npm run typecheck", "test": "npm run test", "build": "npm run build"}},
		{"npm without lock file", map[string]string{"package.json": `{"scripts": {"test": "jest"}}`}, "Node with npm",
			map[string]string{"test": "npm run test"}},
		{"pnpm", map[string]string{"package.json": nodeScripts, "pnpm-lock.yaml": ""}, "Node with pnpm",
			map[string]string{"lint": "pnpm run lint", "typecheck": "pnpm run typecheck", "test": "pnpm run test", "build": "pnpm run build"}},
		{"yarn", map[string]string{"package.json": nodeScripts, "yarn.lock": ""}, "Node with yarn",
			map[string]string{"lint": "yarn run lint", "typecheck": "yarn run typecheck", "test": "yarn run test", "build": "yarn run build"}},
		{"bun binary lock", map[string]string{"package.json": nodeScripts, "bun.lockb": ""}, "Node with bun",
			map[string]string{"lint": "bun run lint", "typecheck": "bun run typecheck", "test": "bun run test", "build": "bun run build"}},
		{"bun text lock", map[string]string{"package.json": `{"scripts": {"test": "bun test"}}`, "bun.lock": ""}, "Node with bun",
			map[string]string{"test": "bun run test"}},
		{"packageManager field", map[string]string{"package.json": `{"packageManager": "pnpm@9.1.0", "scripts": {"test": "x"}}`}, "Node with pnpm",
			map[string]string{"test": "pnpm run test"}},
		{"tsc script", map[string]string{"package.json": `{"scripts": {"tsc": "tsc"}}`, "yarn.lock": ""}, "Node with yarn",
			map[string]string{"typecheck": "yarn run tsc"}},
		{"typescript without a script", map[string]string{"package.json": `{"devDependencies": {"typescript": "^5"}}`, "tsconfig.json": "{}", "pnpm-lock.yaml": ""}, "Node with pnpm",
			map[string]string{"typecheck": "pnpm exec tsc --noEmit"}},
		{"npm init's failing test script", map[string]string{"package.json": `{"scripts": {"test": "echo \"Error: no test specified\" && exit 1"}}`}, "Node with npm",
			map[string]string{}},
		{"python requirements", map[string]string{"requirements-dev.txt": "pytest\n"}, "Python",
			map[string]string{"test": "python3 -m pytest"}},
		{"python with ruff and mypy in pyproject", map[string]string{"pyproject.toml": "[project]\nname='x'\n\n[tool.ruff.lint]\nselect=['E']\n[tool.mypy] # strict\nstrict=true\n"}, "Python",
			map[string]string{"lint": "ruff check --force-exclude {files}", "typecheck": "mypy .", "test": "python3 -m pytest"}},
		{"python with config files and uv", map[string]string{"pyproject.toml": "[project]\n", "ruff.toml": "", "mypy.ini": "", "uv.lock": ""}, "Python with uv",
			map[string]string{"lint": "uv run ruff check --force-exclude {files}", "typecheck": "uv run mypy .", "test": "uv run pytest"}},
		{"python with setup.cfg mypy and poetry", map[string]string{"pyproject.toml": "", "setup.cfg": "[metadata]\n[mypy]\n", "poetry.lock": ""}, "Python with Poetry",
			map[string]string{"typecheck": "poetry run mypy .", "test": "poetry run pytest"}},
		{"python without ruff or mypy", map[string]string{"pyproject.toml": "[tool.ruffian]\n# [tool.mypy]\n"}, "Python",
			map[string]string{"test": "python3 -m pytest"}},
		{"rust", map[string]string{"Cargo.toml": "[package]\n"}, "Rust",
			map[string]string{"fmt": "cargo fmt --check", "lint": "cargo clippy --all-targets -- -D warnings", "test": "cargo test"}},
		{"make", map[string]string{"Makefile": ".PHONY: test lint\nVAR := x\nOTHER ::= y\ntest lint: deps\n\tgo test ./...\ncheck:: \n\ttrue\nbuild:\n"}, "Make",
			map[string]string{"lint": "make lint", "check": "make check", "test": "make test"}},
		{"make without known targets", map[string]string{"Makefile": "build:\n\ttrue\ntest := 1\n"}, "", nil},
		{"nothing", map[string]string{"README.md": "hi"}, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			projects, err := Detect(writeTree(t, tt.files))
			if err != nil {
				t.Fatal(err)
			}
			if tt.label == "" {
				if len(projects) != 0 {
					t.Fatalf("detected %+v, want nothing", projects)
				}
				return
			}
			if len(projects) != 1 || projects[0].Label() != tt.label {
				t.Fatalf("detected %+v, want one %s project", projects, tt.label)
			}
			if got := gateCommands(projects); !maps.Equal(got, tt.want) {
				t.Errorf("gates = %v\nwant    %v", got, tt.want)
			}
		})
	}
}

func TestDetectGatesComeInCheckOrder(t *testing.T) {
	projects, err := Detect(writeTree(t, map[string]string{
		"package.json": `{"scripts": {"build": "b", "test": "t", "typecheck": "c", "lint": "l"}}`,
	}))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, g := range Layout(projects) {
		names = append(names, g.Name)
	}
	if want := []string{"lint", "typecheck", "test", "build"}; !slices.Equal(names, want) {
		t.Errorf("order = %v, want %v", names, want)
	}
}

func TestDetectMixedRepository(t *testing.T) {
	root := writeTree(t, map[string]string{
		"Makefile":                      "test:\n\ttrue\n",
		"api/go.mod":                    "module api\n",
		"web/package.json":              `{"scripts": {"lint": "eslint ."}}`,
		"web/yarn.lock":                 "",
		"node_modules/dep/package.json": `{"scripts": {"test": "x"}}`,
		"vendor/lib/go.mod":             "module lib\n",
		".hidden/Cargo.toml":            "",
		"deep/er/go.mod":                "module deep\n",
		"notes.txt/go.mod":              "module notes\n", // a folder with a dotted name is still a folder
	})
	projects, err := Detect(root)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, p := range projects {
		labels = append(labels, p.Label())
	}
	if want := []string{"Make", "Go (api)", "Go (notes.txt)", "Node with yarn (web)"}; !slices.Equal(labels, want) {
		t.Errorf("projects = %v, want %v", labels, want)
	}
	gates := Layout(projects)
	byName := map[string]Gate{}
	for _, g := range gates {
		byName[g.Name] = g
	}
	web, ok := byName["web-lint"]
	if !ok {
		t.Fatalf("no web-lint gate in %v", gateCommands(projects))
	}
	if web.Dir != "web" || !slices.Equal(web.Paths, []string{"web/**"}) || web.Run != "yarn run lint" {
		t.Errorf("web-lint = %+v", web)
	}
	// The root's gates run from the root, on any change outside the other projects' folders.
	// The Go modules declare no checks while the others do: their defaults are named.
	if root := byName["test"]; root.Dir != "" || !slices.Equal(root.Paths, []string{"**"}) ||
		!slices.Equal(root.Exclude, []string{"web/**"}) || root.Run != "make test" {
		t.Errorf("root test gate = %+v, want make test from the root, the sub-projects excluded", root)
	}
	if notes := allNotes(projects); !strings.Contains(notes, "`go test ./...`") || !strings.Contains(notes, "api and notes.txt") {
		t.Errorf("notes do not name notes.txt's defaults:\n%s", notes)
	}
}

func TestMakefileBesideALanguageBecomesANote(t *testing.T) {
	projects, err := Detect(writeTree(t, map[string]string{
		"go.mod":   "module x\n",
		"Makefile": "test:\n\tgo test ./...\nlint:\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if len(projects) != 1 || projects[0].Kind != "Go" {
		t.Fatalf("projects = %+v, want the Go project only", projects)
	}
	// The test target's go test became the test gate; the lint target runs nothing gauntlet
	// recognises, so it is named for a person to judge.
	if len(projects[0].Notes) != 1 || !containsAll(projects[0].Notes[0], "`make lint`") || strings.Contains(projects[0].Notes[0], "make test") {
		t.Errorf("notes = %q, want one naming make lint only", projects[0].Notes)
	}
	for _, g := range projects[0].Gates {
		if g.Name == "test" && g.Source != "from Makefile, target test" {
			t.Errorf("test gate source = %q, want the Makefile's test target", g.Source)
		}
	}
}

func TestMakefileBesideAProjectWithoutGatesIsUsed(t *testing.T) {
	projects, err := Detect(writeTree(t, map[string]string{
		"package.json": `{"scripts": {"start": "node ."}}`,
		"Makefile":     "check:\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if got := gateCommands(projects); !maps.Equal(got, map[string]string{"check": "make check"}) {
		t.Errorf("gates = %v, want the Makefile's check", got)
	}
}

func TestBrokenPackageJSONIsANoteNotAFailure(t *testing.T) {
	projects, err := Detect(writeTree(t, map[string]string{"package.json": "{not json"}))
	if err != nil {
		t.Fatal(err)
	}
	if len(projects) != 1 || len(projects[0].Gates) != 0 || len(projects[0].Notes) != 1 {
		t.Fatalf("projects = %+v, want a Node project with a note and no gates", projects)
	}
}

func TestDetectMissingRootIsAnError(t *testing.T) {
	if _, err := Detect(t.TempDir() + "/missing"); err == nil {
		t.Error("Detect of a missing directory succeeded")
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
