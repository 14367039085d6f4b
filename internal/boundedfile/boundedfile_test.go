package boundedfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := Read(small, 5); err != nil || string(got) != "12345" {
		t.Errorf("Read(at the limit) = %q, %v; want the content", got, err)
	}
	if _, err := Read(small, 4); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Read(over the limit) = %v; want ErrTooLarge", err)
	}
	if _, err := Read(filepath.Join(dir, "missing"), 10); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Read(missing) = %v; want ErrNotExist", err)
	}
	if _, err := Read(dir, 10); err == nil {
		t.Error("Read(a directory) succeeded")
	}
	// A FIFO without a writer would block a plain open forever.
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	if _, err := Read(fifo, 10); err == nil {
		t.Error("Read(a FIFO) succeeded")
	}
}
