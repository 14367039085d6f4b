package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
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

// A size hint, the file's size from its stat, is only where the buffer starts: a file that grew
// since is read whole, one that shrank is read as it is, and the limit holds either way.
func TestReadAllSizedReadsWhatIsThere(t *testing.T) {
	data := make([]byte, 70<<10)
	for i := range data {
		data[i] = byte(i)
	}
	for _, hint := range []int64{0, 1, 100, 70 << 10, 1 << 20} {
		got, err := ReadAllSized(bytesReader(data), 80<<10, time.Time{}, hint)
		if err != nil || string(got) != string(data) {
			t.Errorf("hint %d: %d bytes, %v; want all %d", hint, len(got), err, len(data))
		}
		if _, err := ReadAllSized(bytesReader(data), 60<<10, time.Time{}, hint); !errors.Is(err, ErrTooLarge) {
			t.Errorf("hint %d over the limit: %v, want ErrTooLarge", hint, err)
		}
	}
}

func bytesReader(b []byte) *strings.Reader { return strings.NewReader(string(b)) }
