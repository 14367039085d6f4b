package main

import (
	"runtime/debug"
	"testing"
)

func TestVersionInfo(t *testing.T) {
	savedVersion, savedCommit := version, commit
	t.Cleanup(func() { version, commit = savedVersion, savedCommit })

	// The Makefile's -ldflags -X main.version/main.commit win over everything.
	version, commit = "v1.2.3", "abc1234"
	if v, c := versionInfo(); v != "v1.2.3" || c != "abc1234" {
		t.Errorf("with ldflags: versionInfo() = %q, %q; want v1.2.3, abc1234", v, c)
	}

	// Without them: the module build info, else placeholders; never empty, never "(devel)".
	version, commit = "", ""
	v, c := versionInfo()
	wantV, wantC := "dev", "unknown"
	if info, ok := debug.ReadBuildInfo(); ok {
		if mv := info.Main.Version; mv != "" && mv != "(devel)" {
			wantV = mv
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
