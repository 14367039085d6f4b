// Package lock keeps two gauntlet runs of one project from running at once, with an flock on
// `.gauntlet/lock` that the OS releases when the holder dies, so a crash never leaves it stale.
package lock

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/gofrs/flock"
)

// fileName is the lock file inside the state directory. It is never deleted: removing it on
// release would let a waiter lock the old inode while a newcomer locks a new file.
const fileName = "lock"

// retryEvery is how often a waiting Acquire tries again.
const retryEvery = 100 * time.Millisecond

// Lock is a held lock.
type Lock struct {
	fl   *flock.Flock
	root *os.Root
}

// Acquire takes the lock in stateDir (the `.gauntlet` directory, which must exist). With wait 0
// it tries once; otherwise it retries until the lock is free or wait has elapsed. Either way a
// lock held by another run gives a *BusyError. A ctx cancelled while waiting gives an error
// wrapping the context's cause, so that an interrupt is not mistaken for a busy lock.
func Acquire(ctx context.Context, stateDir string, wait time.Duration) (*Lock, error) {
	path := filepath.Join(stateDir, fileName)
	// O_NOFOLLOW: a symlink planted at the lock path must not make gauntlet create or open a
	// file elsewhere.
	fl := flock.New(path, flock.SetFlag(os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW), flock.SetPermissions(0o644))

	locked, err := tryLock(ctx, fl, wait)
	if err != nil {
		return nil, err
	}
	if !locked {
		holder, known := ReadHolder(stateDir)
		return nil, &BusyError{Holder: holder, Known: known}
	}

	l, err := claim(fl, stateDir)
	if err != nil {
		_ = fl.Unlock()
		return nil, err
	}
	return l, nil
}

func tryLock(ctx context.Context, fl *flock.Flock, wait time.Duration) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("lock %s: %w", fl.Path(), context.Cause(ctx))
	}
	if wait <= 0 {
		locked, err := fl.TryLock()
		if err != nil {
			return false, lockErr(fl.Path(), err)
		}
		return locked, nil
	}

	waitCtx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	locked, err := fl.TryLockContext(waitCtx, retryEvery)
	switch {
	case locked:
		return true, nil
	case ctx.Err() != nil:
		return false, fmt.Errorf("waiting for lock %s: %w", fl.Path(), context.Cause(ctx))
	case errors.Is(err, context.DeadlineExceeded):
		return false, nil
	default:
		return false, lockErr(fl.Path(), err)
	}
}

func lockErr(path string, err error) error {
	if errors.Is(err, syscall.ELOOP) {
		return fmt.Errorf("lock %s: is a symbolic link; refusing to follow it: %w", path, err)
	}
	return fmt.Errorf("lock %s: %w", path, err)
}

// claim records this process as the holder; the lock is already held.
func claim(fl *flock.Flock, stateDir string) (*Lock, error) {
	root, err := os.OpenRoot(stateDir)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", fl.Path(), err)
	}
	if err := writeHolder(root, Holder{PID: os.Getpid(), Started: time.Now()}); err != nil {
		root.Close()
		return nil, fmt.Errorf("lock %s: %w", fl.Path(), err)
	}
	return &Lock{fl: fl, root: root}, nil
}

// Release gives the lock up and keeps the lock file. The sidecar is removed first, while the lock
// is still held, so that it can never delete the record of the next holder. Releasing twice is a
// no-op.
func (l *Lock) Release() error {
	if l.root == nil {
		return nil
	}
	var errs []error
	if err := l.root.Remove(infoName); err != nil && !errors.Is(err, fs.ErrNotExist) {
		errs = append(errs, fmt.Errorf("remove lock holder: %w", err))
	}
	if err := l.fl.Unlock(); err != nil {
		errs = append(errs, fmt.Errorf("unlock %s: %w", l.fl.Path(), err))
	}
	if err := l.root.Close(); err != nil {
		errs = append(errs, fmt.Errorf("close state dir: %w", err))
	}
	l.root = nil
	return errors.Join(errs...)
}
