package integrity

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

// ReadSnapshot is the change of a run as the run's snapshot reads it (one git diff shared with
// change scoping, new_only and reviews), turned into this package's Files. A file moved without
// an edit is one renamed File; one moved and edited is a deletion and an addition, which the
// detectors read as such (a test moved by hand still counts as declared elsewhere).
func ReadSnapshot(ctx context.Context, snap *snapshot.Snapshot) (*GitChange, error) {
	from, against, hasBase, err := snap.DiffBase(ctx)
	if err != nil {
		return nil, err
	}
	if !hasBase {
		return nil, fmt.Errorf("%w: %s", ErrNoBase, against)
	}
	model, err := snap.Change(ctx)
	if err != nil {
		return nil, err
	}
	c := &GitChange{root: snap.Root(), from: from, Against: against, Truncated: model.Cut}
	r := snapshotReader{c: c}
	for _, sf := range model.Files {
		r.file(sf)
	}
	slices.SortFunc(c.files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return c, nil
}

// snapshotReader turns a snapshot's files into Files, keeping at most maxKeptLines lines in all.
type snapshotReader struct {
	c    *GitChange
	kept int
}

func (r *snapshotReader) file(sf *snapshot.File) {
	if sf.Status == snapshot.Deleted && sf.RenamedTo != "" {
		return // the added side stands for the move
	}
	f, moved := snapshotFile(sf)
	if !moved && Keep(sf.Path) {
		for _, h := range sf.Hunks {
			r.hunk(&f, h)
		}
	}
	r.c.files = append(r.c.files, f)
}

// snapshotFile is a snapshot file's File without its lines, and whether it is a move without
// an edit (same content: no line changed).
func snapshotFile(sf *snapshot.File) (File, bool) {
	f := File{Path: sf.Path, OldPath: sf.Path}
	switch {
	case sf.Status == snapshot.Added && sf.RenamedFrom != "":
		f.OldPath = sf.RenamedFrom
		return f, true
	case sf.Status == snapshot.Added:
		f.Created, f.OldPath = true, ""
	case sf.Status == snapshot.Deleted:
		f.Deleted = true
	}
	return f, false
}

func (r *snapshotReader) hunk(f *File, h snapshot.Hunk) {
	at := h.NewStart
	if h.NewLines == 0 {
		at++ // the hunk names the line before a pure removal
	}
	for _, l := range h.Lines {
		if r.kept >= maxKeptLines {
			r.c.Truncated = true
			return
		}
		at = r.line(f, l, at)
	}
}

// line keeps an added or removed line; at is the new line a removal is reported at, returned
// moved past the line.
func (r *snapshotReader) line(f *File, l snapshot.Line, at int) int {
	switch l.Kind {
	case snapshot.Add:
		f.Added = append(f.Added, Line{N: l.New, Text: capLine(l.Text)})
		r.kept++
		return l.New + 1
	case snapshot.Remove:
		f.Removed = append(f.Removed, Line{N: l.Old, At: max(at, 1), Text: capLine(l.Text)})
		r.kept++
	case snapshot.Context:
		return l.New + 1
	}
	return at
}
