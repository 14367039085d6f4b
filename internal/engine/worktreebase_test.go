package engine

import (
	"testing"
	"time"
)

// Measures of the base from a checkout are always the base's; from a run in the work tree, only
// outside a session or when the state they measured was read before the session was pinned.
func TestBelievedWorkTreeMeasures(t *testing.T) {
	pinned := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		name   string
		pinned time.Time
		st     storedCensus
		want   bool
	}{
		{"a checkout's, in a session", pinned, storedCensus{}, true},
		{"a work tree's before the pin", pinned, storedCensus{WorkTree: true, At: pinned.Add(-time.Hour)}, true},
		{"a work tree's at the pin", pinned, storedCensus{WorkTree: true, At: pinned}, true},
		{"a work tree's after the pin", pinned, storedCensus{WorkTree: true, At: pinned.Add(time.Second)}, false},
		{"a work tree's outside a session", time.Time{}, storedCensus{WorkTree: true, At: pinned.Add(time.Hour)}, true},
	}
	for _, tc := range cases {
		j := &baseJudge{sessionPinned: tc.pinned}
		if got := j.believed(tc.st); got != tc.want {
			t.Errorf("%s: believed = %v, want %v", tc.name, got, tc.want)
		}
	}
	for p, want := range map[string]bool{"node_modules/x/a.test.js": true, "pkg/.venv/lib/conftest.py": true, "zz_test.go": false, "src/vendored_test.go": false} {
		if got := inInstalled(p); got != want {
			t.Errorf("inInstalled(%s) = %v", p, got)
		}
	}
}
