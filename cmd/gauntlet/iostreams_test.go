package main

import "testing"

func TestUseColor(t *testing.T) {
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
		t.Setenv("NO_COLOR", tt.noColor)
		t.Setenv("TERM", tt.term)
		if got := useColor(tt.when, tt.tty); got != tt.want {
			t.Errorf("useColor(%q, tty=%v) with NO_COLOR=%q TERM=%q = %v, want %v", tt.when, tt.tty, tt.noColor, tt.term, got, tt.want)
		}
	}
}
