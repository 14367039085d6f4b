//go:build unix

package engine

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// A go.mod that is a named pipe (the agent's to make) must not hold the reading of a gate's
// coverage: it is no regular file, and the profile's names are then not mapped.
func TestGoModulePathsRefuseAFIFO(t *testing.T) {
	if testing.Short() {
		t.Skip("makes a named pipe")
	}
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, "go.mod"), 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	gc := &gateCensus{stage: &censusStage{root: root}, gate: gates.Gate{Name: "test"}}
	done := make(chan bool, 1)
	go func() { done <- gc.goModulePaths(time.Now().Add(time.Minute)) == nil }()
	select {
	case none := <-done:
		if !none {
			t.Error("a named pipe was read as go.mod")
		}
	case <-time.After(20 * time.Second):
		// Unblock the reader before failing: nothing is left waiting on the pipe.
		if f, err := os.OpenFile(filepath.Join(root, "go.mod"), os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		t.Fatal("reading a go.mod that is a named pipe did not return")
	}
}
