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
	fl      *flock.Flock
	project *flock.Flock // the project directory's own lock; see pair
	root    *os.Root
}

// Acquire takes the lock in stateDir (the `.gauntlet` directory, which must exist). With wait 0
// it tries once; otherwise it retries until the lock is free or wait has elapsed; a free lock is
// always taken, however short the wait. Either way a lock held by another run gives a
// *BusyError. A ctx cancelled while waiting gives an error wrapping the context's cause, so that
// an interrupt is not mistaken for a busy lock.
func Acquire(ctx context.Context, stateDir string, wait time.Duration) (*Lock, error) {
	return AcquireFor(ctx, stateDir, wait, Purpose{})
}

// The kinds of holder a Purpose names.
const (
	KindRun      = "run"
	KindStopHook = "stop-hook"
	KindJudge    = "judge"
	KindFix      = "fix"
	KindClean    = "clean"
	KindBaseline = "baseline"
	KindCache    = "cache"
)

// Purpose is what a holder takes the lock for, recorded beside it so that `gauntlet status` can
// say what is in progress. It is information for people only: nothing decides on it.
type Purpose struct {
	Kind  string   // one of the Kind constants; "" when unsaid
	Gates []string // the gates it runs, when known before it takes the lock
}

// AcquireFor is Acquire, recording purpose with the holder.
func AcquireFor(ctx context.Context, stateDir string, wait time.Duration, purpose Purpose) (*Lock, error) {
	p := newPair(stateDir)
	locked, err := p.acquire(ctx, wait)
	if err != nil {
		return nil, err
	}
	if !locked {
		holder, known := ReadHolder(stateDir)
		return nil, &BusyError{Holder: holder, Known: known, Foreign: foreignHolder(stateDir)}
	}

	l, err := claim(p.file, stateDir, purpose)
	if err != nil {
		p.unlock()
		return nil, err
	}
	l.project = p.project
	return l, nil
}

// pair is the two locks a run holds. The lock file is the one users and other tools see
// (SPEC: `.gauntlet/lock`), but a gate can delete it (`git clean -xdf`, `rm -rf .gauntlet`), and
// a newcomer would then lock a fresh file beside the running holder. The project directory
// itself cannot be deleted from under a run, so a lock on it, taken second, keeps two runs
// apart whatever happens to the file. Both are only ever tried, never waited on while the other
// is held, so two processes can never deadlock over them.
type pair struct {
	file, project *flock.Flock
}

func newPair(stateDir string) *pair {
	// noFollow: a symlink planted at the lock path must not make gauntlet create or open a
	// file elsewhere.
	file := flock.New(filepath.Join(stateDir, fileName), flock.SetFlag(os.O_CREATE|os.O_RDWR|noFollow), flock.SetPermissions(0o644))
	return &pair{file: file, project: projectLock(filepath.Dir(stateDir))}
}

// try takes both locks or neither.
func (p *pair) try() (bool, error) {
	if err := refuseSymlink(p.file.Path()); err != nil {
		return false, lockErr(p.file.Path(), err)
	}
	locked, err := p.file.TryLock()
	if err != nil || !locked {
		return false, lockErr(p.file.Path(), err)
	}
	if p.project == nil {
		return true, nil
	}
	locked, err = p.project.TryLock()
	switch {
	case err != nil:
		// Some filesystems cannot lock a directory (NFS emulates flock with fcntl locks, which
		// need a file open for writing): the lock file alone still keeps runs apart there,
		// unless a gate deletes it.
		p.project = nil
		return true, nil
	case !locked:
		_ = p.file.Unlock()
		return false, nil
	}
	return true, nil
}

func (p *pair) unlock() {
	if p.project != nil {
		_ = p.project.Unlock()
	}
	_ = p.file.Unlock()
}

func (p *pair) acquire(ctx context.Context, wait time.Duration) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("lock %s: %w", p.file.Path(), context.Cause(ctx))
	}
	// One try before any deadline is looked at: a free lock is taken even with --wait=1ns.
	if locked, err := p.try(); locked || err != nil || wait <= 0 {
		return locked, err
	}
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	tick := time.NewTicker(retryEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return false, fmt.Errorf("waiting for lock %s: %w", p.file.Path(), context.Cause(ctx))
		case <-deadline.C:
			return false, nil
		case <-tick.C:
			if locked, err := p.try(); locked || err != nil {
				return locked, err
			}
		}
	}
}

func lockErr(path string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, syscall.ELOOP) {
		return fmt.Errorf("lock %s: is a symbolic link; refusing to follow it: %w", path, err)
	}
	return fmt.Errorf("lock %s: %w", path, err)
}

// claim records this process as the holder; the lock is already held.
func claim(fl *flock.Flock, stateDir string, purpose Purpose) (*Lock, error) {
	root, err := os.OpenRoot(stateDir)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", fl.Path(), err)
	}
	h := Holder{PID: os.Getpid(), Started: time.Now(), Kind: purpose.Kind, Gates: purpose.Gates, GateCount: len(purpose.Gates)}
	if err := writeHolder(root, h); err != nil {
		root.Close()
		return nil, fmt.Errorf("lock %s: %w", fl.Path(), err)
	}
	return &Lock{fl: fl, root: root}, nil
}

// Release gives the lock up and keeps the lock file. The sidecar is removed first, while the lock
// is still held, so that it can never delete the record of the next holder. Releasing twice, or
// releasing no lock (nil: a caller that went on without one), is a no-op.
func (l *Lock) Release() error {
	if l == nil || l.root == nil {
		return nil
	}
	var errs []error
	if err := l.root.Remove(infoName); err != nil && !errors.Is(err, fs.ErrNotExist) {
		errs = append(errs, fmt.Errorf("remove lock holder: %w", err))
	}
	if l.project != nil {
		if err := l.project.Unlock(); err != nil {
			errs = append(errs, fmt.Errorf("unlock %s: %w", l.project.Path(), err))
		}
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
