package state

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A run's gates write files for gauntlet to read into a directory of the run, which the run
// removes; one left by a run that was killed goes once it is older than any run.
func TestRunTemp(t *testing.T) {
	d := openTestDir(t)
	stale := filepath.Join(d.Path(), "tmp", "20200101T000000Z-dead")
	fresh := filepath.Join(d.Path(), "tmp", "20200101T000000Z-live")
	for _, dir := range []string{stale, fresh} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-StaleRunTempAge - time.Minute)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}

	id := NewRunID(time.Now())
	root, abs, err := d.NewRunTemp(id)
	if err != nil {
		t.Fatalf("NewRunTemp: %v", err)
	}
	defer root.Close()
	if want := filepath.Join(d.Path(), "tmp", id); abs != want {
		t.Errorf("path = %q, want %q", abs, want)
	}
	if err := os.WriteFile(filepath.Join(abs, "test-0.xml"), []byte("<testsuites/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := root.Stat("test-0.xml"); err != nil {
		t.Errorf("a file the gate wrote is not in the root: %v", err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("a stale run's directory is still there: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a directory a run may still use was removed: %v", err)
	}
	if err := d.RemoveRunTemp(id); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(abs); !os.IsNotExist(err) {
		t.Errorf("the run's directory is still there after RemoveRunTemp: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("another run's directory went with this one's: %v", err)
	}
	if err := os.Remove(fresh); err != nil {
		t.Fatal(err)
	}
	again, _, err := d.NewRunTemp(id)
	if err != nil {
		t.Fatal(err)
	}
	again.Close()
	if err := d.RemoveRunTemp(id); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(d.Path(), "tmp")); !os.IsNotExist(err) {
		t.Errorf("tmp stays once no run has a directory there: %v", err)
	}
	for _, bad := range []string{"", "..", "a/b"} {
		if r, _, err := d.NewRunTemp(bad); err == nil {
			r.Close()
			t.Errorf("NewRunTemp(%q) succeeded", bad)
		}
	}
}
