package state

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"time"
)

// tmpDir holds, per run, the files its gates write for gauntlet to read (a test runner's report).
const tmpDir = "tmp"

// StaleRunTempAge is how old a run's temp directory must be before another run counts it as left
// by a run that was killed: no run lasts that long.
const StaleRunTempAge = 24 * time.Hour

// NewRunTemp creates tmp/<runID> and returns a Root confined to it, for reading what the gates
// wrote there, and its absolute path, which the gates are given. Directories of runs killed
// before they removed theirs are removed once stale.
func (d *Dir) NewRunTemp(runID string) (*os.Root, string, error) {
	if !isPathComponent(runID) {
		return nil, "", fmt.Errorf("state dir %s: invalid run id %q", d.path, runID)
	}
	d.removeStaleRunTemps(runID, time.Now())
	rel := path.Join(tmpDir, runID)
	if err := d.root.MkdirAll(rel, 0o755); err != nil {
		return nil, "", opErr(d.display(rel), "mkdir", err)
	}
	root, err := d.root.OpenRoot(rel)
	if err != nil {
		return nil, "", opErr(d.display(rel), "open", err)
	}
	return root, filepath.Join(d.path, tmpDir, runID), nil
}

// RemoveRunTemp removes tmp/<runID> and what is in it, and tmp itself when no other run has a
// directory there: nothing of a run that ended stays for clean to report.
func (d *Dir) RemoveRunTemp(runID string) error {
	if !isPathComponent(runID) {
		return fmt.Errorf("state dir %s: invalid run id %q", d.path, runID)
	}
	if err := d.RemoveAll(path.Join(tmpDir, runID)); err != nil {
		return err
	}
	_ = d.root.Remove(tmpDir) // fails, as it should, while another run's directory is there
	return nil
}

func (d *Dir) removeStaleRunTemps(current string, now time.Time) {
	f, err := d.root.Open(tmpDir)
	if err != nil {
		return
	}
	entries, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.Name() == current || !e.IsDir() {
			continue
		}
		if info, err := e.Info(); err == nil && now.Sub(info.ModTime()) > StaleRunTempAge {
			_ = d.root.RemoveAll(path.Join(tmpDir, e.Name()))
		}
	}
}
