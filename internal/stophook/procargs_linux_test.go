//go:build linux

package stophook

import (
	"os/exec"
	"testing"
	"time"
)

// A judge record left by a judge killed with SIGKILL names a pid that another process may have
// taken since: only a process that is that very judge is signalled.
func TestStopJudgeSignalsOnlyTheJudgeOfTheRecord(t *testing.T) {
	start := func(args ...string) *exec.Cmd {
		cmd := exec.Command("sh", append([]string{"-c", "sleep 30; :"}, args...)...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd
	}
	exited := func(cmd *exec.Cmd) bool {
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
			return true
		case <-time.After(5 * time.Second):
			return false
		}
	}
	stranger := start("sh")
	stopJudge(judgeRecord{PID: stranger.Process.Pid, Seq: 7})
	other := start("judge", "--seq", "8")
	stopJudge(judgeRecord{PID: other.Process.Pid, Seq: 7})
	judge := start("judge", "--seq", "7")
	stopJudge(judgeRecord{PID: judge.Process.Pid, Seq: 7})
	if !exited(judge) {
		t.Fatal("the judge of the record was not stopped")
	}
	if exited(stranger) || exited(other) {
		t.Fatal("a process that is not the record's judge was signalled")
	}
}
