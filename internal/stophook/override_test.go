package stophook

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/state"
)

// The session's last decision is found however many other sessions' entries follow it within
// the searched tail (the first, short read finds none of them), and not past the tail.
func TestLastDecisionLooksPastTheFirstReadButNotPastTheTail(t *testing.T) {
	sd, err := state.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer sd.Close()
	appendLine := func(e HistoryEntry) {
		t.Helper()
		line, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sd.AppendFile(HistoryFile, append(line, '\n')); err != nil {
			t.Fatal(err)
		}
	}
	at := time.Unix(1700000000, 0).UTC()
	appendLine(HistoryEntry{Time: at, Host: "claude", Session: "older", Decision: "allow", Why: WhyPass})
	appendLine(HistoryEntry{Time: at, Host: "claude", Session: "mine", Decision: "block", Why: WhyFail, Attempt: 2})
	others := 0
	fill := func(bytes int) {
		for written := 0; written < bytes; others++ {
			e := HistoryEntry{Time: at, Host: "claude", Session: fmt.Sprint("other-", others), Decision: "allow", Why: WhyCached}
			line, _ := json.Marshal(e)
			written += len(line) + 1
			appendLine(e)
		}
	}
	fill(3 * lastDecisionFirstRead)
	got, ok := lastDecision(sd, "claude", "mine")
	if !ok || got.Decision != "block" || got.Attempt != 2 {
		t.Fatalf("lastDecision = %+v, %v; want the block of attempt 2", got, ok)
	}
	if got, ok := lastDecision(sd, "claude", "other-0"); !ok || got.Why != WhyCached {
		t.Errorf("lastDecision of other-0 = %+v, %v", got, ok)
	}
	if _, ok := lastDecision(sd, "codex", "mine"); ok {
		t.Error("another host's session of the same id was taken for this one")
	}
	fill(overrideTailBytes)
	if got, ok := lastDecision(sd, "claude", "mine"); ok {
		t.Errorf("a decision past the searched tail was found: %+v", got)
	}
}
