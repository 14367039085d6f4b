package stophook

import (
	"strings"
	"testing"
)

// A note on the state kept elsewhere ends the reason whatever its length: the reason stays within
// what hosts accept, and the note is never what is cut.
func TestNotesEndTheReasonWithinItsCap(t *testing.T) {
	note := "gauntlet's state directory .gauntlet is not a directory; state kept in /home/u/.local/state/gauntlet/projects/x/state"
	for _, n := range []int{10, MaxReasonBytes - 10, 3 * MaxReasonBytes} {
		got := withNotes(strings.Repeat("r", n), []string{note})
		if len(got) > MaxReasonBytes {
			t.Errorf("reason of %d bytes became %d with its note, over %d", n, len(got), MaxReasonBytes)
		}
		if !strings.HasSuffix(got, "\n\n"+note) {
			t.Errorf("reason of %d bytes does not end with the note", n)
		}
	}
	if got := withNotes("r", nil); got != "r" {
		t.Errorf("no note changed the reason to %q", got)
	}
}

// Notes are bounded: each in size, and in number, and each said once.
func TestNotesAreBoundedAndSaidOnce(t *testing.T) {
	c := &call{}
	for range 3 {
		c.note("same", "same kept")
	}
	for i := range 2 * maxNotes {
		c.note(string(rune('a'+i))+strings.Repeat("x", 10*maxNoteBytes), "")
	}
	if len(c.replyNotes) != maxNotes || len(c.dec.notes) != 1 {
		t.Fatalf("%d reply notes and %d kept, want %d and 1", len(c.replyNotes), len(c.dec.notes), maxNotes)
	}
	for _, n := range c.replyNotes {
		if len(n) > maxNoteBytes {
			t.Errorf("a note of %d bytes, over %d", len(n), maxNoteBytes)
		}
	}
}
