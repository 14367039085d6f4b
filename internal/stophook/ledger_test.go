package stophook

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/state"
)

func TestSettleKeepsFailuresUntilTheyPass(t *testing.T) {
	s := &sessionState{}
	s.settle([]gates.Result{{Name: "lint", Status: gates.StatusFail}, {Name: "test", Status: gates.StatusFail}})
	// A gate that was skipped or could not run has not passed: it stays sticky.
	s.settle([]gates.Result{{Name: "lint", Status: gates.StatusSkipped}, {Name: "test", Status: gates.StatusError}})
	if want := []string{"lint", "test"}; !slices.Equal(s.Sticky, want) {
		t.Fatalf("sticky = %v, want %v", s.Sticky, want)
	}
	s.settle([]gates.Result{{Name: "lint", Status: gates.StatusPass}, {Name: "test", Status: gates.StatusWarn}})
	if len(s.Sticky) != 0 {
		t.Fatalf("sticky = %v after both passed, want none", s.Sticky)
	}
}

func TestLedgerRoundTripAndPrune(t *testing.T) {
	sd, err := state.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer sd.Close()
	now := time.Now()
	l, err := loadLedger(sd)
	if err != nil {
		t.Fatal(err)
	}
	l.session("claude/old", now.Add(-sessionTTL-time.Hour))
	for i := range maxSessions + 5 {
		l.session(fmt.Sprintf("claude/s%03d", i), now.Add(time.Duration(i)*time.Second)).prompt("").Blocks = i
	}
	if err := l.save(sd, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	back, err := loadLedger(sd)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Sessions) != maxSessions {
		t.Errorf("%d sessions kept, want %d", len(back.Sessions), maxSessions)
	}
	if back.Sessions["claude/old"] != nil || back.Sessions["claude/s000"] != nil {
		t.Error("the expired and the oldest sessions were kept")
	}
	if s := back.Sessions[fmt.Sprintf("claude/s%03d", maxSessions+4)]; s == nil || s.Prompts[""].Blocks != maxSessions+4 {
		t.Error("the newest session did not survive the round trip")
	}
}

// A corrupt ledger must never keep an agent from stopping: it starts afresh.
func TestCorruptLedgerStartsAfresh(t *testing.T) {
	sd, err := state.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer sd.Close()
	if err := sd.WriteFileAtomic(ledgerFile, []byte("{not json")); err != nil {
		t.Fatal(err)
	}
	l, err := loadLedger(sd)
	if err != nil || len(l.Sessions) != 0 {
		t.Fatalf("loadLedger = %+v, %v; want an empty ledger", l, err)
	}
}
