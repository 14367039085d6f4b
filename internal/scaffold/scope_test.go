package scaffold

import (
	"slices"
	"testing"
)

func layoutOf(t *testing.T, files map[string]string) map[string]Gate {
	t.Helper()
	projects, err := Detect(writeTree(t, files))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Gate{}
	for _, g := range Layout(projects) {
		out[g.Name] = g
	}
	return out
}

// A web/ app of a root pnpm workspace whose root has no check scripts: web/ keeps its own gates,
// which also run when the shared root files change; the Go root's gates exclude web/.
func TestScopeSharedRootFiles(t *testing.T) {
	gates := layoutOf(t, map[string]string{
		"go.mod":                   "module x\n",
		"go.sum":                   "",
		"package.json":             `{"private": true}`,
		"pnpm-lock.yaml":           "",
		"pnpm-workspace.yaml":      "packages: [web]\n",
		"web/package.json":         `{"scripts": {"lint": "eslint ."}}`,
		"web/tsconfig.json":        "{}",
		".github/workflows/ci.yml": "jobs:\n  go:\n    steps:\n      - run: go test ./...\n",
	})
	web, ok := gates["web-lint"]
	if !ok {
		t.Fatalf("no web-lint in %v", gates)
	}
	if want := []string{"web/**", "package.json", "pnpm-lock.yaml", "pnpm-workspace.yaml"}; !slices.Equal(web.Paths, want) || web.Run != "pnpm run lint" {
		t.Errorf("web-lint = %+v, want paths %v and pnpm", web, want)
	}
	test := gates["test"]
	if !slices.Equal(test.Paths, []string{"**/*.go", "go.mod", "go.sum", "**/testdata/**"}) || !slices.Equal(test.Exclude, []string{"web/**"}) {
		t.Errorf("test = %+v, want the Go files without web/", test)
	}
}

// A root whose scripts check the whole workspace covers its members: no gates of their own.
func TestScopeWorkspaceCoveredByRootScripts(t *testing.T) {
	gates := layoutOf(t, map[string]string{
		"package.json":        `{"scripts": {"test": "pnpm -r test"}}`,
		"pnpm-lock.yaml":      "",
		"pnpm-workspace.yaml": "packages: [app, lib]\n",
		"app/package.json":    `{"scripts": {"test": "vitest run"}}`,
		"lib/package.json":    `{"scripts": {"test": "vitest run"}}`,
	})
	if len(gates) != 1 || gates["test"].Run != "pnpm run test" || gates["test"].Paths != nil {
		t.Errorf("gates = %+v, want the root's test alone, unscoped", gates)
	}
}

// A single project is scoped where its gates' inputs are plain: a Go module's gates that run only
// Go's tools take the Go files (a change to the README runs none of them), a gate that runs
// anything else (make) none; a Cargo workspace's gates take its Rust files.
func TestScopeSingleProjects(t *testing.T) {
	goFiles := []string{"**/*.go", "go.mod", "go.sum", "**/testdata/**"}
	if g := layoutOf(t, map[string]string{"go.mod": "module x\n", "go.sum": ""})["test"]; !slices.Equal(g.Paths, goFiles) || g.Exclude != nil {
		t.Errorf("single Go module: %+v, want paths %v", g, goFiles)
	}
	if g := layoutOf(t, map[string]string{"go.mod": "module x\n", "go.sum": ""})["fmt"]; !slices.Equal(g.Paths, goFiles) {
		t.Errorf("single Go module's fmt: %+v, want paths %v", g, goFiles)
	}
	// A module whose tests run through a script: its inputs are the script's business.
	scripted := layoutOf(t, map[string]string{"go.mod": "module x\n", ".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: go vet ./... && go test ./... | tee out.txt\n"})
	if g := scripted["vet"]; !slices.Equal(g.Paths, goFiles) {
		t.Errorf("vet: %+v, want the Go files", g)
	}
	g := layoutOf(t, map[string]string{"Cargo.toml": "[workspace]\nmembers = [\"a\"]\n", "a/Cargo.toml": "[package]\nname='a'\n", "rustfmt.toml": ""})
	if len(g) != 3 || !slices.Equal(g["test"].Paths, []string{"**/*.rs", "**/Cargo.toml", "Cargo.lock", "rustfmt.toml"}) || g["test"].Run != "cargo test --workspace" {
		t.Errorf("cargo workspace: %+v, want 3 gates over the Rust files", g)
	}
}
