package stophook

import (
	"testing"
	"time"
)

// A judge's state counts as read at its request's time only when it was read within the quiet
// period and a little more of that request: `gauntlet judge --seq` with an old request's number,
// run later (by hand, or by the session's agent), judges the tree of its own time, which a
// session must not take for the tree it started with.
func TestJudgedAt(t *testing.T) {
	quiet := 3 * time.Second
	readAt := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name      string
		requested time.Time
		want      time.Time
	}{
		{"read after the quiet period", readAt.Add(-quiet - 2*time.Second), readAt.Add(-quiet - 2*time.Second)},
		{"an old request's number", readAt.Add(-time.Hour), readAt},
		{"no request's number", time.Unix(0, 0), readAt},
		{"a request's number from the future", readAt.Add(time.Hour), readAt},
	} {
		if got := judgedAt(tt.requested.UnixNano(), quiet, readAt); !got.Equal(tt.want) {
			t.Errorf("%s: judgedAt = %v, want %v", tt.name, got, tt.want)
		}
	}
}
