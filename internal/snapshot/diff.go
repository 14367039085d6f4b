package snapshot

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/internal/git"
)

// diff is the run's one `git diff`: the working tree against the merge-base (or HEAD, or the
// empty tree), as the names of the tracked files that differ and, when asked for, the patch.
type diff struct {
	// against says what the diff is against, for a reader: "main (merge-base 1a2b3c4d5e6f)".
	against string
	// names are the tracked paths that differ, root-relative and sorted.
	names []string
	// text is the patch, cut at a line boundary at textCap bytes (cut says so); empty when
	// textCap is 0 (names only).
	text    []byte
	textCap int64
	cut     bool
}

// noCap stands for a patch read whole.
const noCap = math.MaxInt64

// diffWith returns the run's diff with at least want bytes of patch (0: names only), reading it
// again only when what was read before holds less than that and was cut.
func (s *Snapshot) diffWith(ctx context.Context, want int64) (*diff, error) {
	s.diffMu.Lock()
	defer s.diffMu.Unlock()
	d, err := s.diff.get(ctx, func() (*diff, error) { return s.readDiff(ctx, max(want, s.opts.PatchBytes)) })
	if err != nil || d.textCap >= want || d.textCap > 0 && !d.cut {
		return d, err
	}
	d, err = s.readDiff(ctx, want)
	if err != nil {
		return nil, err
	}
	s.diff.set(d)
	return d, nil
}

// DiffBase is the commit the change is measured from, as the patch uses it: the merge-base with
// the base, or HEAD when there is none, with a phrase saying which for the reader ("main
// (merge-base 1a2b3c4d5e6f)", "HEAD (no base ref found)"). hasBase is false when there is no
// commit at all yet (the patch is then against the empty tree, and from is "").
func (s *Snapshot) DiffBase(ctx context.Context) (from, against string, hasBase bool, err error) {
	tree, err := s.Tree(ctx)
	if err != nil {
		return "", "", false, err
	}
	base, err := s.Base(ctx)
	if err != nil {
		return "", "", false, err
	}
	switch {
	case tree.Head == NoCommit:
		return "", "an empty tree (no commits yet)", false, nil
	case base.Ref == "":
		return "HEAD", "HEAD (no base ref found)", true, nil
	case base.MergeBase == "":
		return "HEAD", fmt.Sprintf("HEAD (no merge-base with %s)", base.Ref), true, nil
	}
	mb := base.MergeBase
	if base.Ref == PinnedRef {
		return mb, fmt.Sprintf("%s %s", base.Ref, mb[:min(len(mb), 12)]), true, nil
	}
	return mb, fmt.Sprintf("%s (merge-base %s)", base.Ref, mb[:min(len(mb), 12)]), true, nil
}

// readDiff starts the diff: one git process for the names and up to textCap bytes of patch.
func (s *Snapshot) readDiff(ctx context.Context, textCap int64) (*diff, error) {
	d := &diff{textCap: max(textCap, 0)}
	from, against, hasBase, err := s.DiffBase(ctx)
	if err != nil {
		return nil, err
	}
	d.against = against
	tree, err := s.Tree(ctx)
	if err != nil {
		return nil, err
	}
	if hasBase && isCleanAgainstHead(from, tree) {
		// The work tree against HEAD, and git status saw no tracked file differ: the diff is
		// empty, and no git process needs to say so (untracked files are no part of it).
		return d, nil
	}
	if !hasBase {
		if from, err = s.emptyTree(ctx); err != nil {
			return nil, err
		}
	}
	args := diffArgs(from, d.textCap > 0)
	w := newPatchWriter(d.textCap, nil)
	err = git.Stream(ctx, s.root, args, func(r io.Reader) error { return d.read(r, w) })
	if err != nil {
		return nil, fmt.Errorf("diff against %s: %w", d.against, err)
	}
	d.text, d.cut = w.text, w.cut
	slices.Sort(d.names)
	return d, nil
}

// isCleanAgainstHead reports a diff of the work tree against HEAD when git status saw no
// tracked file differ: the diff is empty (untracked files are no part of it).
func isCleanAgainstHead(from string, tree *Tree) bool {
	return from == tree.Head && !tree.trackedChanges()
}

// read reads git diff's output: the changed names, then the patch into w when one was asked for.
func (d *diff) read(r io.Reader, w *patchWriter) error {
	br := bufio.NewReaderSize(r, 64<<10)
	names, err := readRawNames(br)
	if err != nil {
		return err
	}
	d.names = names
	if d.textCap == 0 {
		return nil
	}
	return w.consume(br)
}

// emptyTree is the id of the empty tree, which a diff without a base starts from.
func (s *Snapshot) emptyTree(ctx context.Context) (string, error) {
	out, err := git.Output(ctx, s.root, maxRefOutput, "hash-object", "-t", "tree", os.DevNull)
	if err != nil {
		return "", fmt.Errorf("find the empty tree: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// diffArgs is the diff from from to the work tree. The patch reads the same whatever the user's
// git configuration says: no colour, no external or text-converted diffs, no renames (each file
// under its own name), the standard a/ and b/ prefixes, paths relative to the project root. The
// names come first (--raw -z), then, after an empty record, the patch when one is asked for.
func diffArgs(from string, withPatch bool) []string {
	args := []string{"diff", "--raw", "-z", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", "--relative"}
	if withPatch {
		// --text: the repository's attributes (`-diff`, `binary`, in .gitattributes or
		// .git/info/attributes, in the judged agent's reach) must not turn a reader's patch into
		// "Binary files differ".
		args = append(args, "--patch", "--text", "--src-prefix=a/", "--dst-prefix=b/")
	}
	return append(append(args, from), pathspec...)
}

// errRawTooLarge means the list of changed names is beyond what gauntlet reads.
var errRawTooLarge = errors.New("too many changed files to list")

// readRawNames reads `git diff --raw -z` records (":modes oids status\0path\0") up to the empty
// record that separates them from a patch, or the end.
func readRawNames(br *bufio.Reader) ([]string, error) {
	var names []string
	total := 0
	for {
		meta, err := br.ReadSlice(0)
		switch {
		case errors.Is(err, io.EOF) && len(meta) == 0:
			return names, nil
		case err != nil:
			return nil, fmt.Errorf("read changed names: %w", err)
		}
		if len(meta) == 1 {
			return names, nil // the empty record before the patch
		}
		if meta[0] != ':' {
			return nil, fmt.Errorf("unexpected git diff --raw record %q", meta)
		}
		path, err := br.ReadSlice(0)
		if err != nil {
			return nil, fmt.Errorf("read changed names: %w", err)
		}
		total += len(path)
		if total > maxStatusOutput {
			return nil, errRawTooLarge
		}
		names = append(names, string(path[:len(path)-1]))
	}
}
