package hook

import (
	"context"
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
	"syscall"

	"github.com/gauntlet-dev/gauntlet/internal/gitcmd"
	"github.com/gauntlet-dev/gauntlet/statedir"
)

// ErrNotGit is returned by Fingerprint outside a git work tree (or without git): there is no
// state to recognise, so the caller runs the gates every time.
var ErrNotGit = gitcmd.ErrNotRepo

const (
	// fingerprintVersion changes whenever what goes into the hash changes, so that a fingerprint
	// stored by an older gauntlet never matches one computed by a newer one.
	fingerprintVersion = "gauntlet-fp-1"
	// noCommitMarker stands in for HEAD in a repository without commits; it cannot be a hash.
	noCommitMarker = "(no commit yet)"

	// fingerprintMaxHeadOutput is far more than rev-parse's two short lines.
	fingerprintMaxHeadOutput = 4 << 10
	// fingerprintMaxNames bounds the list of untracked paths held in memory: past it the tree is
	// not something worth caching on, and the caller runs the gates.
	fingerprintMaxNames = 64 << 20
	// fingerprintCopyBuffer is the chunk in which untracked files are read.
	fingerprintCopyBuffer = 64 << 10
)

// fingerprintPathspec scopes every git call to the project root and keeps gauntlet's own state
// directory out, whether or not .gitignore lists it: gauntlet writes there on every run.
var fingerprintPathspec = []string{"--", ".", ":(exclude)" + statedir.Name}

// Fingerprint identifies the state the gates would judge: HEAD, the index and the working tree
// against it, the untracked (not ignored) files' contents, and the effective config. Same
// fingerprint, same verdict.
//
// root is the project root; it may be a subdirectory of the work tree, and then nothing outside
// it counts. config is hashed as given. Outside a git work tree the error is ErrNotGit.
func Fingerprint(ctx context.Context, root string, config []byte) (string, error) {
	fp := &fingerprinter{ctx: ctx, root: root}

	// The four questions to git are independent: asking them at once makes the stop hook wait for
	// the slowest instead of the sum, and it runs every time an agent stops. The staged and the
	// unstaged diff together pin both the index and the working tree, and need no HEAD; staging
	// alone therefore changes the fingerprint, as a gate may look at the index.
	var (
		wg                          sync.WaitGroup
		head                        string
		staged, unstaged, untracked []byte
		headErr, stagedErr          error
		unstagedErr, untrackedErr   error
	)
	wg.Go(func() { head, headErr = fp.head() })
	wg.Go(func() { staged, stagedErr = fp.gitDigest(fingerprintDiff("--cached")...) })
	wg.Go(func() { unstaged, unstagedErr = fp.gitDigest(fingerprintDiff()...) })
	wg.Go(func() { untracked, untrackedErr = fp.untrackedDigest() })
	wg.Wait()
	// head's error goes first: outside git every call fails, and only head says ErrNotGit.
	for _, err := range []error{headErr, stagedErr, unstagedErr, untrackedErr} {
		if err != nil {
			return "", fmt.Errorf("fingerprint %s: %w", root, err)
		}
	}

	sum := sha256.New()
	fingerprintField(sum, "version", []byte(fingerprintVersion))
	fingerprintField(sum, "head", []byte(head))
	fingerprintField(sum, "staged", staged)
	fingerprintField(sum, "unstaged", unstaged)
	fingerprintField(sum, "untracked", untracked)
	fingerprintField(sum, "config", config)
	return fmt.Sprintf("%x", sum.Sum(nil)), nil
}

// fingerprintDiff asks for a complete, byte-exact diff whatever the user's git configuration:
// no colour, no external or text-converting drivers, no rename detection (costly, and the plain
// diff already says everything).
func fingerprintDiff(extra ...string) []string {
	args := append([]string{"diff"}, extra...)
	args = append(args, "--binary", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames")
	return append(args, fingerprintPathspec...)
}

// fingerprintField writes one part as a labelled, length-prefixed field. Streamed parts go in as
// their own digest, so that no two different states can produce the same sequence of bytes.
func fingerprintField(h hash.Hash, label string, data []byte) {
	var header []byte
	header = append(header, label...)
	header = append(header, 0)
	header = binary.BigEndian.AppendUint64(header, uint64(len(data)))
	h.Write(header)
	h.Write(data)
}

// fingerprinter is what the parts of one fingerprint share; it is read-only, so the parts can
// be computed concurrently.
type fingerprinter struct {
	ctx  context.Context
	root string
}

// head returns HEAD's commit, or noCommitMarker before the first commit. One git call both
// checks the work tree and reads HEAD, because this runs on every stop of an agent.
func (fp *fingerprinter) head() (string, error) {
	out := &gitcmd.CappedBuffer{Limit: fingerprintMaxHeadOutput, Truncate: true}
	err := gitcmd.Run(fp.ctx, fp.root, out, "rev-parse", "--is-inside-work-tree", "--verify", "--quiet", "HEAD")
	lines := strings.Fields(out.String())
	insideWorkTree := len(lines) > 0 && lines[0] == "true"
	var gitErr *gitcmd.Error
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return "", fmt.Errorf("%w: git is not installed", ErrNotGit)
	case gitcmd.IsNotRepo(err):
		return "", ErrNotGit
	case err == nil && len(lines) > 0 && !insideWorkTree:
		// Inside .git itself: a repository, but no working tree to judge.
		return "", ErrNotGit
	case err == nil && insideWorkTree && len(lines) == 2:
		return lines[1], nil
	case errors.As(err, &gitErr) && gitErr.ExitCode == 1 && insideWorkTree && len(lines) == 1:
		// --verify --quiet fails silently with 1 when HEAD names no commit yet.
		return noCommitMarker, nil
	case err != nil:
		return "", err
	default:
		return "", fmt.Errorf("unexpected git rev-parse output %q", out.String())
	}
}

// gitDigest streams a git command's output through a hash, so that memory does not grow with the
// size of a diff.
func (fp *fingerprinter) gitDigest(args ...string) ([]byte, error) {
	sum := sha256.New()
	if err := gitcmd.Run(fp.ctx, fp.root, sum, args...); err != nil {
		return nil, err
	}
	return sum.Sum(nil), nil
}

// untrackedDigest hashes the untracked, not ignored files under the root, sorted so that the
// order of git's directory walk cannot matter.
func (fp *fingerprinter) untrackedDigest() ([]byte, error) {
	args := append([]string{"ls-files", "-z", "--others", "--exclude-standard"}, fingerprintPathspec...)
	out, err := gitcmd.Output(fp.ctx, fp.root, fingerprintMaxNames, args...)
	if err != nil {
		return nil, fmt.Errorf("list untracked files: %w", err)
	}
	names := gitcmd.SplitNUL(out)
	slices.Sort(names)

	sum := sha256.New()
	fingerprintField(sum, "count", binary.BigEndian.AppendUint64(nil, uint64(len(names))))
	buf := make([]byte, fingerprintCopyBuffer)
	for _, name := range names {
		if err := fp.untrackedFile(sum, buf, name); err != nil {
			return nil, err
		}
	}
	return sum.Sum(nil), nil
}

// untrackedFile hashes one untracked path: its name, its type and permissions, and a symlink's
// target or a regular file's contents. A file that cannot be read is hashed by its error, so that
// it neither stops the fingerprint nor looks like an empty file. Only the context's end is an
// error: a partial read must never yield a fingerprint.
func (fp *fingerprinter) untrackedFile(sum hash.Hash, buf []byte, name string) error {
	fingerprintField(sum, "path", []byte(name))
	path := filepath.Join(fp.root, filepath.FromSlash(name))
	info, err := os.Lstat(path)
	if err != nil {
		fingerprintField(sum, "unreadable", []byte(err.Error()))
		return nil
	}
	fingerprintField(sum, "mode", []byte(info.Mode().String()))
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(path)
		if err != nil {
			fingerprintField(sum, "unreadable", []byte(err.Error()))
			return nil
		}
		fingerprintField(sum, "symlink", []byte(target))
	case info.Mode().IsRegular():
		digest, err := fp.contentDigest(path, buf)
		if ctxErr := fp.ctx.Err(); ctxErr != nil {
			return fmt.Errorf("hash %s: %w", name, ctxErr)
		}
		if err != nil {
			fingerprintField(sum, "unreadable", []byte(err.Error()))
			return nil
		}
		fingerprintField(sum, "content", digest)
	}
	// Directories (an untracked nested repository) and special files count by name and mode
	// alone: reading a FIFO would block.
	return nil
}

// contentDigest hashes a regular file chunk by chunk. O_NONBLOCK keeps open from blocking if the
// path was swapped for a FIFO since it was listed; the check after open refuses anything that
// is not a regular file by then.
func (fp *fingerprinter) contentDigest(path string, buf []byte) ([]byte, error) {
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
		return nil, fmt.Errorf("%s: no longer a regular file", path)
	}
	sub := sha256.New()
	if _, err := io.CopyBuffer(sub, fingerprintReader{ctx: fp.ctx, r: f}, buf); err != nil {
		return nil, err
	}
	return sub.Sum(nil), nil
}

// fingerprintReader stops a long read (a huge untracked file) when the context ends.
type fingerprintReader struct {
	ctx context.Context
	r   io.Reader
}

func (r fingerprintReader) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	return r.r.Read(p)
}
