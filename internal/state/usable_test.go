package state

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/testos"
)

// The stop hook's files, as it asks OpenUsable about them.
var hookFiles = []string{"lock", "state/stop-hook.json", "state/history.jsonl", "logs/"}

func TestOpenUsableNamesWhatTheAgentBroke(t *testing.T) {
	tests := []struct {
		name  string
		plant func(t *testing.T, project string)
		want  string // the BrokenError's text
	}{
		{"the directory replaced by a file", func(t *testing.T, project string) {
			mustWrite(t, filepath.Join(project, Name), "x")
		}, ".gauntlet is not a directory"},
		{"the directory replaced by a symlink", func(t *testing.T, project string) {
			mustSymlink(t, t.TempDir(), filepath.Join(project, Name))
		}, ".gauntlet is a symbolic link"},
		{"the ledger replaced by a directory", func(t *testing.T, project string) {
			mustMkdir(t, filepath.Join(project, Name, "state", "stop-hook.json"))
		}, ".gauntlet/state/stop-hook.json is not a regular file"},
		{"the lock replaced by a FIFO", func(t *testing.T, project string) {
			mustMkdir(t, filepath.Join(project, Name))
			mustMkfifo(t, filepath.Join(project, Name, "lock"))
		}, ".gauntlet/lock is not a regular file"},
		{"the state folder replaced by a file", func(t *testing.T, project string) {
			mustMkdir(t, filepath.Join(project, Name))
			mustWrite(t, filepath.Join(project, Name, "state"), "x")
		}, ".gauntlet/state cannot be written"},
		{"the logs folder replaced by a file", func(t *testing.T, project string) {
			mustMkdir(t, filepath.Join(project, Name))
			mustWrite(t, filepath.Join(project, Name, "logs"), "x")
		}, ".gauntlet/logs is not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			project := t.TempDir()
			tt.plant(t, project)
			d, err := OpenUsable(project, hookFiles...)
			if err == nil {
				d.Close()
				t.Fatal("OpenUsable accepted a broken state directory")
			}
			var broken *BrokenError
			if !errors.As(err, &broken) {
				t.Fatalf("error %v is no *BrokenError", err)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error = %q, want it to start with %q", err, tt.want)
			}
		})
	}
}

func TestOpenUsableTakesAHealthyDirectoryAndLeavesNoProbe(t *testing.T) {
	project := t.TempDir()
	d, err := OpenUsable(project, hookFiles...)
	if err != nil {
		t.Fatalf("OpenUsable on a fresh project: %v", err)
	}
	defer d.Close()
	mustWrite(t, filepath.Join(project, Name, "lock"), "")
	again, err := OpenUsable(project, hookFiles...)
	if err != nil {
		t.Fatalf("OpenUsable with the files present: %v", err)
	}
	again.Close()
	for _, dir := range []string{Name, filepath.Join(Name, "state")} {
		entries, _ := os.ReadDir(filepath.Join(project, dir))
		for _, e := range entries {
			if isTemp(e.Name()) {
				t.Errorf("probe %s left in %s", e.Name(), dir)
			}
		}
	}
}

// Permissions bind nobody with CAP_DAC_OVERRIDE: the test means something only without it.
func TestOpenUsableRefusesAReadOnlyDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes whatever the modes say; hook_state_broken.txtar drops the privilege with setpriv")
	}
	project := t.TempDir()
	mustMkdir(t, filepath.Join(project, Name, "state"))
	for _, p := range []string{filepath.Join(project, Name, "state"), filepath.Join(project, Name)} {
		if err := os.Chmod(p, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(p, 0o755) })
	}
	_, err := OpenUsable(project, hookFiles...)
	if err == nil || !strings.HasPrefix(err.Error(), ".gauntlet cannot be written") {
		t.Fatalf("OpenUsable = %v, want .gauntlet cannot be written", err)
	}
}

func TestOpenFallbackStandsForTheProject(t *testing.T) {
	project := filepath.Join(t.TempDir(), Name)
	parent := filepath.Join(t.TempDir(), "projects", "abc")
	d, err := OpenFallback(parent, project)
	if err != nil {
		t.Fatalf("OpenFallback: %v", err)
	}
	defer d.Close()
	if d.Identity() != project {
		t.Errorf("Identity() = %q, want the project's %q", d.Identity(), project)
	}
	if !d.StandsIn() {
		t.Error("StandsIn() = false for a fallback")
	}
	if !strings.HasPrefix(d.Path(), parent) {
		t.Errorf("Path() = %q, not under %q", d.Path(), parent)
	}
	if got := d.RunLogsPrefix("20260101T000000Z-abcd"); got != filepath.Join(d.Path(), "logs", "20260101T000000Z-abcd") {
		t.Errorf("RunLogsPrefix = %q, want the absolute path of its logs", got)
	}
	info, err := os.Stat(parent)
	if err != nil || info.Mode().Perm() != 0o700 {
		t.Errorf("the fallback's parent is %v (%v), want mode 0700: others must not read it", info, err)
	}

	own, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	if own.Identity() != own.Path() || own.StandsIn() || own.RunLogsPrefix("r") != ".gauntlet/logs/r" {
		t.Errorf("a project's own state directory: Identity %q, StandsIn %v, RunLogsPrefix %q", own.Identity(), own.StandsIn(), own.RunLogsPrefix("r"))
	}
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustMkdir(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(path, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mustMkfifo(t *testing.T, path string) {
	t.Helper()
	if err := testos.Mkfifo(path); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
}
