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
	c := &Change{}
	text := string(patch)
	var (
		f                *File
		h                *Hunk
		oldLeft, newLeft int
		oldLine, newLine int
	)
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		if h != nil && (oldLeft > 0 || newLeft > 0 || strings.HasPrefix(line, `\`)) {
			kind := byte(' ') // an empty line is a context line whose space an editor trimmed
			if line != "" {
				kind = line[0]
			}
			body := ""
			if line != "" {
				body = line[1:]
			}
			switch kind {
			case '+':
				h.Lines = append(h.Lines, Line{Kind: Add, New: newLine, Text: body})
				newLine++
				newLeft--
				continue
			case '-':
				h.Lines = append(h.Lines, Line{Kind: Remove, Old: oldLine, Text: body})
				oldLine++
				oldLeft--
				continue
			case ' ':
				h.Lines = append(h.Lines, Line{Kind: Context, Old: oldLine, New: newLine, Text: body})
				oldLine++
				newLine++
				oldLeft--
				newLeft--
				continue
			case '\\':
				if n := len(h.Lines); n > 0 {
					h.Lines[n-1].NoNewline = true
				}
				continue
			}
			oldLeft, newLeft = 0, 0 // not a hunk line after all: read it as a header
		}
		h = nil
		switch {
		case strings.HasPrefix(line, "diff --git "):
			path, _ := headerPath(line)
			f = &File{Path: path, Status: Modified}
			c.Files = append(c.Files, f)
		case f == nil:
			// Text before the first file header: nothing to attach it to.
		case strings.HasPrefix(line, "new file mode "):
			f.Status, f.NewMode = Added, strings.TrimPrefix(line, "new file mode ")
		case strings.HasPrefix(line, "deleted file mode "):
			f.Status, f.OldMode = Deleted, strings.TrimPrefix(line, "deleted file mode ")
		case strings.HasPrefix(line, "old mode "):
			f.OldMode = strings.TrimPrefix(line, "old mode ")
		case strings.HasPrefix(line, "new mode "):
			f.NewMode = strings.TrimPrefix(line, "new mode ")
		case strings.HasPrefix(line, "Binary files ") || line == "GIT binary patch":
			f.Binary = true
		case strings.HasPrefix(line, "--- "):
			if p := patchLinePath(line[4:]); p != "" && f.Path == "" {
				f.Path = p
			}
		case strings.HasPrefix(line, "+++ "):
			if p := patchLinePath(line[4:]); p != "" {
				f.Path = p
			}
		case strings.HasPrefix(line, "@@ "):
			f.Hunks = append(f.Hunks, hunkHeader(line))
			h = &f.Hunks[len(f.Hunks)-1]
			oldLeft, newLeft = h.OldLines, h.NewLines
			oldLine, newLine = h.OldStart, h.NewStart
		}
	}
	pairRenames(c)
	return c
}

// pairRenames links a deleted and an added file whose lines are the same: a file moved as it
// was. Only the patch is compared, so a binary or empty file is never paired.
func pairRenames(c *Change) {
	deleted := map[string]*File{}
	for _, f := range c.Files {
		if f.Status == Deleted && !f.Binary && len(f.Hunks) > 0 {
			deleted[content(f, Remove)] = f
		}
	}
	if len(deleted) == 0 {
		return
	}
	for _, f := range c.Files {
		if f.Status != Added || f.Binary || len(f.Hunks) == 0 {
			continue
		}
		if d := deleted[content(f, Add)]; d != nil && d.RenamedTo == "" && (d.OldMode == f.NewMode) {
			f.RenamedFrom, d.RenamedTo = d.Path, f.Path
		}
	}
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
