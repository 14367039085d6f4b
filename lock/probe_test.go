package lock

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestHolderRecordsPurpose(t *testing.T) {
	dir := stateDir(t)
	held, err := AcquireFor(context.Background(), dir, 0, Purpose{Kind: KindRun, Gates: []string{"lint", "test"}})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	h, ok := ReadHolder(dir)
	if !ok || h.PID != os.Getpid() || h.Kind != KindRun || !slices.Equal(h.Gates, []string{"lint", "test"}) || h.GateCount != 2 {
		t.Errorf("ReadHolder = %+v, %v; want this pid, run, [lint test], 2", h, ok)
	}
}

// A run of many gates still leaves a record that ReadHolder reads (the busy error's pid depends
// on it): the names are cut, their count kept.
func TestHolderRecordStaysReadableWithManyGates(t *testing.T) {
	dir := stateDir(t)
	var names []string
	for i := range 500 {
		names = append(names, strings.Repeat("g", 40)+string(rune('a'+i%26)))
	}
	held, err := AcquireFor(context.Background(), dir, 0, Purpose{Kind: KindRun, Gates: names})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	h, ok := ReadHolder(dir)
	if !ok || h.PID != os.Getpid() || h.GateCount != 500 || len(h.Gates) == 0 || len(h.Gates) >= 500 {
		t.Errorf("ReadHolder = pid %d, %d of %d gates, %v; want this pid, some of 500", h.PID, len(h.Gates), h.GateCount, ok)
	}
}

func TestProbeNothing(t *testing.T) {
	if a := Probe(stateDir(t)); a.State != "" {
		t.Errorf("Probe of a free lock = %+v, want nothing", a)
	}
	if a := Probe(filepath.Join(t.TempDir(), "missing")); a.State != "" {
		t.Errorf("Probe of no state dir = %+v, want nothing", a)
	}
}

func TestProbeHeld(t *testing.T) {
	dir := stateDir(t)
	held, err := AcquireFor(context.Background(), dir, 0, Purpose{Kind: KindStopHook})
	if err != nil {
		t.Fatal(err)
	}
	a := Probe(dir)
	if a.State != Held || a.Holder.PID != os.Getpid() || a.Holder.Kind != KindStopHook {
		t.Errorf("Probe while held = %+v, want held by this stop hook", a)
	}
	held.Release()
	if a := Probe(dir); a.State != "" {
		t.Errorf("Probe after release = %+v, want nothing", a)
	}
}

// Probing takes no lock: a run starting at the same moment must not find it busy.
func TestProbeTakesNoLock(t *testing.T) {
	dir := stateDir(t)
	held, err := Acquire(context.Background(), dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	_ = Probe(dir)
	held.Release()
	again, err := Acquire(context.Background(), dir, 0)
	if err != nil {
		t.Fatalf("Acquire after a probe: %v", err)
	}
	again.Release()
}

// A record left by a holder that died without letting the lock go (killed with SIGKILL, its
// host's timeout) names the interrupted holder, never a run in progress.
func TestProbeDeadHolder(t *testing.T) {
	dir := stateDir(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	started := time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)
	writeRecord(t, dir, `{"pid":`+itoa(cmd.Process.Pid)+`,"started":"2026-11-21T09:30:00Z","kind":"run"}`)
	a := Probe(dir)
	if a.State != Interrupted || a.Holder.PID != cmd.Process.Pid || !a.Holder.Started.Equal(started) || a.Holder.Kind != KindRun {
		t.Errorf("Probe = %+v, want the interrupted run", a)
	}
}

// A live process whose pid a dead holder's record names (pids are reused) holds no lock: where
// the kernel says who holds locks, the record is stale.
func TestProbeRecordOfLiveProcessWithoutLock(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux says who holds a lock")
	}
	dir := stateDir(t)
	writeRecord(t, dir, `{"pid":`+itoa(os.Getpid())+`,"started":"2026-11-21T09:30:00Z"}`)
	if a := Probe(dir); a.State != Interrupted {
		t.Errorf("Probe = %+v, want interrupted", a)
	}
}

// A record that cannot be read tells nothing; the lock held without one is still said.
func TestProbeUnreadableRecord(t *testing.T) {
	dir := stateDir(t)
	writeRecord(t, dir, `not json`)
	if a := Probe(dir); a.State != "" {
		t.Errorf("Probe of garbage = %+v, want nothing", a)
	}
}

func writeRecord(t *testing.T, dir, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, infoName), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// The lock held with no record yet (the moment after a holder takes it) is still a lock held.
func TestProbeHeldWithoutRecord(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux says who holds a lock")
	}
	dir := stateDir(t)
	held, err := Acquire(context.Background(), dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	if err := os.Remove(filepath.Join(dir, infoName)); err != nil {
		t.Fatal(err)
	}
	if a := Probe(dir); a.State != Held || a.Holder.PID != 0 {
		t.Errorf("Probe = %+v, want held by an unnamed holder", a)
	}
}
