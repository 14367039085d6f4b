package main

import (
	"testing"
	"time"
)

func TestColorEnabled(t *testing.T) {
	tests := []struct {
		when          string
		tty           bool
		noColor, term string
		want          bool
	}{
		{"auto", true, "", "xterm-256color", true},
		{"auto", false, "", "xterm-256color", false},
		{"auto", true, "1", "xterm-256color", false},
		{"auto", true, "", "dumb", false},
		{"always", false, "1", "dumb", true},
		{"never", true, "", "xterm", false},
	}
	for _, tt := range tests {
		ios, _, _ := testStreams("", []string{"NO_COLOR=" + tt.noColor, "TERM=" + tt.term}, "/", time.Time{})
		if got := ios.ColorEnabled(tt.when, tt.tty); got != tt.want {
			t.Errorf("ColorEnabled(%q, tty=%v) with NO_COLOR=%q TERM=%q = %v, want %v", tt.when, tt.tty, tt.noColor, tt.term, got, tt.want)
		}
	}
}

func TestIsCI(t *testing.T) {
	for value, want := range map[string]bool{"": false, "0": false, "false": false, " No ": false, "off": false, "true": true, "1": true, "woodpecker": true} {
		ios, _, _ := testStreams("", []string{"CI=" + value}, "/", time.Time{})
		if got := ios.IsCI(); got != want {
			t.Errorf("CI=%q: IsCI() = %v, want %v", value, got, want)
		}
	}
	ios, _, _ := testStreams("", nil, "/", time.Time{})
	if ios.IsCI() {
		t.Error("IsCI() without CI set")
	}
}

// The streams of a test are its own: nothing of the process's environment leaks in.
func TestTestStreamsAreIsolated(t *testing.T) {
	t.Setenv("GAUNTLET_LEAK", "x")
	ios, _, _ := testStreams("", []string{"A=1", "A=2"}, "/w", time.Unix(5, 0))
	if _, ok := ios.LookupEnv("GAUNTLET_LEAK"); ok {
		t.Error("the process's environment leaked into the test streams")
	}
	if ios.Getenv("A") != "2" {
		t.Errorf("A = %q, want the last entry, 2", ios.Getenv("A"))
	}
	if wd, _ := ios.Getwd(); wd != "/w" || !ios.Now().Equal(time.Unix(5, 0)) {
		t.Errorf("wd %q now %v", wd, ios.Now())
	}
	if in, restore := ios.PollableIn(); in != ios.In {
		t.Error("PollableIn replaced a reader that is not the process's stdin")
	} else {
		restore()
	}
}
