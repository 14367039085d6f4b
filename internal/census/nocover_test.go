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

// go's -C must be the first flag of the command line ("-C flag must be first flag"): what the
// census and coverage add goes after it.
func TestGoTestDashCStaysFirst(t *testing.T) {
	for _, tt := range []struct{ cmd, want string }{
		{"go test -C sub ./...", "go test -C sub -json ./..."},
		{"go test -C=sub -v ./...", "go test -C=sub -json -v ./..."},
		{"go test ./...", "go test -json ./..."},
	} {
		reqs := Detect(Command{Shell: tt.cmd})
		if got := Apply(Command{Shell: tt.cmd}, reqs, func(int) string { return "" }, posixQuote).Shell; got != tt.want {
			t.Errorf("Apply(%q) = %q, want %q", tt.cmd, got, tt.want)
		}
		argv := strings.Fields(tt.cmd)
		if got := strings.Join(Apply(Command{Argv: argv}, Detect(Command{Argv: argv}), func(int) string { return "" }, posixQuote).Argv, " "); got != tt.want {
			t.Errorf("Apply(argv %q) = %q, want %q", tt.cmd, got, tt.want)
		}
	}
}
