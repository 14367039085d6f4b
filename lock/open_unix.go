//go:build unix

package lock

import (
	"os"
	"syscall"

	"github.com/gofrs/flock"
)

// noFollow makes the open itself refuse a symlink at the lock path (ELOOP), with no window
// between a check and the open.
const noFollow = syscall.O_NOFOLLOW

// refuseSymlink has nothing to do where the open refuses symlinks itself.
func refuseSymlink(string) error { return nil }

// projectLock is the lock on the project directory (see pair): flock(2) locks a directory
// opened read-only.
func projectLock(dir string) *flock.Flock {
	return flock.New(dir, flock.SetFlag(os.O_RDONLY|syscall.O_DIRECTORY))
}
