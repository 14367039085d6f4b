//go:build unix

package state

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// With the files already there, the probe is a second name for one of them: it is gone after,
// and the file has its one name again.
func TestOpenUsableProbesWithALinkAndRemovesIt(t *testing.T) {
	project := t.TempDir()
	mustMkdir(t, filepath.Join(project, Name, "state"))
	for _, f := range []string{"lock", "state/history.jsonl"} {
		mustWrite(t, filepath.Join(project, Name, filepath.FromSlash(f)), "kept")
	}
	d, err := OpenUsable(project, hookFiles...)
	if err != nil {
		t.Fatalf("OpenUsable with the files present: %v", err)
	}
	d.Close()
	for _, f := range []string{"lock", "state/history.jsonl"} {
		p := filepath.Join(project, Name, filepath.FromSlash(f))
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if links := info.Sys().(*syscall.Stat_t).Nlink; links != 1 {
			t.Errorf("%s has %d links after the probe, want 1", f, links)
		}
		if b, _ := os.ReadFile(p); string(b) != "kept" {
			t.Errorf("%s holds %q after the probe, want it untouched", f, b)
		}
	}
	for _, dir := range []string{Name, filepath.Join(Name, "state")} {
		entries, _ := os.ReadDir(filepath.Join(project, dir))
		for _, e := range entries {
			if isTemp(e.Name()) {
				t.Errorf("probe %s left in %s", e.Name(), dir)
			}
		}
	}
}
