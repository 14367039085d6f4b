package changes

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/internal/git"
)

// ErrNotInGit is returned by Diff when the project is not inside a git work tree (or git is not
// installed): there is no change to show.
var ErrNotInGit = git.ErrNotRepo

// DiffOptions says how much of a change Diff shows, and what it must never show.
type DiffOptions struct {
	// Base is the base ref; "" means auto (origin/HEAD, main, master), as for Detect.
	Base string
	// MaxBytes caps Patch.Text; below 1 means no cap.
	MaxBytes int64
	// Skip, when it returns true for a root-relative path, keeps that file out of the patch: its
	// lines are dropped from git's output and an untracked one is not even read.
	Skip func(path string) bool
}

// Patch is the text of a change, as a reviewer is shown it.
type Patch struct {
	// Text is a unified diff (a/ and b/ prefixes, no renames) of the change, cut at a line
	// boundary when it would exceed MaxBytes.
	Text []byte
	// Cut is set when part of the change did not fit into MaxBytes.
	Cut bool
	// LeftOut names the files Skip kept out, sorted.
	LeftOut []string
	// Against says what the diff is against, for the reader: "main (merge-base 1a2b3c4d)", "HEAD".
	Against string
}

// Diff returns the change Detect lists as a unified diff: the working tree against the
// merge-base with base (so commits since then, staged and unstaged edits), plus untracked files
// that are not ignored, shown as new files. Without a base it is the uncommitted work against
// HEAD, and without any commit the whole tree. Paths are relative to projectRoot and only
// changes inside it are shown; gauntlet's state directory never is.
func Diff(ctx context.Context, projectRoot string, opts DiffOptions) (*Patch, error) {
	inGit, _, err := insideWorkTree(ctx, projectRoot)
	if err != nil {
		return nil, err
	}
	if !inGit {
		return nil, ErrNotInGit
	}
	from, against, err := diffFrom(ctx, projectRoot, opts.Base)
	if err != nil {
		return nil, err
	}

	w := newPatchWriter(opts.MaxBytes, opts.Skip)
	args := append(append(patchArgs(), from), scope...)
	if err := git.Stream(ctx, projectRoot, args, w.consume); err != nil {
		return nil, fmt.Errorf("diff against %s: %w", against, err)
	}
	if err := addUntracked(ctx, projectRoot, w); err != nil {
		return nil, err
	}
	leftOut := slices.Compact(slices.Sorted(slices.Values(w.leftOut)))
	return &Patch{Text: w.text, Cut: w.cut, LeftOut: leftOut, Against: against}, nil
}

// patchArgs asks for a patch that reads the same whatever the user's git configuration says:
// no colour, no external or text-converted diffs, no renames (each file under its own name),
// the standard a/ and b/ prefixes, paths relative to the working directory.
func patchArgs() []string {
	return []string{"diff", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", "--relative",
		"--src-prefix=a/", "--dst-prefix=b/"}
}

// diffFrom picks the commit (or tree) the working tree is compared with.
func diffFrom(ctx context.Context, dir, base string) (from, against string, err error) {
	ref, _, err := resolveBase(ctx, dir, base)
	if err != nil {
		return "", "", err
	}
	if !isCommit(ctx, dir, "HEAD") {
		tree, err := runGit(ctx, dir, "hash-object", "-t", "tree", os.DevNull)
		if err != nil {
			return "", "", fmt.Errorf("find the empty tree: %w", err)
		}
		return strings.TrimSpace(string(tree)), "an empty tree (no commits yet)", nil
	}
	if ref == "" {
		return "HEAD", "HEAD (no base ref found)", nil
	}
	mergeBase, err := runGit(ctx, dir, "merge-base", ref, "HEAD")
	if err != nil {
		return "HEAD", fmt.Sprintf("HEAD (no merge-base with %s)", ref), nil
	}
	mb := strings.TrimSpace(string(mergeBase))
	return mb, fmt.Sprintf("%s (merge-base %s)", ref, mb[:min(len(mb), 12)]), nil
}

// DiffBase is the commit (or tree) the change is measured from, as Diff uses it, and a phrase
// saying what it is for the reader. hasBase is false when there is nothing accepted to compare
// with: no commit at all yet.
func DiffBase(ctx context.Context, projectRoot, base string) (from, against string, hasBase bool, err error) {
	inGit, _, err := insideWorkTree(ctx, projectRoot)
	if err != nil {
		return "", "", false, err
	}
	if !inGit {
		return "", "", false, ErrNotInGit
	}
	if !isCommit(ctx, projectRoot, "HEAD") {
		return "", "an empty tree (no commits yet)", false, nil
	}
	from, against, err = diffFrom(ctx, projectRoot, base)
	return from, against, err == nil, err
}
