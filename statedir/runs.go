package statedir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"
)

// logsDir holds one directory per run, named by its run id.
const logsDir = "logs"

// runIDLayout makes run ids sort by time as plain strings.
const runIDLayout = "20060102T150405Z"

var runIDPattern = regexp.MustCompile(`^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{4}$`)

// NewRunID returns an id such as "20261121T093000Z-4f2a": the UTC time to the second, then a
// random suffix so that two runs started in the same second get different log directories.
func NewRunID(now time.Time) string {
	return now.UTC().Format(runIDLayout) + "-" + randomHex(2)
}

// NewRunLogs creates logs/<runID> and returns a Root confined to it, for the gates' log files,
// plus its project-relative path for reports (".gauntlet/logs/<runID>"). The caller closes the Root.
func (d *Dir) NewRunLogs(runID string) (*os.Root, string, error) {
	if !isPathComponent(runID) {
		return nil, "", fmt.Errorf("state dir %s: invalid run id %q", d.path, runID)
	}
	rel := path.Join(logsDir, runID)
	if err := d.root.MkdirAll(rel, 0o755); err != nil {
		return nil, "", opErr(d.display(rel), "mkdir", err)
	}
	logs, err := d.root.OpenRoot(rel)
	if err != nil {
		return nil, "", opErr(d.display(rel), "open", err)
	}
	return logs, path.Join(Name, rel), nil
}

// PruneRuns keeps the newest `keep` run directories under logs/ and removes the others, except
// `current`, which is never removed (a run must not delete its own logs, whatever keep says).
// Only entries that look like run ids are considered, so a file a user put there is left alone.
func (d *Dir) PruneRuns(keep int, current string) error {
	runs, err := d.listRuns()
	if err != nil {
		return err
	}
	slices.Sort(runs)
	slices.Reverse(runs)
	var errs []error
	kept := 0
	for _, run := range runs {
		if run == current {
			continue
		}
		if kept < keep {
			kept++
			continue
		}
		rel := path.Join(logsDir, run)
		if err := d.root.RemoveAll(rel); err != nil {
			errs = append(errs, opErr(d.display(rel), "remove", err))
		}
	}
	return errors.Join(errs...)
}

func (d *Dir) listRuns() ([]string, error) {
	f, err := d.root.Open(logsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, opErr(d.display(logsDir), "open", err)
	}
	defer f.Close()

	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, opErr(d.display(logsDir), "read", err)
	}
	var runs []string
	for _, e := range entries {
		if e.IsDir() && runIDPattern.MatchString(e.Name()) {
			runs = append(runs, e.Name())
		}
	}
	return runs, nil
}

// isPathComponent accepts a name that is exactly one directory entry below its parent.
func isPathComponent(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.ContainsAny(name, "/\x00")
}
