package integrity

import (
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// maxDiffCells bounds the table of the line diff between the lines two versions do not share at
// their ends: an edit changes a few lines, and a rewrite of a whole large file is read as every
// line removed and every line added rather than held as a table of millions of cells.
const maxDiffCells = 4 << 20

// Edited is the change of one file in memory, from its old bytes to new ones: the edit guard's
// change (pre-edit), judged by the same detectors as a change read from git.
type Edited struct {
	file     File
	old, new []byte
	hadOld   bool
}

// OneFile is the change of the file at p (slash-separated, relative to the project root) from
// old (hadOld false: the file is created) to new.
func OneFile(p string, old []byte, hadOld bool, new []byte) *Edited {
	f := File{Path: p, OldPath: p}
	if !hadOld {
		f.Created, f.OldPath = true, ""
	}
	if Keep(p) {
		f.Added, f.Removed = DiffLines(splitLines(old), splitLines(new))
	}
	return &Edited{file: f, old: old, new: new, hadOld: hadOld}
}

// Files implements Change.
func (e *Edited) Files() []File {
	if !e.file.Created && len(e.file.Added) == 0 && len(e.file.Removed) == 0 {
		return nil
	}
	return []File{e.file}
}

// Old implements Change.
func (e *Edited) Old(p string) ([]byte, bool) {
	if p != e.file.Path || !e.hadOld {
		return nil, false
	}
	return e.old, true
}

// New implements Change.
func (e *Edited) New(p string) ([]byte, bool) {
	if p != e.file.Path {
		return nil, false
	}
	return e.new, true
}

// Overlay is the change under, with one file as an edit would leave it: the whole change the stop
// would judge once the edit lands (a test moved with its code is then seen on both sides).
type Overlay struct {
	under Change
	file  *Edited
	files []File
}

// WithFile is under with the file at p holding new; old is its content at under's base.
func WithFile(under Change, p string, old []byte, hadOld bool, new []byte) *Overlay {
	o := &Overlay{under: under, file: OneFile(p, old, hadOld, new)}
	for _, f := range under.Files() {
		if f.Path != p {
			o.files = append(o.files, f)
		}
	}
	o.files = append(o.files, o.file.Files()...)
	slices.SortFunc(o.files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return o
}

// Files implements Change.
func (o *Overlay) Files() []File { return o.files }

// Old implements Change.
func (o *Overlay) Old(p string) ([]byte, bool) { return o.under.Old(p) }

// New implements Change.
func (o *Overlay) New(p string) ([]byte, bool) {
	if p == o.file.file.Path {
		return o.file.new, true
	}
	return o.under.New(p)
}

// DiffLines are the lines added to a and removed from it to make b, numbered as a git diff
// numbers them: the lines both share at their start and end are set aside, and the rest is
// compared by longest common subsequence (every line removed and added when too large).
func DiffLines(a, b []string) (added, removed []Line) {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if (len(ma)+1)*(len(mb)+1) > maxDiffCells {
		for i, l := range ma {
			removed = append(removed, Line{N: pre + i + 1, At: pre + 1, Text: capLine(l)})
		}
		for j, l := range mb {
			added = append(added, Line{N: pre + j + 1, Text: capLine(l)})
		}
		return added, removed
	}
	return lcsDiff(ma, mb, pre)
}

// lcsDiff diffs a and b, which start after off lines both share.
func lcsDiff(a, b []string, off int) (added, removed []Line) {
	lcs := make([][]int32, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			i++
			j++
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			// Removals first, as git prints a hunk: a removal is placed where the new lines start.
			removed = append(removed, Line{N: off + i + 1, At: off + j + 1, Text: capLine(a[i])})
			i++
		default:
			added = append(added, Line{N: off + j + 1, Text: capLine(b[j])})
			j++
		}
	}
	return added, removed
}

// ReadsGateCommands says whether the rules on the file at p need the gates' commands (a script
// or make target is judged only when a gate runs it).
func ReadsGateCommands(p string) bool { return runsCommands(p) }

// PolicyOfConfig is the integrity policy a gauntlet config's bytes set; none when they do not
// parse.
func PolicyOfConfig(data []byte) gates.IntegrityPolicy {
	tree, err := parse(formatYAML, data)
	if err != nil {
		return gates.IntegrityPolicy{}
	}
	return PolicyOf(tree["integrity"])
}
