package state

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// BrokenError says why a project's state directory cannot hold gauntlet's state, about the
// project's own path (".gauntlet", ".gauntlet/state/stop-hook.json"): one command of the gated
// agent (`touch .gauntlet`, `chmod -R a-w .gauntlet`) can make it so, and whoever stands in for
// the directory names it.
type BrokenError struct {
	Path string // relative to the project, slash-separated
	What string // "is not a directory", "cannot be written (permission denied)"
	Err  error
}

func (e *BrokenError) Error() string { return e.Path + " " + e.What }
func (e *BrokenError) Unwrap() error { return e.Err }

// OpenUsable opens <projectRoot>/.gauntlet as Open does, then checks that it can take what the
// caller writes there: the directory and each folder of names take a new file, and each of names
// that exists is a regular file that can be written (a folder, for a name ending in "/"). What
// fails is a *BrokenError. The check costs a file created and removed per folder: cheap beside
// finding out halfway through a stop that its attempt cannot be counted.
func OpenUsable(projectRoot string, names ...string) (*Dir, error) {
	absRoot, err := filepath.Abs(projectRoot)
	if err != nil {
		return nil, fmt.Errorf("state dir in %s: %w", projectRoot, err)
	}
	d, err := Open(absRoot)
	if err != nil {
		return nil, brokenDir(filepath.Join(absRoot, Name), err)
	}
	if err := d.usable(names); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// brokenDir says what stands at path instead of a state directory Open could use.
func brokenDir(path string, openErr error) error {
	info, err := os.Lstat(path)
	switch {
	case err != nil:
		return &BrokenError{Path: Name, What: "cannot be created" + because(openErr), Err: openErr}
	case info.Mode()&fs.ModeSymlink != 0:
		return &BrokenError{Path: Name, What: "is a symbolic link", Err: openErr}
	case !info.IsDir():
		return &BrokenError{Path: Name, What: "is not a directory", Err: openErr}
	}
	return &BrokenError{Path: Name, What: "cannot be read" + because(openErr), Err: openErr}
}

// because is the operating system's word for err, " (permission denied)", or "".
func because(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return " (" + errno.Error() + ")"
	}
	return ""
}

func (d *Dir) usable(names []string) error {
	// Each folder is opened once for its checks: through the state directory's Root, every
	// check of a name in a folder would open and close the folder again.
	folders := openFolders{".": d.root}
	defer folders.close()
	for _, dir := range foldersOf(names) {
		r, err := d.folder(dir)
		if err != nil {
			return err
		}
		folders[dir] = r
		if err := probe(r, dir, names); err != nil {
			return err
		}
	}
	for _, n := range names {
		if err := writable(folders[folderOf(n)], n); err != nil {
			return err
		}
	}
	return nil
}

// openFolders are folders of the state directory opened for checks, by their relative names.
type openFolders map[string]*os.Root

// close closes them, all but the state directory's own Root (".").
func (f openFolders) close() {
	for dir, r := range f {
		if dir != "." {
			r.Close()
		}
	}
}

// foldersOf are the folders of names, the state directory itself (".") first.
func foldersOf(names []string) []string {
	folders := []string{"."}
	for _, n := range names {
		if dir := folderOf(n); !slices.Contains(folders, dir) {
			folders = append(folders, dir)
		}
	}
	return folders
}

// folderOf is the folder of one of the caller's names ("state/ledger.json", "logs/"), "." for
// the state directory itself.
func folderOf(name string) string {
	return path.Dir(strings.TrimSuffix(name, "/"))
}

// folder opens dir (relative), created when missing; the state directory's own Root for ".".
func (d *Dir) folder(dir string) (*os.Root, error) {
	if dir == "." {
		return d.root, nil
	}
	if err := d.root.MkdirAll(filepath.FromSlash(dir), 0o755); err != nil {
		return nil, cannotWrite(dir, err)
	}
	r, err := d.root.OpenRoot(filepath.FromSlash(dir))
	if err != nil {
		return nil, cannotWrite(dir, err)
	}
	return r, nil
}

func cannotWrite(dir string, err error) error {
	return &BrokenError{Path: path.Join(Name, dir), What: "cannot be written" + because(err), Err: err}
}

// probe creates and removes a file in dir, which r is. Its name is a temp file's: one a killed
// process leaves behind is removed like theirs. Where one of names (the caller's files) is
// already a regular file in dir, the new name is a second link to it: the folder takes a new
// entry all the same, as its file system judges it, without a new file (which cost a stop a
// quarter of a millisecond on a busy ext4). A link that fails proves nothing; a file is created
// then.
func probe(r *os.Root, dir string, names []string) error {
	name := ".probe.tmp-" + randomHex(4)
	if !linkProbe(r, dir, names, name) {
		f, err := r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return cannotWrite(dir, err)
		}
		f.Close()
	}
	if err := r.Remove(name); err != nil {
		return cannotWrite(dir, err)
	}
	return nil
}

// linkProbe links probe to the first of names that is a regular file directly in dir (which r
// is), and reports whether it could.
func linkProbe(r *os.Root, dir string, names []string, probe string) bool {
	for _, n := range names {
		if strings.HasSuffix(n, "/") || path.Dir(n) != dir {
			continue
		}
		existing := path.Base(n)
		if info, err := r.Lstat(existing); err != nil || !info.Mode().IsRegular() {
			continue
		}
		return r.Link(existing, probe) == nil
	}
	return false
}

// writable checks one name, through r, its folder: absent, or what it must be and open for
// writing.
func writable(r *os.Root, name string) error {
	folder := strings.HasSuffix(name, "/")
	base := path.Base(strings.TrimSuffix(name, "/"))
	shown := path.Join(Name, strings.TrimSuffix(name, "/"))
	info, err := r.Lstat(base)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return &BrokenError{Path: shown, What: "cannot be read" + because(err), Err: err}
	case folder && !info.IsDir():
		return &BrokenError{Path: shown, What: "is not a directory"}
	case folder:
		return nil
	case !info.Mode().IsRegular():
		return &BrokenError{Path: shown, What: "is not a regular file"}
	}
	// O_NONBLOCK: nothing at the name may hold the caller up (it was a regular file a moment ago).
	f, err := r.OpenFile(base, os.O_RDWR|syscall.O_NONBLOCK, 0)
	if err != nil {
		return &BrokenError{Path: shown, What: "cannot be written" + because(err), Err: err}
	}
	f.Close()
	return nil
}

// FallbackName is the directory that stands in for a project's .gauntlet inside its folder of the
// user's state directory.
const FallbackName = "state"

// OpenFallback opens the state directory that stands in for standsFor (a project's .gauntlet,
// absolute) when that cannot be used: <parent>/state, parent being the project's folder in the
// user's state directory, created private (0700) when missing. Its Identity is standsFor, so that
// what is kept per project beside the user's key (the gates still owed, the gates that passed)
// stays one record whichever directory held the rest.
func OpenFallback(parent, standsFor string) (*Dir, error) {
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return nil, stateErr(filepath.Join(parent, FallbackName), "mkdir", err)
	}
	d, err := OpenIn(parent, FallbackName)
	if err != nil {
		return nil, err
	}
	d.standsFor = standsFor
	return d, nil
}

// Identity is the project state directory d is the state of: its own path, or for a fallback the
// path of the project's .gauntlet it stands in for.
func (d *Dir) Identity() string {
	if d.standsFor != "" {
		return d.standsFor
	}
	return d.path
}

// StandsIn says d is a fallback, in the user's state directory.
func (d *Dir) StandsIn() bool { return d.standsFor != "" }

// RunLogsPrefix is where a run's logs are, as reports show it: project-relative
// (".gauntlet/logs/<runID>") for the project's own directory, absolute for a fallback.
func (d *Dir) RunLogsPrefix(runID string) string {
	if d.StandsIn() {
		return filepath.Join(d.path, logsDir, runID)
	}
	return RunLogsPrefix(runID)
}
