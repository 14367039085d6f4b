package findings

import (
	"os"
	"path/filepath"
	"testing"
)

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// turbo's "pkg:task: " prefix and nx's "> nx run pkg:task" put a finding under the folder of the
// workspace package of that name; a line of no task, or of a name the workspace does not list,
// is read as it always was.
func TestWorkspaceTaskPrefixes(t *testing.T) {
	tests := []struct {
		name     string
		manifest map[string]string
	}{
		{"pnpm-workspace.yaml", map[string]string{"pnpm-workspace.yaml": "packages:\n  - 'packages/*'\n  - apps/**\n  - '!packages/skip'\n"}},
		{"package.json workspaces", map[string]string{"package.json": `{"name":"root","workspaces":["packages/*","apps/*"]}`}},
		{"package.json workspaces.packages", map[string]string{"package.json": `{"workspaces":{"packages":["packages/*","apps/*"]}}`}},
	}
	out := "web:lint: src/x.ts:4:5: error Unexpected any [no-explicit-any]\n" +
		"@acme/ui:typecheck: src/button.tsx(3,1): error TS2322: Type 'number' is not assignable to type 'string'.\n" +
		"> nx run docs:lint\n" +
		"src/y.ts:1:2: error boom\n" +
		" >  NX   Ran target lint for 2 projects\n" +
		"src/a.ts:7:1: error at the root\n" +
		"api:lint: src/z.ts:1:1: error not a workspace package\n"
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, tc.manifest)
			writeFiles(t, root, map[string]string{
				"packages/web/package.json": `{"name":"web"}`,
				"packages/ui/package.json":  `{"name":"@acme/ui"}`,
				"apps/docs/package.json":    `{"name":"docs"}`,
			})
			got := filesOf(readAll(mustParse(t, "generic"), Options{Root: root}, []byte(out)))
			// The line of a package the workspace does not list yields what it always did.
			want := "packages/web/src/x.ts , packages/ui/src/button.tsx TS2322, apps/docs/src/y.ts , src/a.ts "
			if got != want {
				t.Errorf("files\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// Outside a workspace, a line that looks like a prefix ("main.c:4: ...") is read as it is.
func TestWorkspaceTaskPrefixNeedsAWorkspace(t *testing.T) {
	root := t.TempDir()
	got := filesOf(readAll(mustParse(t, "generic"), Options{Root: root}, []byte("web:lint: src/x.ts:4:5: error any\nmain.c:4: error: boom\n")))
	if got != "main.c " {
		t.Errorf("files %q", got)
	}
}
