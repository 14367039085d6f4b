// Package state owns gauntlet's `.gauntlet/` state directory at the project root. Every access
// goes through an os.Root so that a symlink planted inside can never redirect a write outside.
package state

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Name is the state directory's name inside the project root.
const Name = ".gauntlet"

// Dir is an open state directory.
type Dir struct {
	root    *os.Root
	path    string
	project string // absolute parent directory, to reopen the directory when a gate removed it
	name    string // the directory's name inside project
	// standsFor is, for a fallback (OpenFallback), the project's .gauntlet it stands in for.
	standsFor string
}

// Open opens <projectRoot>/.gauntlet, creating it when missing. A `.gauntlet` that is a symlink is
// refused even when it points inside the project: other packages (the lock) open files by path,
// and a link would make their view differ from this Root's.
func Open(projectRoot string) (*Dir, error) {
	return OpenIn(projectRoot, Name)
}

// SharedName is the directory gauntlet keeps in a repository's common git directory, for what
// every worktree of the repository shares (the per-gate cache).
const SharedName = "gauntlet"

// OpenIn opens the directory name inside parent, creating it when missing, with the same
// guarantees as Open: never through a symlink, every access through an os.Root.
func OpenIn(parent, name string) (*Dir, error) {
	absRoot, err := filepath.Abs(parent)
	if err != nil {
		return nil, fmt.Errorf("state dir in %s: %w", parent, err)
	}
	path := filepath.Join(absRoot, name)

	project, err := os.OpenRoot(absRoot)
	if err != nil {
		return nil, stateErr(path, "open project root", err)
	}
	defer project.Close()

	created := true
	if err := project.Mkdir(name, 0o755); errors.Is(err, fs.ErrExist) {
		created = false
	} else if err != nil {
		return nil, stateErr(path, "mkdir", err)
	}
	info, err := project.Lstat(name)
	if err != nil {
		return nil, stateErr(path, "stat", err)
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("state dir %s: is a symbolic link; refusing to follow it", path)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("state dir %s: not a directory", path)
	}
	root, err := project.OpenRoot(name)
	if err != nil {
		return nil, stateErr(path, "open", err)
	}
	if created {
		// Everything in here is local state: a repository whose .gitignore does not list the
		// directory (init adds it, but a hook or CI may run first) must not see it as untracked.
		// Best effort: a directory that cannot take the file still works.
		_ = root.WriteFile(gitignoreName, []byte(gitignoreContent), 0o644)
	}
	return &Dir{root: root, path: path, project: absRoot, name: name}, nil
}

// gitignoreName and gitignoreContent are the .gitignore a new state directory gets: git ignores
// the directory's whole content, the file included.
const (
	gitignoreName    = ".gitignore"
	gitignoreContent = "*\n"
)

// revive reopens the state directory when the one this Dir holds is no longer at its path: a
// gate ran `git clean -xdf` or `rm -rf .gauntlet`. The run still has its report to record, and
// writing it into a deleted directory would lose it. It reports whether a new one was opened.
func (d *Dir) revive() bool {
	held, err := d.root.Stat(".")
	if err != nil {
		return false
	}
	if now, err := os.Lstat(d.path); err == nil && os.SameFile(held, now) {
		return false
	}
	fresh, err := OpenIn(d.project, d.name)
	if err != nil {
		return false
	}
	d.root.Close()
	d.root = fresh.root
	return true
}

// Path is the absolute path of the state directory.
func (d *Dir) Path() string { return d.path }

// Close releases the directory handle.
func (d *Dir) Close() error {
	if err := d.root.Close(); err != nil {
		return stateErr(d.path, "close", err)
	}
	return nil
}

// stateErr names the state directory and the operation: "state dir /x/.gauntlet: mkdir:
// permission denied". The CLI prints it as is.
func stateErr(path, op string, err error) error {
	return opErr("state dir "+path, op, err)
}

// opErr drops the os error's own op and relative path, which would only repeat the subject less
// clearly. The underlying errno stays in the chain for errors.Is.
func opErr(subject, op string, err error) error {
	var pathErr *fs.PathError
	var linkErr *os.LinkError
	switch {
	case errors.As(err, &pathErr):
		err = pathErr.Err
	case errors.As(err, &linkErr):
		err = linkErr.Err
	}
	return fmt.Errorf("%s: %s: %w", subject, op, err)
}
