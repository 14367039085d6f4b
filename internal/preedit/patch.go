package preedit

import "strings"

// The markers of Codex's apply_patch format.
const (
	patchAdd    = "*** Add File: "
	patchUpdate = "*** Update File: "
	patchDelete = "*** Delete File: "
	patchMove   = "*** Move to: "
	patchEnd    = "*** End Patch"
	patchEOF    = "*** End of File"
)

// PatchCalls reads a Patch call (Codex's apply_patch) as one call per file it touches: an added
// file is a Write of its lines, an update is an Edit whose replacements are its hunks (context
// and removed lines replaced by context and added ones), a deleted file a Write of nothing. A
// moved file is left out: it is the stop's to judge, with the test that moves along with its
// code. What the format does not allow is skipped, and the host then refuses the patch itself.
func (c Call) PatchCalls() []Call {
	var out []Call
	var cur *patchFile
	flush := func() {
		if cur != nil && !cur.moved {
			out = append(out, cur.call(c))
		}
		cur = nil
	}
	for _, line := range strings.Split(c.Command, "\n") {
		switch {
		case strings.HasPrefix(line, patchAdd):
			flush()
			cur = &patchFile{path: strings.TrimPrefix(line, patchAdd), kind: Write}
		case strings.HasPrefix(line, patchUpdate):
			flush()
			cur = &patchFile{path: strings.TrimPrefix(line, patchUpdate), kind: Edit}
		case strings.HasPrefix(line, patchDelete):
			flush()
			cur = &patchFile{path: strings.TrimPrefix(line, patchDelete), kind: Write}
		case strings.HasPrefix(line, patchEnd):
			flush()
		case cur != nil:
			cur.line(line)
		}
	}
	return out
}

// patchFile is one file of a patch as it is read.
type patchFile struct {
	path  string
	kind  Kind
	moved bool
	added []string // an added file's lines
	hunks []Replace
	open  bool // a hunk is being read
}

// line reads one line of the file's section.
func (f *patchFile) line(line string) {
	switch {
	case strings.HasPrefix(line, patchMove):
		f.moved = true
	case strings.HasPrefix(line, "@@"), line == patchEOF:
		f.open = false
	case f.kind == Write:
		if rest, ok := strings.CutPrefix(line, "+"); ok {
			f.added = append(f.added, rest)
		}
	case line != "":
		f.hunkLine(line[0], line[1:])
	}
}

// hunkLine adds a line of an update's hunk: ' ' is context, '-' removed, '+' added.
func (f *patchFile) hunkLine(op byte, text string) {
	if !f.open {
		f.hunks = append(f.hunks, Replace{})
		f.open = true
	}
	h := &f.hunks[len(f.hunks)-1]
	switch op {
	case ' ':
		h.Old += text + "\n"
		h.New += text + "\n"
	case '-':
		h.Old += text + "\n"
	case '+':
		h.New += text + "\n"
	}
}

// call is the file's change as a call of c's.
func (f *patchFile) call(c Call) Call {
	out := Call{Tool: c.Tool, Kind: f.kind, Path: f.path, Dir: c.Dir, Session: c.Session}
	switch {
	case f.kind == Edit:
		out.Edits = f.hunks
	case len(f.added) > 0:
		out.Content = strings.Join(f.added, "\n") + "\n"
	}
	return out
}
