package snapshot

import (
	"context"
	"strconv"
	"strings"
)

// DefaultPatchBytes is how much of the patch Change reads when the run's options name no size:
// what new_only has always read.
const DefaultPatchBytes = 32 << 20

// Change is the run's change, file by file, as one model that new_only, review gates and
// integrity checks share: which files the change touches, how (added, deleted, modified, mode
// changed), and its hunks with every added, removed and context line and their line numbers.
//
// It is the patch a reviewer sees without anything left out: commits since the merge-base,
// staged and unstaged edits, and untracked files as new files, cut at the run's patch size
// (Options.PatchBytes, or DefaultPatchBytes).
//
// Renames: the diff is taken without rename detection, so that every line of a moved file
// counts as added (as new_only and reviews have always seen it). A moved file is a deletion and
// an addition; when the two have the same content, the added File's RenamedFrom and the deleted
// File's RenamedTo name each other.
type Change struct {
	// Against says what the change is measured from: "main (merge-base 1a2b3c4d5e6f)", "HEAD".
	Against string
	// Files are in patch order: tracked files sorted by path, then untracked files.
	Files []*File
	// Cut is set when the patch was longer than the run reads: Files stops early and its last
	// file may miss hunks. Anything that must not guess (new_only) treats a cut change as
	// unknown.
	Cut bool
}

// FileStatus says what the change did to a file.
type FileStatus string

const (
	Added    FileStatus = "added"
	Deleted  FileStatus = "deleted"
	Modified FileStatus = "modified" // content, mode, or both
)

// File is one file of a change.
type File struct {
	// Path is the file's root-relative path (for a deleted file, the path it had).
	Path   string
	Status FileStatus
	// OldMode and NewMode are git's modes ("100644", "100755", "120000" for a symlink, "160000"
	// for a submodule); "" on the side where the file does not exist, and both "" when the
	// patch did not say (a content change keeps the mode).
	OldMode, NewMode string
	// Untracked is set for a file git does not track yet (shown as a new file).
	Untracked bool
	// Binary is set when git shows no lines for the file, only that it differs.
	Binary bool
	// RenamedFrom, on an added file, names a deleted file of the same change with the same
	// content; RenamedTo, on that deleted file, names the added one.
	RenamedFrom, RenamedTo string
	Hunks                  []Hunk
}

// Hunk is one "@@ -a,b +c,d @@" section of a file's patch.
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
	// Header is what follows the second "@@" (often the enclosing function), without the space.
	Header string
	Lines  []Line
}

// LineKind is the first character of a patch line.
type LineKind byte

const (
	Context LineKind = ' '
	Add     LineKind = '+'
	Remove  LineKind = '-'
)

// Line is one line of a hunk.
type Line struct {
	Kind LineKind
	// Old and New are the line's numbers in the old and new file; 0 on the side where it does
	// not exist (an added line has no Old, a removed line no New).
	Old, New int
	// Text is the line without its marker and newline.
	Text string
	// NoNewline is set when the file ends on this line without a newline.
	NoNewline bool
}

// Change reads the run's change once (the same git diff as ChangedFiles and Patch) and returns
// its model. Outside git the error is ErrNotGit.
func (s *Snapshot) Change(ctx context.Context) (*Change, error) {
	return s.change.get(ctx, func() (*Change, error) {
		limit := s.opts.PatchBytes
		if limit <= 0 {
			limit = DefaultPatchBytes
		}
		p, err := s.Patch(ctx, PatchOptions{MaxBytes: limit})
		if err != nil {
			return nil, err
		}
		c := ParsePatch(p.Text)
		c.Against, c.Cut = p.Against, p.Cut
		tree, err := s.Tree(ctx)
		if err != nil {
			return nil, err
		}
		for _, f := range c.Files {
			if e, ok := tree.Lookup(f.Path); ok && e.Untracked && f.Status == Added {
				f.Untracked = true
			}
		}
		return c, nil
	})
}

// File returns the file at path (root-relative), or nil when the change does not touch it.
func (c *Change) File(path string) *File {
	for _, f := range c.Files {
		if f.Path == path {
			return f
		}
	}
	return nil
}

// Added returns the lines the change adds, by file: what new_only and review gates attribute
// findings with.
func (c *Change) Added() AddedLines {
	added := AddedLines{}
	for _, f := range c.Files {
		if f.Path == "" {
			continue // a header this code could not read
		}
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				if l.Kind != Add {
					continue
				}
				if added[f.Path] == nil {
					added[f.Path] = map[int]bool{}
				}
				added[f.Path][l.New] = true
			}
		}
	}
	return added
}

// AddedLines is the set of lines a patch adds, by root-relative path and line number in the new
// version of the file.
type AddedLines map[string]map[int]bool

// Has reports whether line of file is one the patch adds.
func (a AddedLines) Has(file string, line int) bool { return a[file][line] }

// ParseAdded reads a unified diff (as Patch produces it, possibly cut short) and returns the
// lines it adds.
func ParseAdded(patch []byte) AddedLines { return ParsePatch(patch).Added() }

// ParsePatch reads a unified diff as git writes it (a/ and b/ prefixes, possibly cut short)
// into a Change. Hunk line counts are followed, so an added line that happens to start with
// "+++" or "diff --git" is not mistaken for a header.
func ParsePatch(patch []byte) *Change {
	r := &patchReader{c: &Change{}}
	text := string(patch)
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		r.read(line)
	}
	pairRenames(r.c)
	return r.c
}

// patchReader is ParsePatch's place in the diff: the file and hunk being read, and how many of
// the hunk's old and new lines are still to come.
type patchReader struct {
	c                *Change
	f                *File
	h                *Hunk
	oldLeft, newLeft int
	oldLine, newLine int
}

func (r *patchReader) read(line string) {
	if r.inHunk(line) && r.hunkLine(line) {
		return
	}
	r.h = nil
	r.header(line)
}

// inHunk reports whether line may belong to the hunk being read: lines of it are still to come,
// or it is the "\ No newline at end of file" after its last.
func (r *patchReader) inHunk(line string) bool {
	return r.h != nil && (r.oldLeft > 0 || r.newLeft > 0 || strings.HasPrefix(line, `\`))
}

// hunkLine reads line as a line of the hunk; false when it is not one after all, and is to be
// read as a header.
func (r *patchReader) hunkLine(line string) bool {
	kind, body := byte(' '), "" // an empty line is a context line whose space an editor trimmed
	if line != "" {
		kind, body = line[0], line[1:]
	}
	h := r.h
	switch kind {
	case '+':
		h.Lines = append(h.Lines, Line{Kind: Add, New: r.newLine, Text: body})
		r.newLine++
		r.newLeft--
	case '-':
		h.Lines = append(h.Lines, Line{Kind: Remove, Old: r.oldLine, Text: body})
		r.oldLine++
		r.oldLeft--
	case ' ':
		h.Lines = append(h.Lines, Line{Kind: Context, Old: r.oldLine, New: r.newLine, Text: body})
		r.oldLine++
		r.newLine++
		r.oldLeft--
		r.newLeft--
	case '\\':
		if n := len(h.Lines); n > 0 {
			h.Lines[n-1].NoNewline = true
		}
	default:
		r.oldLeft, r.newLeft = 0, 0
		return false
	}
	return true
}

// header reads a line outside hunks: a file's header, a hunk's, or text to pass over.
func (r *patchReader) header(line string) {
	switch {
	case strings.HasPrefix(line, "diff --git "):
		path, _ := headerPath(line)
		r.f = &File{Path: path, Status: Modified}
		r.c.Files = append(r.c.Files, r.f)
	case r.f == nil:
		// Text before the first file header: nothing to attach it to.
	case strings.HasPrefix(line, "@@ "):
		r.f.Hunks = append(r.f.Hunks, hunkHeader(line))
		r.h = &r.f.Hunks[len(r.f.Hunks)-1]
		r.oldLeft, r.newLeft = r.h.OldLines, r.h.NewLines
		r.oldLine, r.newLine = r.h.OldStart, r.h.NewStart
	case line == "GIT binary patch":
		r.f.Binary = true
	default:
		applyFileHeader(r.f, line)
	}
}

// fileHeaders are the lines of a file's extended header and what each says of the file, given
// the rest of the line after its prefix.
var fileHeaders = []struct {
	prefix string
	apply  func(f *File, rest string)
}{
	{"new file mode ", func(f *File, rest string) { f.Status, f.NewMode = Added, rest }},
	{"deleted file mode ", func(f *File, rest string) { f.Status, f.OldMode = Deleted, rest }},
	{"old mode ", func(f *File, rest string) { f.OldMode = rest }},
	{"new mode ", func(f *File, rest string) { f.NewMode = rest }},
	{"Binary files ", func(f *File, _ string) { f.Binary = true }},
	{"--- ", func(f *File, rest string) {
		if p := patchLinePath(rest); p != "" && f.Path == "" {
			f.Path = p
		}
	}},
	{"+++ ", func(f *File, rest string) {
		if p := patchLinePath(rest); p != "" {
			f.Path = p
		}
	}},
}

// applyFileHeader notes what a header line says of f; any other line says nothing.
func applyFileHeader(f *File, line string) {
	for _, fh := range fileHeaders {
		if rest, ok := strings.CutPrefix(line, fh.prefix); ok {
			fh.apply(f, rest)
			return
		}
	}
}

// pairRenames links a deleted and an added file whose lines are the same: a file moved as it
// was. Only the patch is compared, so a binary or empty file is never paired.
func pairRenames(c *Change) {
	deleted := map[string]*File{}
	for _, f := range c.Files {
		if isWholeTextFile(f, Deleted) {
			deleted[content(f, Remove)] = f
		}
	}
	if len(deleted) == 0 {
		return
	}
	for _, f := range c.Files {
		if !isWholeTextFile(f, Added) {
			continue
		}
		if d := deleted[content(f, Add)]; d != nil && d.RenamedTo == "" && (d.OldMode == f.NewMode) {
			f.RenamedFrom, d.RenamedTo = d.Path, f.Path
		}
	}
}

// isWholeTextFile reports a file of the status whose lines the patch holds: not binary, not
// empty.
func isWholeTextFile(f *File, status FileStatus) bool {
	return f.Status == status && !f.Binary && len(f.Hunks) > 0
}

// content joins the lines of one kind of a whole-file hunk, with whether the file ends in a
// newline.
func content(f *File, kind LineKind) string {
	var b strings.Builder
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			if l.Kind == kind {
				b.WriteString(l.Text)
				if !l.NoNewline {
					b.WriteByte('\n')
				}
			}
		}
	}
	return b.String()
}

// hunkHeader reads "@@ -a,b +c,d @@ header".
func hunkHeader(line string) Hunk {
	var h Hunk
	rest, _ := strings.CutPrefix(line, "@@ ")
	ranges, header, _ := strings.Cut(rest, " @@")
	h.Header = strings.TrimPrefix(header, " ")
	fields := strings.Fields(ranges)
	if len(fields) < 2 {
		return h
	}
	h.OldStart, h.OldLines = hunkSpan(strings.TrimPrefix(fields[0], "-"))
	h.NewStart, h.NewLines = hunkSpan(strings.TrimPrefix(fields[1], "+"))
	return h
}

// hunkSpan reads "start,count" or "start" (a count of one).
func hunkSpan(s string) (start, count int) {
	startText, countText, hasCount := strings.Cut(s, ",")
	start, err := strconv.Atoi(startText)
	if err != nil {
		return 0, 0
	}
	if !hasCount {
		return start, 1
	}
	count, err = strconv.Atoi(countText)
	if err != nil {
		return 0, 0
	}
	return start, count
}
