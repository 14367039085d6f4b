// Package atomicfile replaces a file's contents all at once, so that a reader (or a crash) never
// sees half a file: a temporary file in the same directory is written, synced and renamed over it.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// rename is os.Rename; tests replace it to make the last step fail.
var rename = os.Rename

// Write puts data at path. An existing file keeps its permission bits; a new one gets perm. When
// path is a symlink the file it points to is replaced, so that the link itself survives.
// Missing parent directories are created.
func Write(path string, data []byte, perm fs.FileMode) error {
	target, mode, err := resolve(path, perm)
	if err != nil {
		return err
	}
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	committed := false
	defer discardUnless(&committed, tmp)
	if err := fill(tmp, data, mode); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := rename(tmp.Name(), target); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	committed = true
	return nil
}

// fill writes data to the temporary file, gives it mode, syncs and closes it.
func fill(tmp *os.File, data []byte, mode fs.FileMode) error {
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	// CreateTemp makes the file 0600 whatever the umask; the final file must look like its
	// predecessor (or like any new file the user would have made).
	if err := tmp.Chmod(mode); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	return tmp.Close()
}

// discardUnless removes the temporary file unless it was renamed into place.
func discardUnless(committed *bool, tmp *os.File) {
	if !*committed {
		tmp.Close()
		os.Remove(tmp.Name())
	}
}

// resolve follows a symlink at path and returns the file to replace and the mode it must get.
func resolve(path string, perm fs.FileMode) (string, fs.FileMode, error) {
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return path, perm, nil
	case err != nil:
		return "", 0, fmt.Errorf("write %s: %w", path, err)
	}
	target := path
	if info.Mode()&fs.ModeSymlink != 0 {
		if target, info, err = followLink(path); err != nil {
			return "", 0, err
		}
	}
	if !info.Mode().IsRegular() {
		return "", 0, fmt.Errorf("write %s: not a regular file", path)
	}
	return target, info.Mode().Perm(), nil
}

// followLink is the file the symlink at path points to.
func followLink(path string) (string, fs.FileInfo, error) {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", nil, fmt.Errorf("write %s: follow symlink: %w", path, err)
	}
	info, err := os.Stat(target)
	if err != nil {
		return "", nil, fmt.Errorf("write %s: %w", path, err)
	}
	return target, info, nil
}
