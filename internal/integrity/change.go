// Package integrity tells a change that weakens the gates (tests deleted or skipped, suppressions
// added, checks relaxed in configuration, the stop hook removed) from one that fixes the code.
// It judges a Change: the files between the accepted base and the work tree.
package integrity

// Change is what the detectors read. It is an interface of this package's own so that the source
// of the change (a git diff today, the shared change model later) can be swapped without touching
// a detector.
type Change interface {
	// Files are the changed files, in path order.
	Files() []File
	// Old is a file's content at the base; ok is false when it did not exist there or could not
	// be read within the bounds.
	Old(path string) (data []byte, ok bool)
	// New is a file's content in the work tree; ok is false when it does not exist now.
	New(path string) (data []byte, ok bool)
}

// File is one changed file.
type File struct {
	// Path is where the file is now; for a deleted file, where it was.
	Path string
	// OldPath is where the file was at the base: Path unless renamed, "" when created.
	OldPath string
	Created bool
	Deleted bool
	// Added are the lines the change adds, numbered in the new file.
	Added []Line
	// Removed are the lines the change removes, numbered in the old file, with At the line of the
	// new file where they were (so that a finding about a removal has a place to point at).
	Removed []Line
}

// Renamed reports whether the file moved.
func (f File) Renamed() bool { return f.OldPath != "" && f.OldPath != f.Path && !f.Deleted }

// Line is one added or removed line.
type Line struct {
	N    int
	At   int // removed lines only: where in the new file the removal is
	Text string
}
