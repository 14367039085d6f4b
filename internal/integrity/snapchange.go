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
	kept := 0
	for _, sf := range model.Files {
		if sf.Status == snapshot.Deleted && sf.RenamedTo != "" {
			continue // the added side stands for the move
		}
		f := File{Path: sf.Path, OldPath: sf.Path}
		switch {
		case sf.Status == snapshot.Added && sf.RenamedFrom != "":
			f.OldPath = sf.RenamedFrom
			c.files = append(c.files, f) // same content: no line changed
			continue
		case sf.Status == snapshot.Added:
			f.Created, f.OldPath = true, ""
		case sf.Status == snapshot.Deleted:
			f.Deleted = true
		}
		if Keep(sf.Path) {
			for _, h := range sf.Hunks {
				at := h.NewStart
				if h.NewLines == 0 {
					at++ // the hunk names the line before a pure removal
				}
				for _, l := range h.Lines {
					if kept >= maxKeptLines {
						c.Truncated = true
						break
					}
					switch l.Kind {
					case snapshot.Add:
						f.Added = append(f.Added, Line{N: l.New, Text: capLine(l.Text)})
						at = l.New + 1
						kept++
					case snapshot.Remove:
						f.Removed = append(f.Removed, Line{N: l.Old, At: max(at, 1), Text: capLine(l.Text)})
						kept++
					case snapshot.Context:
						at = l.New + 1
					}
				}
			}
		}
		c.files = append(c.files, f)
	}
	slices.SortFunc(c.files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return c, nil
}
