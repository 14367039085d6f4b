package stophook

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/engine"
	"github.com/gauntlet-dev/gauntlet/internal/policy"
	"github.com/gauntlet-dev/gauntlet/internal/redact"
	"github.com/gauntlet-dev/gauntlet/internal/state"
)

// A record answers only the state it was reached on, while it is young, and only a session that
// owes no gate the run it records did not judge.
func TestErrorRecordAnswersOnlyItsStateWhileYoung(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	rec := &errorRecord{Fingerprint: "fp", At: at, Notice: "gauntlet: gates not judged, their environment broke: net; stop allowed",
		Sticky: []string{"lint"}}
	cases := []struct {
		name        string
		rec         *errorRecord
		fingerprint string
		sticky      []string
		now         time.Time
		want        bool
	}{
		{"the same state a minute later", rec, "fp", nil, at.Add(time.Minute), true},
		{"the same state, the gates it judged still owed", rec, "fp", []string{"lint"}, at.Add(time.Minute), true},
		{"another state", rec, "other", nil, at.Add(time.Minute), false},
		{"no fingerprint", rec, "", nil, at.Add(time.Minute), false},
		{"no record", nil, "fp", nil, at.Add(time.Minute), false},
		{"expired", rec, "fp", nil, at.Add(errorRecordTTL), false},
		{"from the future (the clock went back)", rec, "fp", nil, at.Add(-time.Second), false},
		{"a gate owed that the run did not judge", rec, "fp", []string{"test"}, at.Add(time.Minute), false},
	}
	for _, tc := range cases {
		if got := tc.rec.answers(tc.fingerprint, tc.sticky, tc.now); got != tc.want {
			t.Errorf("%s: answers = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// Only an error the policy let go is kept, and only one whose every gate not passing ran to its
// end: a timeout may be a cold build the next run warms, a cancelled gate was never judged.
func TestErrorKeptOnlyForAnErrorLetGo(t *testing.T) {
	netErr := gates.Result{Name: "net", Status: gates.StatusError, ExitCode: 1}
	pass := gates.Result{Name: "lint", Status: gates.StatusPass}
	infra := policy.Decide(policy.Evidence{Verdict: gates.VerdictError})
	cases := []struct {
		name string
		d    policy.Decision
		run  engine.Run
		want bool
	}{
		{"an error let go", infra, engine.Run{Verdict: gates.VerdictError, Results: []gates.Result{pass, netErr}}, true},
		{"a setup step's error", infra, engine.Run{Verdict: gates.VerdictError, Setup: []gates.Result{netErr}, Results: []gates.Result{pass}}, true},
		{"a timeout", infra, engine.Run{Verdict: gates.VerdictError, Results: []gates.Result{{Name: "net", Status: gates.StatusError, TimedOut: true}}}, false},
		{"a gate cancelled", infra, engine.Run{Verdict: gates.VerdictError, Results: []gates.Result{netErr, {Name: "slow", Status: gates.StatusCancelled}}}, false},
		{"a failure", policy.Decide(policy.Evidence{Verdict: gates.VerdictFail, Attempts: &policy.Attempts{Max: 3}}),
			engine.Run{Verdict: gates.VerdictFail, Results: []gates.Result{{Name: "net", Status: gates.StatusFail}}}, false},
		{"a failure whose block could not be counted", policy.Decide(policy.Evidence{Verdict: gates.VerdictFail, Attempts: &policy.Attempts{Max: 3, Unsaved: "disk full"}}),
			engine.Run{Verdict: gates.VerdictFail, Results: []gates.Result{{Name: "net", Status: gates.StatusFail}}}, false},
		{"a pass", policy.Decide(policy.Evidence{Verdict: gates.VerdictPass}), engine.Run{Verdict: gates.VerdictPass, Results: []gates.Result{pass}}, false},
	}
	for _, tc := range cases {
		if got := errorKept(tc.d, &tc.run); got != tc.want {
			t.Errorf("%s: errorKept = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// The reply answered from a record says so, and the history keeps it as the error's allow, with a
// note saying where the answer came from.
func TestFromRecordSaysItWasNotRunAgain(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	c := &call{Options: Options{Stderr: io.Discard, Now: func() time.Time { return at.Add(2*time.Minute + 5*time.Second) }},
		host: HostClaude, secrets: redact.New(redact.Rules{}, nil)}
	rec := &errorRecord{Fingerprint: "fp", At: at, Failed: []string{"net"},
		Notice: "gauntlet: gates not judged, their environment broke: net (crates.io unreachable); stop allowed"}
	out := c.fromRecord(rec)
	want := "gauntlet: gates not judged, their environment broke: net (crates.io unreachable); same state as 2m ago, not run again; stop allowed"
	if out.blocks || out.Reply.Verdict != Notify || out.Reply.Message != want {
		t.Fatalf("reply = %+v, want the notice %q", out.Reply, want)
	}
	e := c.entry(out)
	if e.Decision != "allow" || e.Why != WhyInfra || e.Verdict != string(gates.VerdictError) || !slices.Equal(e.Failed, []string{"net"}) {
		t.Errorf("history entry = %+v", e)
	}
	if len(e.Notes) != 1 || !strings.Contains(e.Notes[0], "answered from the record of the error stop on this state") {
		t.Errorf("notes = %q, want one saying the answer came from the record", e.Notes)
	}
}

// The record lives in the sealed ledger: it survives a save, an edit makes the whole ledger
// unbelieved, and without a key to check it nothing it says is believed.
func TestErrorRecordIsSealedWithTheLedger(t *testing.T) {
	sd, err := state.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer sd.Close()
	now := time.Now()
	l, _ := loadLedger(sd)
	l.session("claude/s1", now).LastError = &errorRecord{Fingerprint: "fp", At: now, Notice: "n"}
	if err := l.save(sd, now); err != nil {
		t.Fatal(err)
	}
	back, _ := loadLedger(sd)
	if s := back.Sessions["claude/s1"]; s == nil || s.LastError == nil || s.LastError.Fingerprint != "fp" || !s.LastError.At.Equal(now) {
		t.Fatalf("the sealed record did not read back: %+v", s)
	}

	data, _ := sd.ReadFile(ledgerFile)
	forged := strings.Replace(string(data), `"fingerprint": "fp"`, `"fingerprint": "forged"`, 1)
	if forged == string(data) {
		t.Fatalf("the ledger holds no record to forge:\n%s", data)
	}
	if err := sd.WriteFileAtomic(ledgerFile, []byte(forged)); err != nil {
		t.Fatal(err)
	}
	if back, _ := loadLedger(sd); back.Sessions["claude/s1"] != nil && back.Sessions["claude/s1"].LastError != nil {
		t.Fatalf("a forged record was believed: %+v", back.Sessions["claude/s1"].LastError)
	}

	if err := sd.WriteFileAtomic(ledgerFile, data); err != nil {
		t.Fatal(err)
	}
	noDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(noDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_STATE_HOME", noDir) // no key can be had there
	if back, _ := loadLedger(sd); back.Sessions["claude/s1"] == nil || back.Sessions["claude/s1"].LastError != nil {
		t.Fatalf("without a key: %+v", back.Sessions["claude/s1"])
	}
}
