package snapshot

import (
	"bytes"
	"context"
	"slices"
)

// PatchOptions say how much of the change a Patch shows, and what it must never show.
type PatchOptions struct {
	// MaxBytes caps Patch.Text; below 1 means no cap.
	MaxBytes int64
	// Skip, when it returns true for a root-relative path, keeps that file out of the patch: its
	// lines are dropped and an untracked one is not even read.
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
	// Files names every file of the change, sorted, whether its lines are shown or not: a reader
	// of a cut diff is told what the change holds beyond what it sees.
	Files []string
	// NotShown names the files of Files with no line in Text (the cut, or kept out), sorted.
	NotShown []string
	// Against says what the diff is against, for the reader: "main (merge-base 1a2b3c4d)", "HEAD".
	Against string
}

// Patch returns the change as a unified diff: the working tree against the merge-base with the
// base (so commits since then, staged and unstaged edits), plus untracked files that are not
// ignored, shown as new files. Without a base it is the uncommitted work against HEAD, and
// without any commit the whole tree. Only changes inside the project root are shown; gauntlet's
// state directory never is. Outside git the error is ErrNotGit; an explicit base that does not
// exist wraps ErrBaseNotFound.
//
// Each call cuts its own view from the run's one diff, so reviews with different caps and
// filters share one git process.
func (s *Snapshot) Patch(ctx context.Context, opts PatchOptions) (*Patch, error) {
	want := opts.MaxBytes
	if want < 1 {
		want = noCap
	}
	d, err := s.diffWith(ctx, want)
	if err != nil {
		return nil, err
	}
	tree, err := s.Tree(ctx)
	if err != nil {
		return nil, err
	}
	w := newPatchWriter(opts.MaxBytes, opts.Skip)
	w.consume(bytes.NewReader(d.text))
	if d.cut {
		// The run's diff was cut at its own cap: whatever this view holds, more of the change
		// did not fit (with files kept out, perhaps less than the cap would have allowed).
		w.cut = true
		delete(w.shown, w.path) // the last section of a cut diff is not whole
	}
	if err := addUntracked(s.root, tree.untracked(), w); err != nil {
		return nil, err
	}
	leftOut := slices.Compact(slices.Sorted(slices.Values(w.leftOut)))
	files := slices.Compact(slices.Sorted(slices.Values(slices.Concat(d.names, tree.untracked()))))
	var notShown []string
	for _, f := range files {
		if !w.shown[f] {
			notShown = append(notShown, f)
		}
	}
	return &Patch{Text: w.text, Cut: w.cut, LeftOut: leftOut, Against: d.against, Files: files, NotShown: notShown}, nil
}
