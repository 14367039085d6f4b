package state

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// logsDir holds one directory per run, named by its run id.
const logsDir = "logs"

// runIDLayout makes run ids sort by time as plain strings.
const runIDLayout = "20060102T150405Z"

var runIDPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{4}$`) })

// NewRunID returns an id such as "20261121T093000Z-4f2a": the UTC time to the second, then a
// random suffix so that two runs started in the same second get different log directories.
// ValidRunID reports whether id has the form NewRunID gives.
func ValidRunID(id string) bool { return runIDPattern().MatchString(id) }

func NewRunID(now time.Time) string {
	return now.UTC().Format(runIDLayout) + "-" + randomHex(2)
}

// RunLogsPrefix is the project-relative path of a run's log directory (".gauntlet/logs/<runID>"),
// as NewRunLogs returns it.
func RunLogsPrefix(runID string) string { return path.Join(Name, logsDir, runID) }

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

// PruneRuns keeps the newest `keep` run directories under logs/, `current` among them, and
// removes the others. `current` is never removed (a run must not delete its own logs, whatever
// keep says). Only entries that look like run ids are considered, so a file a user put there is
// left alone.
func (d *Dir) PruneRuns(keep int, current string) error {
	runs, err := d.listRuns()
	if err != nil {
		return err
	}
	// Newest first. Ids of runs started in the same second differ only by a random suffix, so
	// the directory's modification time breaks the tie.
	slices.SortFunc(runs, func(a, b runDir) int {
		if c := strings.Compare(b.name[:len(runIDLayout)], a.name[:len(runIDLayout)]); c != 0 {
			return c
		}
		return b.modTime.Compare(a.modTime)
	})
	var errs []error
	kept := 0
	if slices.ContainsFunc(runs, func(r runDir) bool { return r.name == current }) {
		kept = 1
	}
	for _, run := range runs {
		if run.name == current {
			continue
		}
		if kept < keep {
			kept++
			continue
		}
		rel := path.Join(logsDir, run.name)
		if err := d.root.RemoveAll(rel); err != nil {
			errs = append(errs, opErr(d.display(rel), "remove", err))
		}
	}
	return errors.Join(errs...)
}

type runDir struct {
	name    string
	modTime time.Time
}

func (d *Dir) listRuns() ([]runDir, error) {
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
	var runs []runDir
	for _, e := range entries {
		if !e.IsDir() || !runIDPattern().MatchString(e.Name()) {
			continue
		}
		run := runDir{name: e.Name()}
		if info, err := e.Info(); err == nil {
			run.modTime = info.ModTime()
		}
		runs = append(runs, run)
	}
	return runs, nil
}

// isPathComponent accepts a name that is exactly one directory entry below its parent.
func isPathComponent(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.ContainsAny(name, "/\x00")
}
