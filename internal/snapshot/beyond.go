package snapshot

// What `git status` does not show, yet a gate may read: a submodule's own uncommitted edits
// (status prints the same line after a second edit as after the first), files git ignores, and
// what a symlink points to (git stores the link, not the files behind it). Files git is told not
// to look at (skip-worktree, assume-unchanged) are in the index listing: see IndexEntry.Hidden.

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/gauntlet-dev/gauntlet/internal/git"
)

const (
	// maxNesting bounds how deep submodules inside submodules are read.
	maxNesting = 4
)

// maxFollowed bounds the files one symlink leads to: a link to a huge tree (or to /) makes the
// state unknowable rather than slow, and the caller runs the gates. A variable for the tests.
var maxFollowed = 20000

// ErrTooManyFollowed is returned when a symlink leads to more files than are read.
var ErrTooManyFollowed = errors.New("a symlink leads to too many files")

type nestingKey struct{}

// nestedDigest hashes a submodule (or a nested repository) by its own state: its HEAD, what its
// git status lists with the content of its changed files, and its hidden files. A second edit
// inside it then changes the digest, which its HEAD alone would not.
func nestedDigest(ctx context.Context, sum hash.Hash, dir string) error {
	depth, _ := ctx.Value(nestingKey{}).(int)
	if depth >= maxNesting {
		Field(sum, "unreadable", []byte("submodules nested too deep"))
		return nil
	}
	ctx = context.WithValue(ctx, nestingKey{}, depth+1)
	sub, err := readTree(ctx, dir)
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	if err != nil {
		Field(sum, "unreadable", []byte("submodule state"))
		return nil
	}
	Field(sum, "commit", []byte(sub.Head))
	for _, e := range sub.Entries {
		Field(sum, "path", []byte(e.Path))
		Field(sum, "meta", []byte(e.Meta))
		if !e.Worktree {
			continue
		}
		d, err := sub.FileDigest(ctx, e.Path)
		if err != nil {
			return err
		}
		Field(sum, "worktree", d)
	}
	return sub.HiddenDigest(ctx, sum)
}

// HiddenDigest hashes the content of the files of the index git is told not to look at in the
// work tree; git status reports no edit of theirs.
func (s *Tree) HiddenDigest(ctx context.Context, sum hash.Hash) error {
	index, err := s.Special(ctx)
	if err != nil {
		return err
	}
	for _, ie := range index {
		if !ie.Hidden {
			continue
		}
		d, err := s.FileDigest(ctx, ie.Path)
		if err != nil {
			return err
		}
		Field(sum, "hidden", []byte(ie.Path))
		Field(sum, "content", d)
	}
	return nil
}

// Ignored lists the files git ignores under the root that match one of patterns (root-relative
// doublestar globs), sorted; gauntlet's own state directory is never among them. Each list is
// asked of git once per State.
func (s *Tree) Ignored(ctx context.Context, patterns []string) ([]string, error) {
	if len(patterns) == 0 {
		return nil, nil
	}
	memo := strings.Join(patterns, "\x00")
	s.mu.Lock()
	if s.ignored == nil {
		s.ignored = map[string][]string{}
	}
	list, ok := s.ignored[memo]
	s.mu.Unlock()
	if ok {
		return list, nil
	}
	out, err := git.Output(ctx, s.Root, maxIndexOutput, ignoredArgs(patterns)...)
	if err != nil {
		return nil, fmt.Errorf("list ignored files: %w", classify(err))
	}
	for _, p := range git.SplitNUL(out) {
		if isIgnoredMatch(p, patterns) {
			list = append(list, p)
		}
	}
	slices.Sort(list)
	s.mu.Lock()
	s.ignored[memo] = list
	s.mu.Unlock()
	return list, nil
}

// ignoredArgs is the ls-files command that lists the ignored files patterns may match. git's
// glob pathspecs match as doublestar does, and let git skip what cannot match; braces are
// doublestar's alone, so with one of them git lists everything and the filter decides.
func ignoredArgs(patterns []string) []string {
	specs := []string{"ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--"}
	for _, p := range patterns {
		if strings.ContainsAny(p, "{}") {
			specs = append(specs[:6], ".")
			break
		}
		specs = append(specs, ":(glob)"+p)
	}
	return append(specs, ":(exclude)"+StateDirName)
}

// isIgnoredMatch reports whether a listed path is a file (not a directory) one of patterns
// matches.
func isIgnoredMatch(p string, patterns []string) bool {
	if p == "" || strings.HasSuffix(p, "/") {
		return false
	}
	return slices.ContainsFunc(patterns, func(pat string) bool { ok, _ := doublestar.Match(pat, p); return ok })
}

// Followed is a file reached through a symlink: its path as seen through the link
// (root-relative), and its digest.
type Followed struct {
	Path   string
	Digest []byte
}

// Behind hashes what the symlink at path (root-relative) points to: a file's content, or each
// file under a directory (symlinks within are followed too, each directory once), named as seen
// through the link. It returns nil when path is not a symlink, or one that leads nowhere (its
// target is hashed with it already). Each link is followed once per State.
func (s *Tree) Behind(ctx context.Context, rel string) ([]Followed, error) {
	memo := "behind\x00" + rel
	s.mu.Lock()
	if s.behind == nil {
		s.behind = map[string][]Followed{}
	}
	got, ok := s.behind[memo]
	s.mu.Unlock()
	if ok {
		return got, nil
	}
	abs := filepath.Join(s.Root, filepath.FromSlash(rel))
	info, err := os.Lstat(abs)
	if err != nil || info.Mode()&fs.ModeSymlink == 0 {
		return nil, nil
	}
	w := &walker{ctx: ctx, visited: map[string]bool{}}
	if st, err := filepath.EvalSymlinks(filepath.Join(s.Root, StateDirName)); err == nil {
		w.skip = st
	}
	if err := w.follow(abs, rel); err != nil {
		return nil, fmt.Errorf("follow %s: %w", rel, err)
	}
	slices.SortFunc(w.out, func(a, b Followed) int { return strings.Compare(a.Path, b.Path) })
	s.mu.Lock()
	s.behind[memo] = w.out
	s.mu.Unlock()
	return w.out, nil
}

type walker struct {
	ctx     context.Context
	visited map[string]bool // real paths of the directories walked
	skip    string          // gauntlet's state directory, which every run writes to
	out     []Followed
}

// follow hashes what abs leads to, named rel.
func (w *walker) follow(abs, rel string) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if len(w.out) >= maxFollowed {
		return ErrTooManyFollowed
	}
	info, err := os.Stat(abs)
	if err != nil {
		return nil // a dangling link: the link's own target is its content
	}
	if !info.IsDir() {
		return w.followFile(abs, rel)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil || w.skipsDir(real) {
		return nil
	}
	w.visited[real] = true
	return w.followDir(abs, rel)
}

// followFile hashes the file abs leads to.
func (w *walker) followFile(abs, rel string) error {
	sum := sha256.New()
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil
	}
	if err := fileDigest(w.ctx, sum, real); err != nil {
		return err
	}
	w.out = append(w.out, Followed{Path: rel, Digest: sum.Sum(nil)})
	return nil
}

// skipsDir reports a directory not to walk: one walked already (a link loop), gauntlet's state
// directory, or a repository's .git.
func (w *walker) skipsDir(real string) bool {
	return w.visited[real] || real == w.skip || filepath.Base(real) == ".git"
}

// followDir follows each entry of the directory abs but .git; an unreadable directory is hashed
// by its error.
func (w *walker) followDir(abs, rel string) error {
	entries, err := os.ReadDir(abs)
	if err != nil {
		sum := sha256.New()
		Field(sum, "unreadable", []byte(unreadable(err)))
		w.out = append(w.out, Followed{Path: rel + "/", Digest: sum.Sum(nil)})
		return nil
	}
	for _, e := range entries {
		if e.Name() == ".git" {
			continue
		}
		if err := w.follow(filepath.Join(abs, e.Name()), path.Join(rel, e.Name())); err != nil {
			return err
		}
	}
	return nil
}
