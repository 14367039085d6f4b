package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// Find looks for .gauntlet.yml, then .gauntlet.yaml, in dir and each parent, up to and
// including the first directory holding a .git entry (a worktree or submodule has a .git file),
// or up to the filesystem root outside git. The error wraps ErrNotFound when there is none.
//
// Outside git the search stops at a directory owned by another user (root excepted): what lies
// above it is not the user's project. A config file that exists but is not a regular file (a
// FIFO, a device) is an error naming it, never silently skipped.
func Find(dir string) (string, error) {
	path, _, err := find(dir)
	return path, err
}

func find(dir string) (string, trust, error) {
	start, err := filepath.Abs(dir)
	if err != nil {
		return "", trust{}, fmt.Errorf("find config from %s: %w", dir, err)
	}
	t := trust{euid: os.Geteuid()}
	t.gitRoot, t.inGit = gitTop(start)
	for d := start; ; {
		if !t.inGit && !safeDirectory(d) {
			if info, err := os.Stat(d); err == nil && !t.ownerOK(info) {
				if found, ok := existing(d); ok {
					return found, t, t.checkFile(found, info)
				}
				break
			}
		}
		if found, ok := existing(d); ok {
			return found, t, nil
		}
		if t.inGit && d == t.gitRoot {
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return "", t, fmt.Errorf("%w in %s or its parents up to the repository root", ErrNotFound, start)
}

// existing returns the config file in d, if there is any entry by one of its names.
func existing(d string) (string, bool) {
	for _, name := range []string{FileName, AltFileName} {
		candidate := filepath.Join(d, name)
		if _, err := os.Lstat(candidate); err == nil {
			return candidate, true
		}
	}
	return "", false
}

// gitTop is the nearest directory at or above start holding a .git entry.
func gitTop(start string) (string, bool) {
	for d := start; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
}

// notRegular turns safefile's refusal into a config problem at the file, so that it is reported
// (exit 2) like any other problem in it.
func notRegular(path string, err error) error {
	var nr *safefile.NotRegularError
	if errors.As(err, &nr) {
		return &Errors{Problems: []Problem{{File: DisplayPath(path), Msg: "not a regular file (" + nr.Mode.Type().String() + "); refusing to read it"}}}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read config: %w", err) // a missing -c FILE: a usage mistake
	}
	msg := err.Error()
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		msg = pathErr.Err.Error()
	}
	return &Errors{Problems: []Problem{{File: DisplayPath(path), Msg: "cannot be read: " + msg}}}
}
