//go:build linux

package stophook

import (
	"os/exec"
	"slices"
	"testing"
	"time"
)

// A judge record left by a judge killed with SIGKILL names a pid that another process may have
// taken since: only a process that is that very judge is signalled.
func TestStopJudgeSignalsOnlyTheJudgeOfTheRecord(t *testing.T) {
	type proc struct {
		pid  int
		done chan struct{} // closed once the process is waited for, by its one waiter
	}
	start := func(args ...string) proc {
		cmd := exec.Command("sh", append([]string{"-c", "sleep 30; :"}, args...)...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		p := proc{pid: cmd.Process.Pid, done: make(chan struct{})}
		go func() { cmd.Wait(); close(p.done) }()
		t.Cleanup(func() { cmd.Process.Kill(); <-p.done })
		// Start can return while the kernel is still replacing the forked child by sh: its
		// command line reads empty until then, and a judge is never signalled that early (it
		// writes its own record). Wait for sh, as a judge's record would.
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
			if args, ok := processArgs(p.pid); ok && slices.Contains(args, "sleep 30; :") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("process %d never showed its command line", p.pid)
			}
		}
		return p
	}
	exited := func(p proc) bool {
		select {
		case <-p.done:
			return true
		case <-time.After(5 * time.Second):
			return false
		}
	}
	stranger := start("sh")
	stopJudge(judgeRecord{PID: stranger.pid, Seq: 7})
	other := start("judge", "--seq", "8")
	stopJudge(judgeRecord{PID: other.pid, Seq: 7})
	judge := start("judge", "--seq", "7")
	stopJudge(judgeRecord{PID: judge.pid, Seq: 7})
	if !exited(judge) {
		t.Fatal("the judge of the record was not stopped")
	}
	if exited(stranger) || exited(other) {
		t.Fatal("a process that is not the record's judge was signalled")
	}
}
