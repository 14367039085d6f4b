package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteCreatesFileAndParents(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "f.json")
	if err := Write(path, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	assertFile(t, path, "new", 0o644)
}

func TestWriteKeepsTheModeOfAnExistingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	assertFile(t, path, "new", 0o640)
}

func TestWriteReplacesTheTargetOfASymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	link := filepath.Join(dir, "link")
	if err := os.WriteFile(real, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real", link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("link is no longer a symlink: %v %v", info, err)
	}
	assertFile(t, real, "new", 0o600)
}

func TestWriteLeavesNoTemporaryFiles(t *testing.T) {
	dir := t.TempDir()
	if err := Write(filepath.Join(dir, "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The temporary file exists by the time the rename fails: it must be removed, and the old
	// contents kept.
	rename = func(string, string) error { return errors.New("disk on fire") }
	defer func() { rename = os.Rename }()
	if err := Write(filepath.Join(dir, "f"), []byte("new"), 0o644); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("Write with a failing rename = %v, want its error", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("directory holds %d entries, want f only: %v", len(entries), entries)
	}
	assertFile(t, filepath.Join(dir, "f"), "x", 0o644)
}

func assertFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != content {
		t.Errorf("content = %q, want %q", data, content)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := info.Mode().Perm(); got != mode {
		t.Errorf("mode = %v, want %v", got, mode)
	}
}
