//go:build linux

package proc

import (
	"os"
	"os/exec"
	"testing"
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
	if parent(pid) != os.Getpid() {
		t.Errorf("parent(%d) = %d, want %d", pid, parent(pid), os.Getpid())
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
