package snapshot

import (
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/gauntlet-dev/gauntlet/internal/git"
)

// NoCommit stands in for HEAD in a repository without commits; it cannot be a hash.
const NoCommit = "(no commit yet)"

const (
	// maxStatusOutput bounds what git status may print (and the listing of untracked
	// directories): past it the tree is not something worth caching on, and the caller runs the
	// gates.
	maxStatusOutput = 64 << 20
	// maxIndexOutput bounds `git ls-files -s`: about 100 bytes a file, so some 600,000 files.
	maxIndexOutput = 64 << 20
	copyBuffer     = 64 << 10
)

// pathspec scopes a git call to the project root and keeps gauntlet's own state directory
// out, whether or not .gitignore lists it: gauntlet writes there on every run. git status takes
// none (a pathspec makes it scan every untracked directory); its output is filtered instead.
var pathspec = []string{"--", ".", ":(exclude)" + StateDirName}

// StateDirName is gauntlet's own state directory (internal/state.Name, which a test keeps equal):
// a constant here, so that this reader of the repository imports nothing above it.
const StateDirName = ".gauntlet"

// inStateDir reports whether a root-relative path is gauntlet's state directory or inside it.
func inStateDir(path string) bool {
	rest, ok := strings.CutPrefix(path, StateDirName)
	return ok && (rest == "" || rest[0] == '/')
}

// Entry is one path git status reports.
type Entry struct {
	// Path is relative to the project root, with forward slashes.
	Path string
	// Meta is what git says of the path besides its name: the kind of line, the XY status, the
	// modes and the HEAD and index object ids. It pins the index.
	Meta string
	// Untracked is set for a path git does not track (and does not ignore).
	Untracked bool
	// Worktree is set when the file in the work tree differs from the index (or is untracked, or
	// unmerged): its content must be read, git has no object id for it.
	Worktree bool
}

// Tree is one reading of the work tree under a project root: HEAD, and every path that differs
// from it (staged, unstaged, untracked) from one `git status`. The stop hook's fingerprint,
// change scoping, the patch and the per-gate cache all read the same Tree, so each changed file
// is hashed at most once per run.
type Tree struct {
	Root string
	// Head is the commit checked out, or NoCommit.
	Head    string
	Entries []Entry // sorted by path
	byPath  map[string]int
	// prefix is the root's path below the top of the work tree ("" or "dir/").
	prefix string

	mu      sync.Mutex
	digests map[string][]byte
	ignored map[string][]string   // Ignored's lists, by patterns
	behind  map[string][]Followed // Behind's files, by link

	indexOnce sync.Once
	indexDone atomic.Bool
	index     []IndexEntry
	indexErr  error

	specialOnce sync.Once
	special     []IndexEntry
	specialErr  error
}

// statusArgs asks for every change against HEAD in a form made for programs. Untracked files are
// listed as git lists them by default (-unormal, whatever status.showUntrackedFiles says): a
// directory that holds only untracked files is one line, which git finds without scanning it
// (its untracked cache); -uall or any pathspec would make git scan every such directory on every
// call. Renames are two paths, as everywhere else in gauntlet. --branch is asked for HEAD's
// commit only: counting commits ahead of and behind the upstream walks their history (about
// 10 ms per call on a branch 3,000 commits behind) and fails outright when that history cannot
// be walked, which would leave the session's base unpinned.
var statusArgs = []string{"status", "--porcelain=v2", "-z", "--branch", "--no-ahead-behind", "--untracked-files=normal", "--no-renames"}

// readTree asks git for the state of the tree under root: one `git status`, and a listing of
// the untracked directories it reports, if any. Outside a work tree the error is ErrNotGit.
func readTree(ctx context.Context, root string) (*Tree, error) {
	s, err := ReadStatus(ctx, root)
	if err != nil {
		return nil, err
	}
	if err := s.expandUntrackedDirs(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// ReadStatus is one `git status` of the tree under root, each untracked directory left as one
// entry ("dir/") instead of the files in it: a second look that costs one git process, for
// comparing with a Tree read earlier.
func ReadStatus(ctx context.Context, root string) (*Tree, error) {
	args := statusArgs
	var (
		wg        sync.WaitGroup
		prefix    string
		prefixErr error
	)
	// git status names paths from the top of the work tree. When the root is that top (a .git
	// is there) the prefix is empty and no second git call is needed.
	if !atTopLevel(root) {
		wg.Go(func() { prefix, prefixErr = showPrefix(ctx, root) })
	}
	out, err := git.Output(ctx, root, maxStatusOutput, args...)
	wg.Wait()
	if err != nil {
		return nil, classify(err)
	}
	if prefixErr != nil {
		return nil, classify(prefixErr)
	}
	s, err := parse(out, prefix)
	if err != nil {
		return nil, err
	}
	s.Root, s.prefix = root, prefix
	return s, nil
}

// expandUntrackedDirs replaces each untracked directory git status named ("dir/") by the
// untracked, not ignored files in it, from one `git ls-files` for all of them. A nested
// repository stays one entry, as git lists it.
func (s *Tree) expandUntrackedDirs(ctx context.Context) error {
	var dirs []string
	for _, e := range s.Entries {
		if isUntrackedDir(e) {
			dirs = append(dirs, e.Path)
		}
	}
	if len(dirs) == 0 {
		return nil
	}
	// Literal pathspecs: a directory named "[a]" means itself. "./" is the project root.
	args := append([]string{"--literal-pathspecs", "ls-files", "--others", "--exclude-standard", "-z", "--"}, dirs...)
	out, err := git.Output(ctx, s.Root, maxStatusOutput, args...)
	if err != nil {
		return fmt.Errorf("list untracked directories: %w", classify(err))
	}
	kept := slices.DeleteFunc(s.Entries, isUntrackedDir)
	for _, name := range git.SplitNUL(out) {
		if !inStateDir(name) {
			kept = append(kept, Entry{Path: name, Meta: "?", Untracked: true, Worktree: true})
		}
	}
	s.Entries = kept
	s.sortEntries()
	return nil
}

// isUntrackedDir reports an untracked directory git status named as one ("dir/").
func isUntrackedDir(e Entry) bool { return e.Untracked && strings.HasSuffix(e.Path, "/") }

func atTopLevel(root string) bool {
	if os.Getenv("GIT_DIR") != "" || os.Getenv("GIT_WORK_TREE") != "" {
		return false
	}
	_, err := os.Lstat(filepath.Join(root, ".git"))
	return err == nil
}

func showPrefix(ctx context.Context, root string) (string, error) {
	out, err := git.Output(ctx, root, 64<<10, "rev-parse", "--show-prefix")
	if err != nil {
		return "", err
	}
	return strings.TrimRight(string(out), "\n"), nil
}

// errNoGitProgram is ErrNotGit when git itself is missing.
var errNoGitProgram = fmt.Errorf("%w: git is not installed", ErrNotGit)

func classify(err error) error {
	var gitErr *git.Error
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return errNoGitProgram
	case git.IsNotRepo(err):
		return ErrNotGit
	case errors.As(err, &gitErr) && strings.Contains(gitErr.Stderr, "must be run in a work tree"):
		// Inside .git itself: a repository, but no working tree to judge.
		return ErrNotGit
	}
	return err
}

// parse reads porcelain v2 -z output; see git-status(1). Paths are relative to the top of the
// work tree: those outside the project root (prefix) and in gauntlet's state directory are left
// out.
func parse(out []byte, prefix string) (*Tree, error) {
	s := &Tree{Head: NoCommit, byPath: map[string]int{}, digests: map[string][]byte{}}
	recs := bytes.Split(out, []byte{0})
	for i := 0; i < len(recs); i++ {
		rec := string(recs[i])
		if rec == "" {
			continue
		}
		if rec[0] == '#' {
			if oid, ok := strings.CutPrefix(rec, "# branch.oid "); ok && oid != "(initial)" {
				s.Head = oid
			}
			continue
		}
		e, listed, took, err := statusEntry(rec, recs[i+1:])
		if err != nil {
			return nil, err
		}
		i += took
		rel, inProject := projectPath(e, prefix)
		if !listed || !inProject {
			continue
		}
		e.Path = rel
		s.Entries = append(s.Entries, e)
	}
	s.sortEntries()
	return s, nil
}

// statusEntry reads one record of a path; listed is false for an ignored one. took is how many
// of the records after it belong to it (a rename's original path).
func statusEntry(rec string, next [][]byte) (e Entry, listed bool, took int, err error) {
	switch rec[0] {
	case '?':
		return Entry{Path: rec[2:], Meta: "?", Untracked: true, Worktree: true}, true, 0, nil
	case '!':
		return Entry{}, false, 0, nil
	case '1', '2', 'u':
		return changedEntry(rec, next)
	default:
		return Entry{}, false, 0, fmt.Errorf("unexpected git status line %q", rec)
	}
}

// changedEntry reads a record of a changed (1), renamed or copied (2) or unmerged (u) path.
func changedEntry(rec string, next [][]byte) (e Entry, listed bool, took int, err error) {
	fields := map[byte]int{'1': 8, '2': 9, 'u': 10}[rec[0]]
	parts := strings.SplitN(rec, " ", fields+1)
	if len(parts) != fields+1 {
		return Entry{}, false, 0, fmt.Errorf("unexpected git status line %q", rec)
	}
	e = Entry{Path: parts[fields], Meta: strings.Join(parts[:fields], " ")}
	xy := parts[1]
	e.Worktree = rec[0] == 'u' || len(xy) == 2 && xy[1] != '.'
	if rec[0] != '2' {
		return e, true, 0, nil
	}
	// The rename's original path follows in its own record.
	if len(next) > 0 {
		e.Meta += "\x00" + string(next[0])
	}
	return e, true, 1, nil
}

// projectPath is the entry's path relative to the project root (prefix); ok is false for a path
// outside the project or in gauntlet's state directory.
func projectPath(e Entry, prefix string) (string, bool) {
	rel, ok := strings.CutPrefix(e.Path, prefix)
	if e.Untracked && strings.HasSuffix(e.Path, "/") && strings.HasPrefix(prefix, e.Path) {
		// The project root is inside an untracked directory: every file under it is new.
		rel, ok = "./", true
	}
	return rel, ok && rel != "" && !inStateDir(rel)
}

func (s *Tree) sortEntries() {
	slices.SortFunc(s.Entries, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	clear(s.byPath)
	for i, e := range s.Entries {
		s.byPath[e.Path] = i
	}
}

// untracked lists the untracked, not ignored paths, sorted.
func (s *Tree) untracked() []string {
	var names []string
	for _, e := range s.Entries {
		if e.Untracked {
			names = append(names, e.Path)
		}
	}
	return names
}

// Lookup returns what git status said of path, if anything.
func (s *Tree) Lookup(path string) (Entry, bool) {
	i, ok := s.byPath[path]
	if !ok {
		return Entry{}, false
	}
	return s.Entries[i], true
}

// FileDigest hashes one path of the work tree: its type and permissions, and a symlink's target
// or a regular file's content. A file that cannot be read is hashed by its error, so that it
// neither stops the caller nor looks like an empty file. Each path is hashed once per Tree.
// Only the context's end is an error: a partial read must never yield a digest.
func (s *Tree) FileDigest(ctx context.Context, path string) ([]byte, error) {
	s.mu.Lock()
	d, ok := s.digests[path]
	s.mu.Unlock()
	if ok {
		return d, nil
	}
	sum := sha256.New()
	if err := fileDigest(ctx, sum, filepath.Join(s.Root, filepath.FromSlash(path))); err != nil {
		return nil, fmt.Errorf("hash %s: %w", path, err)
	}
	d = sum.Sum(nil)
	s.mu.Lock()
	s.digests[path] = d
	s.mu.Unlock()
	return d, nil
}

func fileDigest(ctx context.Context, sum hash.Hash, path string) error {
	info, err := os.Lstat(path)
	if err != nil {
		Field(sum, "unreadable", []byte(unreadable(err)))
		return nil
	}
	Field(sum, "mode", []byte(info.Mode().String()))
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		symlinkDigest(sum, path)
	case info.Mode().IsRegular():
		return regularDigest(ctx, sum, path)
	case info.IsDir():
		// A submodule (or a nested repository) is a directory to git status, which prints the
		// same line for it whichever commit it has checked out and however many edits it holds:
		// its own state is what says whether it changed.
		if _, err := os.Lstat(filepath.Join(path, ".git")); err == nil {
			return nestedDigest(ctx, sum, path)
		}
	}
	// Other directories and special files count by name and mode alone: reading a FIFO would
	// block.
	return nil
}

// symlinkDigest hashes a symlink's target.
func symlinkDigest(sum hash.Hash, path string) {
	target, err := os.Readlink(path)
	if err != nil {
		Field(sum, "unreadable", []byte(unreadable(err)))
		return
	}
	Field(sum, "symlink", []byte(target))
}

// regularDigest hashes a regular file's content; only the context's end is an error.
func regularDigest(ctx context.Context, sum hash.Hash, path string) error {
	digest, err := contentDigest(ctx, path)
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	if err != nil {
		Field(sum, "unreadable", []byte(unreadable(err)))
		return nil
	}
	Field(sum, "content", digest)
	return nil
}

// unreadable keeps an error's cause without the absolute path, so that the same state under
// another checkout hashes the same.
func unreadable(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

// contentDigest hashes a regular file chunk by chunk. O_NONBLOCK keeps open from blocking if the
// path was swapped for a FIFO since it was listed; the check after open refuses anything that
// is not a regular file by then.
func contentDigest(ctx context.Context, path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, errors.New("no longer a regular file")
	}
	sub := sha256.New()
	buf := bufPool.Get().(*[]byte)
	defer bufPool.Put(buf)
	if _, err := io.CopyBuffer(sub, ctxReader{ctx: ctx, r: f}, *buf); err != nil {
		return nil, err
	}
	return sub.Sum(nil), nil
}

var bufPool = sync.Pool{New: func() any { b := make([]byte, copyBuffer); return &b }}

// ctxReader stops a long read (a huge file) when the context ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (r ctxReader) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	return r.r.Read(p)
}

// Field writes one part of a digest as a labelled, length-prefixed field, so that no two
// different sequences of parts can produce the same bytes.
func Field(h hash.Hash, label string, data []byte) {
	var header []byte
	header = append(header, label...)
	header = append(header, 0)
	header = binary.BigEndian.AppendUint64(header, uint64(len(data)))
	h.Write(header)
	h.Write(data)
}

// BlobID names a work-tree file the way git would once it is added: its mode and its blob
// object id (SHA-1, or SHA-256 when like is a 64-digit id of the repository), so that a file
// has the same name whether git already holds it or not. ok is false for what git stores
// otherwise (a directory: an untracked nested repository) or cannot read; the caller then
// falls back to FileDigest. Each path is hashed once per Tree.
func (s *Tree) BlobID(ctx context.Context, path string, like string) (mode, oid string, ok bool, err error) {
	memo := "blob\x00" + path
	s.mu.Lock()
	d, seen := s.digests[memo]
	s.mu.Unlock()
	if seen {
		if len(d) == 0 {
			return "", "", false, nil
		}
		m, o, _ := strings.Cut(string(d), " ")
		return m, o, true, nil
	}
	mode, oid, ok, err = blobID(ctx, filepath.Join(s.Root, filepath.FromSlash(path)), len(like) == 64)
	if err != nil {
		return "", "", false, fmt.Errorf("hash %s: %w", path, err)
	}
	val := []byte(nil)
	if ok {
		val = []byte(mode + " " + oid)
	}
	s.mu.Lock()
	s.digests[memo] = val
	s.mu.Unlock()
	return mode, oid, ok, nil
}

func blobID(ctx context.Context, path string, sha256Repo bool) (string, string, bool, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return "", "", false, nil
	}
	newHash := sha1.New
	if sha256Repo {
		newHash = sha256.New
	}
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		return symlinkBlobID(newHash(), path)
	case info.Mode().IsRegular():
		return fileBlobID(ctx, newHash(), path)
	}
	return "", "", false, nil
}

// symlinkBlobID names a symlink's blob: its target.
func symlinkBlobID(h hash.Hash, path string) (string, string, bool, error) {
	target, err := os.Readlink(path)
	if err != nil {
		return "", "", false, nil
	}
	fmt.Fprintf(h, "blob %d\x00%s", len(target), target)
	return "120000", fmt.Sprintf("%x", h.Sum(nil)), true, nil
}

// fileBlobID names a regular file's blob; ok is false when it is no longer a regular file or
// changed while read: it has no stable name, and the caller hashes it its own way.
func fileBlobID(ctx context.Context, h hash.Hash, path string) (string, string, bool, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", "", false, nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return "", "", false, nil
	}
	fmt.Fprintf(h, "blob %d\x00", st.Size())
	buf := bufPool.Get().(*[]byte)
	defer bufPool.Put(buf)
	n, err := io.CopyBuffer(h, ctxReader{ctx: ctx, r: io.LimitReader(f, st.Size())}, *buf)
	if ctxErr := ctx.Err(); ctxErr != nil {
		return "", "", false, ctxErr
	}
	if err != nil || n != st.Size() {
		return "", "", false, nil
	}
	return gitFileMode(st.Mode()), fmt.Sprintf("%x", h.Sum(nil)), true, nil
}

// gitFileMode is the mode git gives a regular file: executable by its owner or not.
func gitFileMode(mode fs.FileMode) string {
	if mode&0o100 != 0 {
		return "100755"
	}
	return "100644"
}

// trackedChanges says whether git status saw a tracked file differ from HEAD (staged, unstaged or
// unmerged); untracked files are not tracked changes.
func (s *Tree) trackedChanges() bool {
	for _, e := range s.Entries {
		if !e.Untracked {
			return true
		}
	}
	return false
}
