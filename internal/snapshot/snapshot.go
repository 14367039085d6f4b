// Package snapshot is gauntlet's one reader of the git repository: it takes one snapshot per run
// (HEAD, the base the change is measured from, what is staged, unstaged and untracked, and the
// change itself) and hands the same reading to every part of the run that asks: change scoping
// (ChangedFiles), the stop hook's fingerprint and the cache keys (Tree), new_only, review gates
// and integrity checks (Change, Patch).
//
// Each part is read when first asked for and then kept, so a run starts each git process at most
// once, and a run that needs nothing of git starts none. What each part costs:
//
//	Tree          git status (and git ls-files when status reports an untracked directory)
//	Base          git for-each-ref (auto base) or nothing (explicit base), then git merge-base
//	ChangedFiles  Tree, Base, and one git diff against the merge-base
//	Change, Patch the same git diff (it reads the patch as well when Options.PatchBytes asks)
//
// Paths are always slash-separated and relative to the project root, which may be a
// subdirectory of the work tree: nothing outside it, and nothing in gauntlet's own state
// directory, is ever listed.
package snapshot

import (
	"context"
	"errors"
	"sync"

	"github.com/gauntlet-dev/gauntlet/internal/git"
)

// ErrNotGit is the error of every part of a snapshot outside a git work tree (or without git):
// a normal state for a project, in which every gate runs.
var ErrNotGit = git.ErrNotRepo

// ErrBaseNotFound is wrapped by the error of an explicitly requested base ref that does not name
// a commit, so that the command line can report it as a usage error.
var ErrBaseNotFound = errors.New("base ref not found")

// Options say what a run will ask of its snapshot.
type Options struct {
	// Base is the base ref the change is measured from; "" means auto: the branch origin/HEAD
	// names, then origin/HEAD, main, master.
	Base string
	// Pinned is a commit the change is measured from directly, whatever the refs say: an agent
	// session's base (internal/session). It wins over Base, and reads no ref.
	Pinned string
	// PatchBytes is how much of the change's patch the run reads with the names of the changed
	// files, in the same git process: the most any new_only or review gate of the run needs. 0
	// reads names only; a later Change or Patch that needs more reads the diff again.
	PatchBytes int64
}

// Snapshot is one run's reading of the repository under a project root. It is safe for
// concurrent use; each part is read once, by the first caller that needs it.
type Snapshot struct {
	root string
	opts Options

	tree   memo[*Tree]
	base   memo[*Base]
	diff   memo[*diff]
	change memo[*Change]

	// diffMu serialises reading the diff again with a larger cap (see Patch).
	diffMu sync.Mutex
}

// New prepares the snapshot of the repository around root (the project root, absolute). It
// starts no process: each part is read when first asked for.
func New(root string, opts Options) *Snapshot {
	return &Snapshot{root: root, opts: opts}
}

// Root is the project root the snapshot reads.
func (s *Snapshot) Root() string { return s.root }

// Pinned is the commit the snapshot was pinned to ("" when it resolves its base from refs).
func (s *Snapshot) Pinned() string { return s.opts.Pinned }

// BaseRef is the base ref the snapshot was asked to measure from ("" for auto).
func (s *Snapshot) BaseRef() string { return s.opts.Base }

// Tree is the state of the work tree: HEAD, and every path that differs from it.
func (s *Snapshot) Tree(ctx context.Context) (*Tree, error) {
	return s.tree.get(ctx, func() (*Tree, error) { return readTree(ctx, s.root) })
}

// SetTree hands the snapshot a reading of the work tree made by another snapshot of the same
// root moments before (the stop hook's pinning of a session reads it first): git status runs once.
func (s *Snapshot) SetTree(t *Tree) { s.tree.set(t) }

// memo holds one part of a snapshot, read at most once. A reading that failed because its
// context ended is not kept: a caller with a live context (another gate) reads again.
type memo[T any] struct {
	mu   sync.Mutex
	done bool
	val  T
	err  error
}

func (m *memo[T]) get(ctx context.Context, read func() (T, error)) (T, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.done {
		return m.val, m.err
	}
	v, err := read()
	if err != nil && ctx.Err() != nil {
		return v, err
	}
	m.val, m.err, m.done = v, err, true
	return v, err
}

// set replaces what the memo holds (a diff read again with a larger cap).
func (m *memo[T]) set(v T) {
	m.mu.Lock()
	m.val, m.err, m.done = v, nil, true
	m.mu.Unlock()
}
