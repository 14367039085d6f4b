package stophook

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
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

// Everything the ledger holds survives its seal: a failed result with findings, a cause, an
// excerpt and times in another zone reads back verified.
func TestSealedLedgerRoundTrips(t *testing.T) {
	sd, err := state.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer sd.Close()
	now := time.Now().In(time.FixedZone("X", 5*3600+1800))
	l, _ := loadLedger(sd)
	l.LastPass = "fp"
	s := l.session("claude/s1", now)
	s.LastPass = "fp2"
	s.Sticky = []string{"lint"}
	s.Turn = "t\u00e9\x01"
	p := s.prompt("p1")
	p.Blocks, p.BlockFingerprint, p.Total = 2, "fp3", 4
	p.Failed = []gates.Result{{
		Name: "lint", Kind: gates.KindCheck, Status: gates.StatusFail, ExitCode: 1, Duration: 1500 * time.Millisecond,
		Reason: "exit status 1", Tail: "a\nb\xff", Started: now, Lines: 3,
		Findings: []gates.Finding{{File: "a.go", Line: 3, Column: 1, Message: "bad", Rule: "x"}},
		Cause:    &gates.Cause{ID: "disk-full", Summary: "no space"},
		Excerpt:  &gates.Excerpt{Start: 1, Match: 2, Lines: []string{"x", "y"}},
	}}
	if err := l.save(sd, now); err != nil {
		t.Fatal(err)
	}
	back, err := loadLedger(sd)
	if err != nil {
		t.Fatal(err)
	}
	if back.LastPass != "fp" || back.Sessions["claude/s1"] == nil || back.Sessions["claude/s1"].Prompts["p1"].Blocks != 2 {
		t.Fatalf("the sealed ledger did not verify: %+v", back)
	}
}

// A ledger edited by hand is not believed, but the gates it kept in scope come back from the
// copy kept beside the key: deleting or editing the ledger launders no failure.
func TestTamperedLedgerKeepsTheStickyGates(t *testing.T) {
	sd, err := state.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer sd.Close()
	l, _ := loadLedger(sd)
	l.session("claude/s1", time.Now()).Sticky = []string{"test"}
	l.session("claude/s1", time.Now()).prompt("").Blocks = 1
	if err := l.save(sd, time.Now()); err != nil {
		t.Fatal(err)
	}
	data, _ := sd.ReadFile(ledgerFile)
	forged := strings.Replace(string(data), `"version": 1,`, `"version": 1, "last_pass": "forged",`, 1)
	if err := sd.WriteFileAtomic(ledgerFile, []byte(forged)); err != nil {
		t.Fatal(err)
	}
	back, _ := loadLedger(sd)
	if back.LastPass != "" {
		t.Fatal("a forged last_pass was believed")
	}
	s := back.Sessions["claude/s1"]
	if s == nil || !slices.Equal(s.Sticky, []string{"test"}) || s.Prompts[""] != nil {
		t.Fatalf("after tampering: %+v", s)
	}
	if err := sd.RemoveAll(ledgerFile); err != nil {
		t.Fatal(err)
	}
	if back, _ := loadLedger(sd); back.Sessions["claude/s1"] == nil || !slices.Equal(back.Sessions["claude/s1"].Sticky, []string{"test"}) {
		t.Fatal("a deleted ledger lost the gates kept in scope")
	}
}

// A block's remembered gates are encoded on their own; the bytes must stay a plain list's, or
// every ledger sealed before would stop verifying.
func TestRememberedResultsEncodeAsAPlainList(t *testing.T) {
	failed := []gates.Result{{Name: "lint", Status: gates.StatusFail, ExitCode: 1, Tail: "a < b & \xff",
		Started: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC), Cause: &gates.Cause{}}}
	plain := struct {
		Failed []gates.Result `json:"failed,omitempty"`
	}{failed}
	for _, indent := range []bool{false, true} {
		marshal := json.Marshal
		if indent {
			marshal = func(v any) ([]byte, error) { return json.MarshalIndent(v, "", "  ") }
		}
		want, err := marshal(plain)
		if err != nil {
			t.Fatal(err)
		}
		got, err := marshal(promptState{Failed: failed})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(got), strings.TrimSuffix(strings.TrimPrefix(string(want), "{"), "}")) {
			t.Errorf("remembered gates encode as\n%s\nwant what a plain list gives:\n%s", got, want)
		}
		var back promptState
		if err := json.Unmarshal(got, &back); err != nil || len(back.Failed) != 1 || back.Failed[0].Tail != "a < b & \uFFFD" {
			t.Errorf("decoded %+v, %v", back.Failed, err)
		}
	}
	if got, _ := json.Marshal(promptState{}); strings.Contains(string(got), "failed") {
		t.Errorf("no remembered gates are written as %s", got)
	}
}

// So are the integrity findings a block remembers.
func TestRememberedFindingsEncodeAsAPlainList(t *testing.T) {
	findings := []gates.IntegrityFinding{{Rule: "skip-added", File: "a_test.go", Line: 3, Message: "t.Skip <added>", Level: "block"}}
	want, _ := json.Marshal(struct {
		Blocks    int                      `json:"blocks"`
		Integrity []gates.IntegrityFinding `json:"integrity,omitempty"`
	}{0, findings})
	got, err := json.Marshal(promptState{Integrity: findings})
	if err != nil || string(got) != string(want) {
		t.Fatalf("remembered findings encode as %s (%v), want %s", got, err, want)
	}
	var back promptState
	if err := json.Unmarshal(got, &back); err != nil || len(back.Integrity) != 1 || back.Integrity[0] != findings[0] {
		t.Errorf("decoded %+v, %v", back.Integrity, err)
	}
}
