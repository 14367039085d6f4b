package stophook

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/state"
)

// The history never grows past its cap, keeps the newest entries whole, and reads back in order.
func TestHistoryIsBoundedAndKeepsTheNewest(t *testing.T) {
	sd, err := state.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer sd.Close()
	msg := strings.Repeat("x", maxHistoryMessage)
	const n = 2000 // about 1.2 MB of entries: several rotations
	for i := range n {
		e := HistoryEntry{Time: time.Unix(int64(i), 0).UTC(), Host: "claude", Session: fmt.Sprint(i), Decision: "block", Why: WhyFail, Message: msg}
		if err := AppendHistory(sd, e); err != nil {
			t.Fatal(err)
		}
	}
	_, size, err := sd.ReadFileTail(HistoryFile, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	if size > historyMaxBytes {
		t.Errorf("history is %d bytes, over its cap of %d", size, historyMaxBytes)
	}
	h, err := ReadHistory(sd)
	if err != nil {
		t.Fatal(err)
	}
	if !h.Check.OK() || h.Check.Unsealed > 0 {
		t.Errorf("a rotated history does not check: %+v", h.Check)
	}
	entries := h.Entries
	if len(entries) < 100 {
		t.Fatalf("only %d entries kept", len(entries))
	}
	if last := entries[len(entries)-1].Session; last != fmt.Sprint(n-1) {
		t.Errorf("newest entry is session %s, want %d", last, n-1)
	}
	for i := 1; i < len(entries); i++ {
		if !entries[i].Time.After(entries[i-1].Time) {
			t.Fatalf("entries out of order at %d", i)
		}
	}
}

// A torn or foreign line is skipped, not a reason to lose the rest.
func TestReadHistorySkipsBadLines(t *testing.T) {
	sd, err := state.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer sd.Close()
	data := `{"time":"2026-01-01T00:00:00Z","host":"claude","decision":"allow","why":"pass"}
not json
{"time":"2026-01-01T00:00:01Z","host":"cod
{"time":"2026-01-01T00:00:02Z","host":"codex","decision":"block","why":"fail"}
`
	if _, err := sd.AppendFile(HistoryFile, []byte(data)); err != nil {
		t.Fatal(err)
	}
	h, err := ReadHistory(sd)
	if err != nil {
		t.Fatal(err)
	}
	entries := h.Entries
	if h.Check.Unsealed != 2 {
		t.Errorf("%d unsealed lines, want 2", h.Check.Unsealed)
	}
	if len(entries) != 2 || entries[0].Host != "claude" || entries[1].Host != "codex" {
		t.Errorf("got %+v", entries)
	}
}

func TestUnresolvedReleases(t *testing.T) {
	e := func(host, session, decision, why string) HistoryEntry {
		return HistoryEntry{Host: host, Session: session, Decision: decision, Why: why}
	}
	entries := []HistoryEntry{
		e("claude", "a", "allow", WhyRetryLimit), // passed later: resolved
		e("claude", "b", "allow", WhyInfra),      // never passed
		e("codex", "a", "allow", WhyLock),        // another host's session a: not resolved by claude's pass
		e("claude", "a", "block", WhyFail),
		e("claude", "a", "allow", WhyCached),
		e("claude", "c", "allow", WhyGuard), // a guard is not a release
		e("claude", "d", "allow", WhyWarn),  // warnings are not a release
	}
	got := Unresolved(entries)
	if len(got) != 2 || got[0].Session != "b" || got[1].Host != "codex" {
		t.Errorf("got %+v", got)
	}
}

func TestHistoryID(t *testing.T) {
	if got := historyID("abc"); got != "abc" {
		t.Errorf("short id changed: %q", got)
	}
	long := strings.Repeat("s", 10000)
	got := historyID(long)
	if len(got) > maxHistorySession || !strings.HasPrefix(got, "ssss") {
		t.Errorf("long id became %q (%d bytes)", got, len(got))
	}
	if historyID(long+"x") == got {
		t.Error("two long ids share a digest")
	}
}
