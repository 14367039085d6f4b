package stophook

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/state"
)

// What the stop hook recorded in the user's state directory while .gauntlet could not be used is
// part of the project's history: status reads both, a release kept there stays outstanding until
// a later pass of its session in either, and a pass before it resolves nothing.
func TestKeptHistoryJoinsTheProjects(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	project := t.TempDir()
	own, err := state.Open(project)
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	kept, err := openFallback(own.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer kept.Close()

	at := func(s int) time.Time { return time.Date(2026, 1, 1, 0, 0, s, 0, time.UTC) }
	appendTo := func(sd *state.Dir, e HistoryEntry) {
		t.Helper()
		if err := AppendHistory(sd, e); err != nil {
			t.Fatal(err)
		}
	}
	// Session b's pass comes before its release, but is numbered after it in its own history.
	appendTo(own, HistoryEntry{Time: at(0), Host: "codex", Session: "x", Decision: "allow", Why: WhyPass})
	appendTo(own, HistoryEntry{Time: at(0), Host: "codex", Session: "y", Decision: "allow", Why: WhyPass})
	appendTo(own, HistoryEntry{Time: at(1), Host: "claude", Session: "b", Decision: "allow", Why: WhyPass})
	appendTo(own, HistoryEntry{Time: at(2), Host: "claude", Session: "a", Decision: "allow", Why: WhyPass})
	appendTo(kept, HistoryEntry{Time: at(3), Host: "claude", Session: "a", Decision: "allow", Why: WhyRetryLimit})
	appendTo(kept, HistoryEntry{Time: at(4), Host: "claude", Session: "b", Decision: "allow", Why: WhyRetryLimit})
	appendTo(own, HistoryEntry{Time: at(5), Host: "claude", Session: "a", Decision: "allow", Why: WhyPass})

	h, err := ReadHistory(own)
	if err != nil {
		t.Fatal(err)
	}
	more, ok, err := ReadKeptHistory(own.Path())
	if err != nil || !ok {
		t.Fatalf("ReadKeptHistory = %v, %v", ok, err)
	}
	h = h.Merge(more)
	if len(h.Entries) != 7 {
		t.Fatalf("%d entries, want the 7 of both", len(h.Entries))
	}
	for i := 1; i < len(h.Entries); i++ {
		if h.Entries[i].Time.Before(h.Entries[i-1].Time) {
			t.Fatalf("entries out of order: %v before %v", h.Entries[i-1].Time, h.Entries[i].Time)
		}
	}
	if !h.Check.OK() {
		t.Errorf("both histories check, the merge does not: %+v", h.Check)
	}
	got := h.Unresolved()
	if len(got) != 1 || got[0].Session != "b" {
		t.Errorf("unresolved = %+v, want session b's release alone", got)
	}

	// The lines of the kept history gone, its anchor still names the release.
	if err := kept.RemoveAll(HistoryFile); err != nil {
		t.Fatal(err)
	}
	more, _, _ = ReadKeptHistory(own.Path())
	h, _ = ReadHistory(own)
	got = h.Merge(more).Unresolved()
	if len(got) != 1 || got[0].Session != "b" {
		t.Errorf("with the kept lines gone, unresolved = %+v, want session b's release alone", got)
	}

	// No kept history for a project that never needed one.
	if _, ok, err := ReadKeptHistory(filepath.Join(t.TempDir(), state.Name)); ok || err != nil {
		t.Errorf("ReadKeptHistory of a project without one = %v, %v", ok, err)
	}
}

// The gates a session still owes are the project's, whichever directory held its ledger: a
// .gauntlet the agent replaced by a file must not launder a failure kept in scope.
func TestStickyGatesFollowTheProjectIntoTheFallback(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	own, err := state.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	l, err := loadLedger(own)
	if err != nil {
		t.Fatal(err)
	}
	l.session("claude/s1", time.Now()).Sticky = []string{"test"}
	if err := l.save(own, time.Now()); err != nil {
		t.Fatal(err)
	}
	kept, err := openFallback(own.Identity())
	if err != nil {
		t.Fatal(err)
	}
	defer kept.Close()
	got, err := loadLedger(kept)
	if err != nil {
		t.Fatal(err)
	}
	if s := got.Sessions["claude/s1"]; s == nil || len(s.Sticky) != 1 || s.Sticky[0] != "test" {
		t.Errorf("the fallback's ledger owes %+v, want the gate test kept in scope", s)
	}
}
