package stophook

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A panic anywhere in the hook must become an allowing reply with the cause, never a crash that
// the host would report as a hook failure.
func TestRunRecoversPanicIntoErrorReply(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".gauntlet.yml"), []byte("version: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	out := Run(context.Background(), Options{
		Stdin:  strings.NewReader(`{"session_id":"s","hook_event_name":"Stop"}`),
		Stderr: &stderr,
		Getenv: func(name string) string {
			if name == "CLAUDE_PROJECT_DIR" {
				panic("boom in getenv")
			}
			return ""
		},
		Cwd: dir,
	})
	if out.ExitCode != 0 {
		t.Errorf("exit code %d, want 0", out.ExitCode)
	}
	want := `{"systemMessage":"gauntlet: gates not run: internal error: boom in getenv; stop allowed"}` + "\n"
	if string(out.Stdout) != want {
		t.Errorf("stdout = %q, want %q", out.Stdout, want)
	}
	if !strings.Contains(stderr.String(), "boom in getenv") {
		t.Errorf("stderr does not name the panic: %q", stderr.String())
	}
}

// The host's dialect applies to the panic reply too: Cursor never gets a systemMessage.
func TestRunPanicReplyUsesForcedHost(t *testing.T) {
	out := Run(context.Background(), Options{
		Stdin:  strings.NewReader(`{"session_id":"s"}`),
		Stderr: &bytes.Buffer{},
		Getenv: func(string) string { panic("boom") },
		Host:   HostCursor,
	})
	if got := string(out.Stdout); got != "{}\n" {
		t.Errorf("stdout = %q, want {}", got)
	}
}
