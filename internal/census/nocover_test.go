package census

import (
	"strings"
	"testing"
)

// go test fails when asked for a cover profile while it fuzzes or with coverage turned off, so
// the request says why it cannot be asked, from its words, a GOFLAGS before it, or the gate's
// GOFLAGS; a plain run, and -cover itself, can be.
func TestNoCoverSaysWhenGoTestCannotWriteAProfile(t *testing.T) {
	for _, tt := range []struct{ cmd, why string }{
		{"go test ./...", ""},
		{"go test -cover ./...", ""},
		{"go test -cover=true ./...", ""},
		{"go test -run=^$ -fuzz=FuzzAdd -fuzztime=10s .", "-fuzz"},
		{"go test -fuzz FuzzAdd .", "-fuzz"},
		{"go test -cover=false ./...", "-cover=false"},
		{"GOFLAGS=-cover=false go test ./...", "-cover=false"},
	} {
		reqs := Detect(Command{Shell: tt.cmd})
		if len(reqs) != 1 {
			t.Fatalf("Detect(%q) = %v", tt.cmd, reqs)
		}
		if got := reqs[0].NoCover; tt.why == "" && got != "" || !strings.Contains(got, tt.why) {
			t.Errorf("%s: NoCover = %q, want %q", tt.cmd, got, tt.why)
		}
	}
	if got := (GoShow{}).WithGOFLAGS("-mod=mod -fuzz=FuzzX").NoCover; !strings.Contains(got, "-fuzz") {
		t.Errorf("GOFLAGS with -fuzz: NoCover = %q", got)
	}
}
