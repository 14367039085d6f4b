//go:build windows

package lock

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"github.com/gofrs/flock"
)

// noFollow: Windows has no O_NOFOLLOW; refuseSymlink checks instead. Creating a symlink there
// needs Developer Mode or an administrator, which narrows who could race the check.
const noFollow = 0

// refuseSymlink refuses a symbolic link (or junction) at the lock path, as O_NOFOLLOW does on
// Unix.
func refuseSymlink(path string) error {
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if info.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0 {
		return fmt.Errorf("%w", syscall.ELOOP)
	}
	return nil
}

// projectLock is nil on Windows: the lock file cannot be deleted there while a run holds it open
// (Go opens files without FILE_SHARE_DELETE), so the lock file alone keeps runs apart, and
// LockFileEx cannot lock a directory handle anyway.
func projectLock(string) *flock.Flock { return nil }
