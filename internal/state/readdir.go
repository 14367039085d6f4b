package state

import (
	"io/fs"
	"slices"
	"strings"
)

// ReadDir lists a directory relative to the state directory, sorted by name; a missing one
// satisfies errors.Is(err, fs.ErrNotExist).
func (d *Dir) ReadDir(name string) ([]fs.DirEntry, error) {
	rel, err := d.localName(name)
	if err != nil {
		return nil, err
	}
	f, err := d.root.Open(rel)
	if err != nil {
		return nil, opErr(d.display(rel), "list", err)
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, opErr(d.display(rel), "list", err)
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}
