//go:build linux

package proc

import (
	"math"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestEnvironHasMatchesWholeEntries(t *testing.T) {
	cmd := exec.Command("sleep", "10")
	cmd.Env = []string{"GAUNTLET_RUN_ID=r1", "GAUNTLET_GATE=lint", "OTHER=GAUNTLET_GATE=test"}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	buf := make([]byte, maxEnviron)
	pid := cmd.Process.Pid
	// Start returns once execve closed the close-on-exec pipe, which the kernel does before it
	// sets the new image's environment up: wait until /proc shows it.
	for deadline := time.Now().Add(10 * time.Second); len(readProc(pid, "environ", buf)) == 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	for _, tt := range []struct {
		marks []string
		want  bool
	}{
		{[]string{"GAUNTLET_RUN_ID=r1", "GAUNTLET_GATE=lint"}, true},
		{[]string{"GAUNTLET_RUN_ID=r1", "GAUNTLET_GATE=test"}, false}, // only inside another value
		{[]string{"GAUNTLET_RUN_ID=r"}, false},                        // a prefix of the value
		{[]string{"UN_ID=r1"}, false},                                 // a suffix of the name
	} {
		if got := environHas(pid, tt.marks, buf); got != tt.want {
			t.Errorf("environHas(%q) = %v, want %v", tt.marks, got, tt.want)
		}
	}
	if parentOf(pid) != os.Getpid() {
		t.Errorf("parentOf(%d) = %d, want %d", pid, parentOf(pid), os.Getpid())
	}
}

// An environment larger than the buffer read first is read again whole: a mark at its end is
// found, and one absent from it is not.
func TestEnvironMarkedReadsALargeEnvironmentWhole(t *testing.T) {
	cmd := exec.Command("sleep", "10")
	cmd.Env = []string{"FILLER=" + strings.Repeat("x", 2*smallEnviron), "GAUNTLET_RUN_ID=late"}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	pid := cmd.Process.Pid
	buf := make([]byte, maxEnviron)
	for deadline := time.Now().Add(10 * time.Second); len(readProc(pid, "environ", buf)) == 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if _, whole := environHolds(pid, nil, make([]byte, smallEnviron)); whole {
		t.Fatal("the environment fits the small buffer: the test does not reach the second read")
	}
	if !environMarked(pid, []string{"GAUNTLET_RUN_ID=late"}) {
		t.Error("the mark past the small buffer was not found")
	}
	if environMarked(pid, []string{"GAUNTLET_RUN_ID=other"}) {
		t.Error("a mark the environment does not hold was found")
	}
}

// A process this one started is never taken for an orphan, even with matching marks.
func TestKillOrphansSparesOwnChildren(t *testing.T) {
	if !Enable() {
		t.Skip("no subreaper here")
	}
	cmd := exec.Command("sleep", "10")
	cmd.Env = []string{"GAUNTLET_RUN_ID=spare"}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	release := Own(cmd.Process.Pid)
	defer func() { release(); _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	if n := KillOrphans([]string{"GAUNTLET_RUN_ID=spare"}, 0, settle); n != 0 {
		t.Fatalf("killed %d of its own children", n)
	}
}

// orphan starts a shell that leaves cmd running in the background and exits: cmd is then this
// process's orphan (it is the subreaper). It returns the orphan's pid.
func orphan(t *testing.T, env []string, script string) int {
	t.Helper()
	sh := exec.Command("sh", "-c", script+" </dev/null >/dev/null 2>&1 & echo $!")
	sh.Env = env
	out, err := sh.Output()
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// An orphan is found among this process's children whatever its pid: after the pids wrap
// around, a gate's escaped daemon has a lower pid than the gate.
func TestKillOrphansFindsLowerPids(t *testing.T) {
	if !Enable() {
		t.Skip("no subreaper here")
	}
	pid := orphan(t, []string{"GAUNTLET_RUN_ID=wrap"}, "exec sleep 30")
	defer syscall.Kill(pid, syscall.SIGKILL)
	if n := KillOrphans([]string{"GAUNTLET_RUN_ID=wrap"}, math.MaxInt32, settle); n != 1 {
		t.Fatalf("killed %d orphans with a pid below the gate's, want 1", n)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Fatalf("orphan %d still exists (not reaped)", pid)
	}
}

// An orphan that exited is reaped while gates run, not left a zombie.
func TestReapStraysCollectsExitedOrphans(t *testing.T) {
	if !Enable() {
		t.Skip("no subreaper here")
	}
	// It outlives the shell, so that nobody but this process can reap it.
	pid := orphan(t, nil, "exec sleep 0.2")
	deadline := time.Now().Add(10 * time.Second)
	for ReapStrays() == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("orphan %d was never reaped", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Fatalf("orphan %d still exists", pid)
	}
}

// The children files list a child this process started, read through the task folder's
// descriptor.
func TestTaskChildrenListsAChild(t *testing.T) {
	cmd := exec.Command("sleep", "10")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	pids, ok := taskChildren()
	if !ok {
		t.Skip("no children files on this kernel")
	}
	if !slices.Contains(pids, cmd.Process.Pid) {
		t.Errorf("taskChildren() = %v, want it to hold %d", pids, cmd.Process.Pid)
	}
}
