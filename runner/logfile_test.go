package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wantCapped is the log content the cap promises, computed the obvious way.
func wantCapped(data string, limit int) string {
	if len(data) <= limit {
		return data
	}
	head := limit / 2
	return fmt.Sprintf("%s\n[gauntlet: %d bytes omitted]\n%s", data[:head], len(data)-limit, data[len(data)-(limit-head):])
}

func TestCappedLog(t *testing.T) {
	var alphabet strings.Builder
	for i := range 300 {
		alphabet.WriteByte(byte('!' + i%90))
	}
	for _, limit := range []int{1, 2, 10, 11, 64} {
		for _, size := range []int{0, 5, 10, 11, 12, 25, 64, 65, 300} {
			for _, chunk := range []int{1, 3, 7, 1000} {
				name := fmt.Sprintf("limit=%d size=%d chunk=%d", limit, size, chunk)
				dir := t.TempDir()
				root, err := os.OpenRoot(dir)
				if err != nil {
					t.Fatal(err)
				}
				data := alphabet.String()[:size]
				log, err := createCappedLog(root, "g.log", int64(limit))
				if err != nil {
					t.Fatal(err)
				}
				for rest := data; len(rest) > 0; {
					n := min(chunk, len(rest))
					if _, err := log.Write([]byte(rest[:n])); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					rest = rest[n:]
				}
				if err := log.Close(); err != nil {
					t.Fatalf("%s: close: %v", name, err)
				}
				got, err := os.ReadFile(filepath.Join(dir, "g.log"))
				if err != nil {
					t.Fatal(err)
				}
				if want := wantCapped(data, limit); string(got) != want {
					t.Errorf("%s: got %q, want %q", name, got, want)
				}
				if entries, _ := os.ReadDir(dir); len(entries) != 1 {
					t.Errorf("%s: %d files left in the log dir, want only the log", name, len(entries))
				}
				root.Close()
			}
		}
	}
}

func TestCappedLogStaysInsideRoot(t *testing.T) {
	outside := t.TempDir()
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(outside, "victim"), filepath.Join(dir, "g.log")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if _, err := createCappedLog(root, "g.log", 10); err == nil {
		t.Fatal("a symlink pointing out of the log dir was followed")
	}
	if _, err := os.Stat(filepath.Join(outside, "victim")); !os.IsNotExist(err) {
		t.Errorf("a file was created outside the log dir: %v", err)
	}
}
