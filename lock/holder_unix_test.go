//go:build unix

package lock

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO planted at the record's path must not hang status, nor a run that finds the lock busy:
// the record is refused unread.
func TestReadHolderRefusesFIFO(t *testing.T) {
	dir := stateDir(t)
	if err := syscall.Mkfifo(filepath.Join(dir, infoName), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan Activity, 1)
	go func() { done <- Probe(dir) }()
	select {
	case a := <-done:
		if a.State != "" {
			t.Errorf("Probe = %+v, want nothing", a)
		}
	case <-time.After(30 * time.Second): // a hang guard, not a measure
		t.Fatal("Probe blocked on a FIFO")
	}
}
