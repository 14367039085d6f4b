package snapshot

// LineMap maps the lines of the changed version of files back to the version the change is
// measured from: how new_only finds "the same line" at the base after the change moved it.
type LineMap map[string]*fileLines

// fileLines is one file's hunks; created says the change creates the file (a new or untracked
// file, or the new name of a moved one), so none of its lines has a counterpart.
type fileLines struct {
	created bool
	hunks   []lineHunk
}

// lineHunk is one hunk: the new lines it holds, where it ends on the old side, and the old line
// of each new line inside it (0 for an added line).
type lineHunk struct {
	newStart, newEnd int // the new lines [newStart, newEnd) are the hunk's
	oldEnd           int // the first old line after the hunk
	old              map[int]int
}

// LineMap returns the map of the change's new lines to its old ones. A cut change maps only the
// files it shows; callers that need every file check Cut.
func (c *Change) LineMap() LineMap {
	m := LineMap{}
	for _, f := range c.Files {
		if f.Path == "" || f.Status == Deleted {
			continue
		}
		fl := &fileLines{created: f.Status == Added}
		for _, h := range f.Hunks {
			newFirst := spanFirst(h.NewStart, h.NewLines)
			lh := lineHunk{
				newStart: newFirst, newEnd: newFirst + h.NewLines,
				oldEnd: spanFirst(h.OldStart, h.OldLines) + h.OldLines,
				old:    make(map[int]int, h.NewLines),
			}
			for _, l := range h.Lines {
				if l.New > 0 {
					lh.old[l.New] = l.Old // 0 for an added line
				}
			}
			fl.hunks = append(fl.hunks, lh)
		}
		m[f.Path] = fl
	}
	return m
}

// spanFirst is the first line of a hunk's side "start,count": an empty side names the line
// before the place it would be.
func spanFirst(start, count int) int {
	if count == 0 {
		return start + 1
	}
	return start
}

// Old returns the line of file in the version the change is measured from that is line in the
// changed version; ok is false for a line the change added (or any line of a file it created).
// A file the change does not touch is unchanged; line 0 (the whole file) maps to itself unless
// the file is new.
func (m LineMap) Old(file string, line int) (int, bool) {
	f := m.lookup(file)
	switch {
	case f == nil:
		return line, true
	case f.created:
		return 0, false
	case line <= 0:
		return line, true
	}
	return f.old(line)
}

// lookup finds file's lines under any name a tool may give it (with an a/ or b/ prefix).
func (m LineMap) lookup(file string) *fileLines {
	for _, c := range pathCandidates(file, "") {
		if f := m[c]; f != nil {
			return f
		}
	}
	return nil
}

// old maps a line of the changed version of a file the change edited to the version the change
// is measured from.
func (f *fileLines) old(line int) (int, bool) {
	delta := 0
	for _, h := range f.hunks {
		if line < h.newStart {
			break
		}
		if line < h.newEnd {
			old := h.old[line]
			return old, old > 0
		}
		delta = h.newEnd - h.oldEnd
	}
	return line - delta, true
}
