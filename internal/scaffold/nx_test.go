package scaffold

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// nxWorkspaceDoc is an nx workspace written from nx's documentation (nx.dev: "Run Tasks",
// "project.json", "Project Configuration" in package.json, nx.json's targetDefaults): projects
// declared by project.json and by package.json's "nx" key, targets from both and from scripts,
// targetDefaults whose test depends on build, and CI steps in each of nx's command forms.
func nxWorkspaceDoc() map[string]string {
	return map[string]string{
		"package.json": `{"name": "acme", "private": true, "workspaces": ["apps/*", "libs/*"],
 "scripts": {"build": "nx run-many -t build", "lint:www": "nx run www:lint"},
 "devDependencies": {"nx": "20.1.0"}}`,
		"package-lock.json": "{}",
		"nx.json": `{
  "$schema": "./node_modules/nx/schemas/nx-schema.json",
  "defaultBase": "main",
  "targetDefaults": {
    "build": {"dependsOn": ["^build"], "cache": true},
    "test": {"dependsOn": ["build"], "cache": true},
    "lint": {"cache": true}
  }
}`,
		"apps/www/project.json": `{"name": "www", "$schema": "../../node_modules/nx/schemas/project-schema.json",
 "sourceRoot": "apps/www/src", "projectType": "application",
 "targets": {"build": {"executor": "@nx/next:build"}, "lint": {"executor": "@nx/eslint:lint"},
   "test": {"executor": "@nx/jest:jest", "options": {"jestConfig": "apps/www/jest.config.ts"}}}}`,
		"libs/api/package.json": `{"name": "api", "scripts": {"test": "jest"},
 "nx": {"targets": {"lint": {"executor": "@nx/eslint:lint"}}}}`,
		"apps/docs/project.json": `{"name": "docs-site", "targets": {"build": {"executor": "nx:run-commands", "options": {"command": "mkdocs build"}}}}`,
		".github/workflows/ci.yml": `on: [push, pull_request]
jobs:
  main:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with: {fetch-depth: 0}
      - run: npm ci
      - uses: nrwl/nx-set-shas@v4
      - run: npx nx lint api
      - run: npx nx run-many -t lint test --projects=www,api
      - run: npx nx affected -t test --parallel=3
`,
	}
}

// Each nx command the project runs is a gate of the projects nx runs it in: named ones
// (run www:lint, lint api, --projects), or every project with the target (affected, run-many
// without projects); it needs the build only where nx.json's targetDefaults say the target
// depends on one.
func TestNxTasksAttributedToTheirProjects(t *testing.T) {
	projects := detectTree(t, nxWorkspaceDoc())
	for _, want := range []struct {
		name, run string
		paths     []string
		needs     []string
	}{
		{"www-lint", "npm run lint:www", []string{"apps/www/**"}, nil},
		{"api-lint", "npx nx lint api", []string{"libs/api/**"}, nil},
		{"www-api-lint-test", "npx nx run-many -t lint test --projects=www,api", []string{"apps/www/**", "libs/api/**"}, []string{"build"}},
		{"affected-test", "npx nx affected -t test --parallel=3", []string{"apps/www/**", "libs/api/**"}, []string{"build"}},
	} {
		g, ok := gateByName(projects, want.name)
		if !ok {
			t.Errorf("no gate %s: %v", want.name, gateCommands(projects))
			continue
		}
		if g.Run != want.run || !slices.Equal(g.Paths, want.paths) || !slices.Equal(g.Needs, want.needs) {
			t.Errorf("%s = run %q paths %q needs %q, want %q %q %q", want.name, g.Run, g.Paths, g.Needs, want.run, want.paths, want.needs)
		}
	}
}

// The honest twin: without a dependsOn that names a build, an nx gate waits for nothing, even
// when the workspace has a build gate.
func TestNxNoDependsOnNoNeeds(t *testing.T) {
	files := nxWorkspaceDoc()
	files["nx.json"] = `{"targetDefaults": {"build": {"cache": true}}}`
	projects := detectTree(t, files)
	for _, name := range []string{"www-api-lint-test", "affected-test"} {
		if g, ok := gateByName(projects, name); !ok || len(g.Needs) != 0 {
			t.Errorf("%s = %+v (found %v): no dependsOn declared, so no needs", name, g, ok)
		}
	}
}

// nx's command forms, as its docs give them (a bare target runs in the default project); nx's
// own commands (format:check, graph) are no project's target.
func TestParseNx(t *testing.T) {
	for line, want := range map[string]*nxTask{
		"run www:lint":                       {targets: []string{"lint"}, projects: []string{"www"}},
		"run www:build:production --verbose": {targets: []string{"build"}, projects: []string{"www"}},
		"www:test":                           {targets: []string{"test"}, projects: []string{"www"}},
		"lint www":                           {targets: []string{"lint"}, projects: []string{"www"}},
		"run-many -t lint test -p www api":   {targets: []string{"lint", "test"}, projects: []string{"www", "api"}},
		"run-many --targets=lint,test --all": {targets: []string{"lint", "test"}},
		"affected --target=test --base=main": {targets: []string{"test"}, affected: true},
		"affected -t e2e --parallel 3":       {targets: []string{"e2e"}, affected: true},
		"format:check":                       nil,
		"graph":                              nil,
		"lint":                               {targets: []string{"lint"}, defaultProject: true},
		"run-many --projects=www":            nil,
		"--version":                          nil,
	} {
		got, ok := parseNx(strings.Fields(line))
		if want == nil {
			if ok {
				t.Errorf("nx %s = %+v, want no task", line, got)
			}
			continue
		}
		if !ok || !slices.Equal(got.targets, want.targets) || !slices.Equal(got.projects, want.projects) || got.affected != want.affected || got.defaultProject != want.defaultProject {
			t.Errorf("nx %s = %+v (%v), want %+v", line, got, ok, *want)
		}
	}
}

// A project the workspace does not have makes no gate.
func TestNxUnknownProjectNoGate(t *testing.T) {
	files := nxWorkspaceDoc()
	files[".github/workflows/ci.yml"] = "jobs:\n  m:\n    steps:\n      - run: npx nx run admin:lint\n      - run: npx nx format:check\n"
	for name, run := range gateCommands(detectTree(t, files)) {
		if strings.Contains(run, "admin") || strings.Contains(name, "format-check") {
			t.Errorf("gate %s: %q names no project of the workspace", name, run)
		}
	}
}

// Only nx tasks that check are gates: serving, deploying, building or fixing through nx is not.
func TestNxTasksThatDoNotCheckAreNoGates(t *testing.T) {
	files := nxWorkspaceDoc()
	files["package.json"] = `{"name": "acme", "private": true, "workspaces": ["apps/*", "libs/*"],
 "scripts": {"lint:fix": "nx run-many -t lint --fix", "start": "nx serve www", "deploy:www": "nx run www:deploy"},
 "devDependencies": {"nx": "20.1.0"}}`
	files[".github/workflows/ci.yml"] = "jobs:\n  m:\n    steps:\n      - run: npx nx affected -t build\n" +
		"      - run: npx nx run-many -t lint --fix --projects=www\n      - run: npx nx run www:typecheck\n"
	got := gateCommands(detectTree(t, files))
	for name, run := range got {
		if strings.Contains(run, "nx") && name != "www-typecheck" || strings.Contains(run, "lint:fix") || strings.Contains(run, "start") {
			t.Errorf("gate %s: %q checks nothing", name, run)
		}
	}
	if got["www-typecheck"] != "npx nx run www:typecheck" {
		t.Errorf("www-typecheck = %q, want CI's nx run www:typecheck (gates: %v)", got["www-typecheck"], got)
	}
}

// A package script gate that runs nx waits for the build only where nx.json declares that its
// targets depend on one (as nx-examples' `"lint": "nx workspace-lint && nx lint"` beside
// `"build": "nx build"`, with empty targetDefaults); nx's own format:check builds nothing.
// Without an nx.json to say, nx is taken to build, as turbo is without a turbo.json.
func TestNxScriptGatesNeedTheBuildOnlyWhereDeclared(t *testing.T) {
	files := map[string]string{
		"package.json": `{"name": "x", "private": true, "scripts": {"build": "nx build", "test": "nx test",
 "lint": "nx workspace-lint && nx lint", "format:check": "nx format:check", "format": "nx format:write"},
 "devDependencies": {"nx": "20.1.0"}}`,
		"yarn.lock": "",
		"nx.json":   `{"targetDefaults": {"test": {"dependsOn": ["^build"]}}}`,
	}
	projects := detectTree(t, files)
	for name, want := range map[string][]string{"lint": nil, "fmt": nil, "test": {"build"}} {
		g, ok := gateByName(projects, name)
		if !ok || !slices.Equal(g.Needs, want) {
			t.Errorf("%s = %+v (found %v), want needs %q", name, g, ok, want)
		}
	}
	delete(files, "nx.json")
	if g, _ := gateByName(detectTree(t, files), "lint"); !slices.Equal(g.Needs, []string{"build"}) {
		t.Errorf("without nx.json lint needs %q, want build: nothing says nx does not build first", g.Needs)
	}
}

// The walk for project.json files stops after maxNxWalk entries, as the size walk does: a
// workspace with a huge source tree above the depth bound is not walked whole by `init`.
func TestNxWalkIsBounded(t *testing.T) {
	saved := maxNxWalk
	maxNxWalk = 50
	t.Cleanup(func() { maxNxWalk = saved })
	files := map[string]string{"zzz/project.json": `{"name": "late", "targets": {"test": {}}}`}
	for i := range 100 {
		files[fmt.Sprintf("aaa/f%03d.ts", i)] = ""
	}
	root := writeTree(t, files)
	if ws := readNxWorkspace(root); ws.projects["late"] != nil {
		t.Errorf("the walk read past %d entries: projects %v", maxNxWalk, slices.Collect(maps.Keys(ws.projects)))
	}
	maxNxWalk = 1000
	if ws := readNxWorkspace(root); ws.projects["late"] == nil {
		t.Errorf("within the bound the project is found: projects %v", slices.Collect(maps.Keys(ws.projects)))
	}
}
