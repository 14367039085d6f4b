package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionInfo(t *testing.T) {
	savedVersion, savedCommit := version, commit
	t.Cleanup(func() { version, commit = savedVersion, savedCommit })

	// The Makefile's -ldflags -X main.version/main.commit win over everything; the version is
	// spelt one way whoever stamped it (git describe says v1.2.3, goreleaser 1.2.3).
	for _, stamped := range []string{"v1.2.3", "1.2.3"} {
		version, commit = stamped, "abc1234"
		if v, c := versionInfo(); v != "1.2.3" || c != "abc1234" {
			t.Errorf("with ldflags %s: versionInfo() = %q, %q; want 1.2.3, abc1234", stamped, v, c)
		}
	}

	// Without them: the module build info, else placeholders; never empty, never "(devel)".
	version, commit = "", ""
	v, c := versionInfo()
	wantV, wantC := "dev", "unknown"
	if info, ok := debug.ReadBuildInfo(); ok {
		if mv := info.Main.Version; mv != "" && mv != "(devel)" {
			wantV = strings.TrimPrefix(mv, "v") // go install's module version, v0.4.1
		}
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" {
				wantC = s.Value
			}
		}
	}
	if v != wantV || c != wantC {
		t.Errorf("without ldflags: versionInfo() = %q, %q; want %q, %q", v, c, wantV, wantC)
	}
}

func TestCanonicalVersion(t *testing.T) {
	for in, want := range map[string]string{
		"v0.4.1":                               "0.4.1",
		"0.4.1":                                "0.4.1",
		"v0.4.2-0.20260101120000-abcdef123456": "0.4.2-0.20260101120000-abcdef123456",
		"v0.4.1-3-gabcdef1-dirty":              "0.4.1-3-gabcdef1-dirty",
		"dev":                                  "dev",
		"vendor-build":                         "vendor-build",
	} {
		if got := canonicalVersion(in); got != want {
			t.Errorf("canonicalVersion(%q) = %q, want %q", in, got, want)
		}
	}
}

// A build from a clone without tags has its commit as its version (make build's git describe):
// the version line names it once.
func TestVersionLineNamesATaglessCommitOnce(t *testing.T) {
	savedVersion, savedCommit := version, commit
	t.Cleanup(func() { version, commit = savedVersion, savedCommit })
	version, commit = "012927c", "012927c"
	if got := versionLine(); !strings.HasPrefix(got, "gauntlet 012927c (go") || strings.Count(got, "012927c") != 1 {
		t.Errorf("versionLine() = %q, want the commit once, then the Go version", got)
	}
	version, commit = "v1.2.3", "abc1234"
	if got := versionLine(); !strings.HasPrefix(got, "gauntlet 1.2.3 (commit abc1234, go") {
		t.Errorf("versionLine() = %q, want the version and its commit", got)
	}
}
