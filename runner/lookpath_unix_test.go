//go:build unix

package runner

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestLookPath(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, mode := range map[string]os.FileMode{"tool": 0o755, "plain": 0o644} {
		if err := os.WriteFile(filepath.Join(bin, name), nil, mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(bin, "subdir"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, cmd string
		env       []string
		want      string
	}{
		{"in PATH", "tool", []string{"PATH=/nonexistent:" + bin}, filepath.Join(bin, "tool")},
		{"last PATH wins", "tool", []string{"PATH=" + bin, "PATH=/nonexistent"}, ""},
		{"relative PATH entry from dir", "tool", []string{"PATH=bin"}, filepath.Join(dir, "bin", "tool")},
		{"not executable", "plain", []string{"PATH=" + bin}, ""},
		{"directory", "subdir", []string{"PATH=" + bin}, ""},
		{"slash is not looked up", "./anything", nil, "./anything"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := lookPath(tc.cmd, dir, tc.env)
			if tc.want == "" {
				if !errors.Is(err, exec.ErrNotFound) {
					t.Errorf("got %q %v, want not found", got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("got %q %v, want %q", got, err, tc.want)
			}
		})
	}
}
