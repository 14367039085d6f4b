package state

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestWriteFileAtomicRoundTrip(t *testing.T) {
	d := openTestDir(t)
	for _, name := range []string{"last-run.json", "state/ledger.json", "state/cache/deep.json"} {
		for _, content := range []string{"first", "second, longer than the first"} {
			if err := d.WriteFileAtomic(name, []byte(content)); err != nil {
				t.Fatalf("WriteFileAtomic(%q): %v", name, err)
			}
			got, err := d.ReadFile(name)
			if err != nil {
				t.Fatalf("ReadFile(%q): %v", name, err)
			}
			if string(got) != content {
				t.Errorf("ReadFile(%q) = %q, want %q", name, got, content)
			}
		}
	}
	// No temp file may be left beside the target.
	entries, err := os.ReadDir(filepath.Join(d.Path(), "state"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "ledger.json" && e.Name() != "cache" {
			t.Errorf("unexpected leftover %q in state/", e.Name())
		}
	}
}

func TestWriteFileAtomicReplacesPlantedSymlinkWithoutFollowing(t *testing.T) {
	d := openTestDir(t)
	outsideFile := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(outsideFile, []byte("original"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(d.Path(), "last-run.json")
	mustSymlink(t, outsideFile, link)

	if err := d.WriteFileAtomic("last-run.json", []byte("new")); err != nil {
		t.Fatalf("WriteFileAtomic: %v", err)
	}
	if got, _ := os.ReadFile(outsideFile); string(got) != "original" {
		t.Errorf("outside file changed to %q", got)
	}
	info, err := os.Lstat(link)
	if err != nil {
		t.Fatal(err)
	}
	if !info.Mode().IsRegular() {
		t.Errorf("last-run.json is %v, want a regular file replacing the link", info.Mode())
	}
}

func TestWritesThroughPlantedDirectorySymlinkStayInside(t *testing.T) {
	d := openTestDir(t)
	outside := t.TempDir()
	mustSymlink(t, outside, filepath.Join(d.Path(), "state"))

	err := d.WriteFileAtomic("state/ledger.json", []byte("x"))
	if err == nil {
		t.Error("WriteFileAtomic through a link leaving the state dir succeeded, want an error")
	}
	assertEmpty(t, outside)
}

func TestRemoveAllRemovesLinkNotTarget(t *testing.T) {
	d := openTestDir(t)
	outside := t.TempDir()
	precious := filepath.Join(outside, "precious")
	if err := os.WriteFile(precious, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustSymlink(t, outside, filepath.Join(d.Path(), "logs"))

	if err := d.RemoveAll("logs"); err != nil {
		t.Fatalf("RemoveAll: %v", err)
	}
	if _, err := os.Stat(precious); err != nil {
		t.Errorf("file outside the state dir was removed: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(d.Path(), "logs")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("logs link still there: %v", err)
	}
}

func TestRemoveAllRemovesTreeAndToleratesMissing(t *testing.T) {
	d := openTestDir(t)
	if err := d.WriteFileAtomic("state/a/b.json", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := d.RemoveAll("state"); err != nil {
		t.Fatalf("RemoveAll: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(d.Path(), "state")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("state still exists: %v", err)
	}
	if err := d.RemoveAll("state"); err != nil {
		t.Errorf("RemoveAll of a missing name: %v", err)
	}
	if _, err := os.Stat(d.Path()); err != nil {
		t.Errorf("state dir itself must survive: %v", err)
	}
}

func TestReadFileMissingIsNotExist(t *testing.T) {
	d := openTestDir(t)
	_, err := d.ReadFile("last-run.json")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile of a missing file: %v, want fs.ErrNotExist", err)
	}
}

func TestNamesMustStayInside(t *testing.T) {
	d := openTestDir(t)
	for _, name := range []string{"", ".", "..", "../escape", "/etc/passwd", "state/../../escape"} {
		t.Run(name, func(t *testing.T) {
			if err := d.WriteFileAtomic(name, []byte("x")); err == nil {
				t.Error("WriteFileAtomic accepted it")
			}
			if _, err := d.ReadFile(name); err == nil {
				t.Error("ReadFile accepted it")
			}
			if err := d.RemoveAll(name); err == nil {
				t.Error("RemoveAll accepted it")
			}
		})
	}
	if _, err := os.Stat(d.Path()); err != nil {
		t.Errorf("state dir itself must survive: %v", err)
	}
}

// Temp files of writes that were killed do not pile up: a later write of the same file removes
// the stale ones, a fresh one (a concurrent writer's) stays, and RemoveTemps takes the rest.
func TestStaleTempFilesAreRemoved(t *testing.T) {
	project := t.TempDir()
	d, err := Open(project)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	stateDir := filepath.Join(project, Name, "state")
	if err := os.MkdirAll(stateDir, 0o755); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(stateDir, ".ledger.json.tmp-dead")
	fresh := filepath.Join(stateDir, ".ledger.json.tmp-live")
	other := filepath.Join(stateDir, ".other.json.tmp-dead")
	for _, p := range []string{stale, fresh, other} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * StaleTempAge)
	for _, p := range []string{stale, other} {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.WriteFileAtomic("state/ledger.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("stale temp file of the written file is still there: %v", err)
	}
	for _, p := range []string{fresh, other} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed by an unrelated write: %v", filepath.Base(p), err)
		}
	}
	n, err := d.RemoveTemps()
	if err != nil || n != 2 {
		t.Fatalf("RemoveTemps = %d, %v; want 2", n, err)
	}
	if _, err := os.Stat(filepath.Join(stateDir, "ledger.json")); err != nil {
		t.Errorf("the real file was removed: %v", err)
	}
}
