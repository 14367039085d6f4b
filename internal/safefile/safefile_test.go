package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/testos"
)

func TestFIFOIsRefusedWithoutBlocking(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	if err := testos.Mkfifo(path); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ReadFile(path, 1024, time.Now().Add(time.Minute))
		done <- err
	}()
	select {
	case err := <-done:
		var nr *NotRegularError
		if !errors.As(err, &nr) {
			t.Fatalf("err = %v, want NotRegularError", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("opening a FIFO blocked")
	}
}

func TestDeviceIsRefused(t *testing.T) {
	_, err := ReadFile("/dev/zero", 1024, time.Time{})
	var nr *NotRegularError
	if !errors.As(err, &nr) {
		t.Fatalf("err = %v, want NotRegularError", err)
	}
}

func TestReadAllLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, make([]byte, 100), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFile(path, 100, time.Time{}); err != nil || len(data) != 100 {
		t.Fatalf("at the limit: %d bytes, %v", len(data), err)
	}
	if _, err := ReadFile(path, 99, time.Time{}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over the limit: %v, want ErrTooLarge", err)
	}
}

// A pollable file whose read would block (here the read end of a pipe, standing in for
// /proc/kmsg) ends at the deadline.
func TestBlockingReadEndsAtDeadline(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	defer r.Close()
	_ = r.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if _, err := ReadAll(r, 1024, time.Now().Add(50*time.Millisecond)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("err = %v, want deadline exceeded", err)
	}
}
