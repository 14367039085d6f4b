package cache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	gitrepo "github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/lock"
)

// sharedLockWait bounds the wait for another worktree's save: saving is quick, and a pass that
// could not be saved only costs a rerun.
const sharedLockWait = 5 * time.Second

// sharedDir is the directory gauntlet keeps in a repository's common git directory.
type sharedDir struct{ sd *state.Dir }

func (d *sharedDir) lock() (func(), error) {
	ctx, cancel := context.WithTimeout(context.Background(), sharedLockWait+time.Second)
	defer cancel()
	held, err := lock.AcquireFor(ctx, d.sd.Path(), sharedLockWait, lock.Purpose{Kind: lock.KindCache})
	if err != nil {
		return nil, fmt.Errorf("lock the shared gate cache: %w", err)
	}
	return func() { held.Release() }, nil
}

// OpenForProject opens the cache that every worktree of projectRoot's repository shares, in the
// repository's common git directory, so that a new worktree (parallel agents each get one) starts
// warm. Outside git, or where that directory cannot be used, it is the cache under sd. The
// returned close releases what the shared cache holds.
func OpenForProject(projectRoot string, sd *state.Dir) (*Store, func(), error) {
	shared, name, err := sharedLocation(projectRoot)
	if err != nil {
		s, err := Open(sd)
		return s, func() {}, err
	}
	s, err := open(shared, name)
	s.shared = &sharedDir{sd: shared}
	return s, func() { shared.Close() }, err
}

// SharedFile is where the shared cache of projectRoot lives, for `gauntlet clean`: its directory
// and the file's name inside it. ok is false when there is none.
func SharedFile(projectRoot string) (dir *state.Dir, name string, ok bool) {
	shared, name, err := sharedLocation(projectRoot)
	if err != nil {
		return nil, "", false
	}
	return shared, name, true
}

// sharedLocation opens <common git dir>/gauntlet and names the project's cache file in it: a
// project at the top of its work tree has cache/gates.json, a sub-project one of its own, so
// that two projects of a monorepo never read each other's passes by accident.
func sharedLocation(projectRoot string) (*state.Dir, string, error) {
	layout, err := gitrepo.FindLayout(projectRoot)
	if err != nil {
		return nil, "", err
	}
	abs, err := filepath.Abs(projectRoot)
	if err != nil {
		return nil, "", err
	}
	rel, err := filepath.Rel(layout.TopLevel, abs)
	if err != nil || rel == ".." || filepath.IsAbs(rel) {
		return nil, "", errors.New("the project is outside its work tree")
	}
	dir, err := state.OpenIn(layout.CommonDir, state.SharedName)
	if err != nil {
		return nil, "", err
	}
	name := File
	if rel != "." {
		sum := sha256.Sum256([]byte(filepath.ToSlash(rel)))
		name = "cache/" + hex.EncodeToString(sum[:8]) + "/gates.json"
	}
	return dir, name, nil
}

// merge applies this run's changes onto the file as another worktree may have left it since it
// was read; the caller holds the shared lock.
func (s *Store) merge() {
	fresh, err := s.read()
	if err != nil {
		return // keep what this run has: writing it over an unreadable file loses nothing more
	}
	for k := range s.deleted {
		delete(fresh.Entries, k)
	}
	for k, e := range s.put {
		fresh.Entries[k] = e
	}
	s.f = fresh
}
