//go:build unix

package preflight

import (
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A lock file gauntlet reads to name a missing tool's fix is read boundedly: a FIFO planted at
// uv.lock (nobody ever writes to it) must not hold the gate's verdict, nor the stop, forever.
func TestLockFileReadNeverWaitsOnAFIFO(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, "uv.lock"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	env := System()
	env.LookPath = func(string) (string, error) { return "", exec.ErrNotFound }
	done := make(chan Problem, 1)
	go func() {
		p, _ := Missing("ruff", root, root, env)
		done <- p
	}()
	select {
	case p := <-done:
		// Unread, the lock file is not judged: syncing the virtualenv stays the fix.
		if !strings.Contains(p.Fix, "uv sync") {
			t.Errorf("fix %q, want the virtualenv's sync", p.Fix)
		}
	case <-time.After(time.Minute):
		t.Fatal("Missing waited on a FIFO at uv.lock")
	}
}
