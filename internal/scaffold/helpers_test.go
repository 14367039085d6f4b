package scaffold

import (
	"os"
	"path/filepath"
	"testing"
)

// writeTree creates files (path -> content) under a new temporary directory and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// gateCommands maps each laid-out gate's name to its command, for compact assertions.
func gateCommands(projects []Project) map[string]string {
	out := map[string]string{}
	for _, g := range Layout(projects) {
		out[g.Name] = g.Run
	}
	return out
}
