package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/seal"
	"github.com/gauntlet-dev/gauntlet/internal/state"
)

// A run that holds the lock takes over the record of the run in progress; one judged without the
// lock (the stop hook, while another run holds it) must leave that run's record alone: it is the
// live holder's, and its processes are not leftovers.
func TestClaimRunWithoutTheLockLeavesTheHoldersRecord(t *testing.T) {
	sd, err := state.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer sd.Close()
	const holder = "20260101T000000Z-0000"
	if err := markRunning(sd, holder); err != nil {
		t.Fatal(err)
	}

	_, _, done, err := claimRun(sd, "20260101T000001Z-0001", true)
	if err != nil {
		t.Fatalf("claimRun without the lock: %v", err)
	}
	done()
	if data, err := sd.ReadFile(RunningFile); err != nil || !containsRunID(data, holder) {
		t.Fatalf("the holder's record became %q (%v)", data, err)
	}

	_, _, done, err = claimRun(sd, "20260101T000002Z-0002", false)
	if err != nil {
		t.Fatalf("claimRun under the lock: %v", err)
	}
	if data, _ := sd.ReadFile(RunningFile); !containsRunID(data, "20260101T000002Z-0002") {
		t.Errorf("under the lock the run is not recorded as in progress: %q", data)
	}
	done()
	if sd.Exists(RunningFile) {
		t.Error("the record outlived its run")
	}
}

func containsRunID(data []byte, id string) bool { return strings.Contains(string(data), `"`+id+`"`) }

// The stop hook hands Execute the state directory it opened (its fallback, when .gauntlet cannot
// be used): Execute uses that one, and leaves it open for the caller.
func TestOpenStateUsesTheCallersDirectory(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	key, err := seal.Load()
	if err != nil {
		t.Fatal(err)
	}
	project := t.TempDir()
	fb, err := state.OpenFallback(key.ProjectDir(filepath.Join(project, state.Name)), filepath.Join(project, state.Name))
	if err != nil {
		t.Fatal(err)
	}
	defer fb.Close()
	sd, closeState, err := openState(Request{Config: &config.Config{Root: project}, State: fb})
	if err != nil {
		t.Fatal(err)
	}
	if sd != fb {
		t.Fatal("Execute opened its own state directory instead of the caller's")
	}
	closeState()
	if err := fb.WriteFileAtomic("probe", nil); err != nil {
		t.Errorf("the caller's directory was closed: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(project, state.Name)); err == nil {
		t.Error(".gauntlet was created beside the caller's directory")
	}
}
