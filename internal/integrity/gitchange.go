package integrity

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

// Bounds on what is read of a change, so that memory does not grow with a huge diff (a vendored
// tree, a generated file): past them the rest is not judged, and the result says so.
const (
	maxKeptLines   = 400_000
	maxLineBytes   = 2 << 10
	maxFileBytes   = 4 << 20 // a config or test file read whole
	maxListedBytes = 16 << 20
	readDeadline   = 10 * time.Second
)

// GitChange is a Change read from git: the work tree (committed, staged, unstaged and untracked
// files) against the merge-base of HEAD and the base ref (ReadSnapshot), or one commit against
// another (ReadGitCommits).
type GitChange struct {
	root  string
	from  string
	to    string // a commit to judge instead of the work tree (replaying history); "" for the work tree
	files []File
	// Truncated is set when the change was larger than the bounds and only part was read.
	Truncated bool
	// Against says what the change is measured from, for the reader.
	Against string
}

// ErrNoBase means there is nothing accepted to judge the change against (no commit yet).
var ErrNoBase = errors.New("no base to judge the change against")

// ReadGitCommits reads the change from commit from to commit to in the repository at dir (which
// may be a bare one): how a commit of history is judged, against its parent.
func ReadGitCommits(ctx context.Context, dir, from, to string, keep func(path string) bool) (*GitChange, error) {
	c := &GitChange{root: dir, from: from, to: to, Against: from}
	p := &patchReader{keep: keep}
	args := []string{"-c", "core.quotePath=false", "diff", "-M", "-U0", "--no-color", "--no-ext-diff", "--no-textconv",
		"--src-prefix=a/", "--dst-prefix=b/", from, to}
	if err := git.Stream(ctx, dir, args, p.read); err != nil {
		return nil, fmt.Errorf("diff %s..%s: %w", from, to, err)
	}
	c.files, c.Truncated = p.files, p.truncated
	slices.SortFunc(c.files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return c, nil
}

func (c *GitChange) Files() []File { return c.files }

// Old reads a file at the base, bounded.
func (c *GitChange) Old(path string) ([]byte, bool) {
	if path == "" {
		return nil, false
	}
	return c.show(c.from, path)
}

func (c *GitChange) show(commit, path string) ([]byte, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), readDeadline)
	defer cancel()
	spec := commit + ":" + path
	if c.to == "" {
		// "./" makes the path relative to the project root rather than to the top of the repository.
		spec = commit + ":./" + path
	}
	out, err := git.Output(ctx, c.root, maxFileBytes, "show", spec)
	if err != nil {
		return nil, false
	}
	return out, true
}

// New reads a file of the work tree, bounded, never leaving the project root.
func (c *GitChange) New(path string) ([]byte, bool) {
	if c.to != "" {
		return c.show(c.to, path)
	}
	root, err := os.OpenRoot(c.root)
	if err != nil {
		return nil, false
	}
	defer root.Close()
	return readInRoot(root, path)
}

func readInRoot(root *os.Root, path string) ([]byte, bool) {
	deadline := time.Now().Add(readDeadline)
	f, _, err := safefile.OpenInRoot(root, path, deadline)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	data, err := safefile.ReadAll(f, maxFileBytes, deadline)
	if err != nil {
		return nil, false
	}
	return data, true
}

func splitLines(data []byte) []string {
	s := strings.TrimSuffix(string(data), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func capLine(s string) string {
	s = strings.TrimSuffix(s, "\r")
	if len(s) > maxLineBytes {
		return s[:maxLineBytes]
	}
	return s
}

// patchReader turns `git diff -M -U0` into Files as the patch streams by.
type patchReader struct {
	keep      func(string) bool
	files     []File
	cur       *File
	keepCur   bool
	kept      int
	truncated bool
	// Lines left in the current hunk, and where the next ones are.
	oldLeft, newLeft, oldN, newN, at int
}

func (p *patchReader) read(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		p.line(sc.Text())
	}
	p.flush()
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			// One absurdly long line (minified code): the rest is not judged.
			p.truncated = true
			return git.ErrEnough
		}
		return err
	}
	return nil
}

func (p *patchReader) flush() {
	if p.cur != nil {
		p.files = append(p.files, *p.cur)
		p.cur = nil
	}
}

func (p *patchReader) line(line string) {
	if p.cur != nil && (p.oldLeft > 0 || p.newLeft > 0) && p.hunkLine(line) {
		return
	}
	if rest, ok := strings.CutPrefix(line, "diff --git "); ok {
		p.startFile(rest)
		return
	}
	if p.cur == nil {
		return
	}
	for _, h := range patchHeaders {
		if strings.HasPrefix(line, h.prefix) {
			h.read(p, line)
			return
		}
	}
}

// hunkLine takes a line of the current hunk; false when the hunk ended before it: a line that
// is none of a hunk's ends it.
func (p *patchReader) hunkLine(line string) bool {
	if line == "" {
		line = " "
	}
	switch line[0] {
	case '-':
		p.keepLine(&p.cur.Removed, Line{N: p.oldN, At: max(p.at, 1), Text: capLine(line[1:])})
		p.oldN++
		p.oldLeft--
	case '+':
		p.keepLine(&p.cur.Added, Line{N: p.newN, Text: capLine(line[1:])})
		p.newN++
		p.newLeft--
	case ' ':
		p.oldN++
		p.newN++
		p.oldLeft--
		p.newLeft--
	case '\\':
	default:
		p.oldLeft, p.newLeft = 0, 0
		return false
	}
	return true
}

// startFile begins a file at its "diff --git" line.
func (p *patchReader) startFile(paths string) {
	p.flush()
	a, b := headerPaths(paths)
	p.cur = &File{Path: b, OldPath: a}
	p.keepCur = p.keep == nil || p.keep(b) || p.keep(a)
}

// patchHeaders are the lines of a file's header that say what happened to it, by how they start.
var patchHeaders = []struct {
	prefix string
	read   func(p *patchReader, line string)
}{
	{"new file mode", func(p *patchReader, _ string) { p.cur.Created, p.cur.OldPath = true, "" }},
	{"deleted file mode", func(p *patchReader, _ string) { p.deleted() }},
	{"rename from ", func(p *patchReader, line string) {
		p.cur.OldPath = unquote(strings.TrimPrefix(line, "rename from "))
	}},
	{"rename to ", (*patchReader).renamedTo},
	{"--- ", (*patchReader).oldName},
	{"+++ ", (*patchReader).newName},
	{"@@ ", (*patchReader).startHunk},
}

func (p *patchReader) deleted() {
	p.cur.Deleted = true
	p.cur.Path = p.cur.OldPath
}

func (p *patchReader) renamedTo(line string) {
	p.cur.Path = unquote(strings.TrimPrefix(line, "rename to "))
	p.keepCur = p.keepCur || p.keep == nil || p.keep(p.cur.Path)
}

func (p *patchReader) oldName(line string) {
	if name := snapshot.PatchPath(line[4:]); name != "" {
		p.cur.OldPath = name
	}
}

// newName reads the "+++" line: /dev/null there is a deleted file.
func (p *patchReader) newName(line string) {
	if name := snapshot.PatchPath(line[4:]); name != "" {
		p.cur.Path = name
	} else {
		p.deleted()
	}
}

func (p *patchReader) startHunk(line string) {
	p.oldN, p.oldLeft, p.newN, p.newLeft = hunk(line)
	p.at = p.newN
	if p.newLeft == 0 {
		p.at = p.newN + 1 // -U0 names the line before a pure removal
	}
}

func (p *patchReader) keepLine(to *[]Line, l Line) {
	if !p.keepCur {
		return
	}
	if p.kept >= maxKeptLines {
		p.truncated = true
		return
	}
	p.kept++
	*to = append(*to, l)
}

// hunk reads "@@ -a,b +c,d @@".
func hunk(line string) (oldStart, oldCount, newStart, newCount int) {
	fields := strings.Fields(line)
	if len(fields) < 3 {
		return 0, 0, 0, 0
	}
	oldStart, oldCount = span(strings.TrimPrefix(fields[1], "-"))
	newStart, newCount = span(strings.TrimPrefix(fields[2], "+"))
	return
}

func span(s string) (start, count int) {
	a, b, hasCount := strings.Cut(s, ",")
	start, _ = strconv.Atoi(a)
	count = 1
	if hasCount {
		count, _ = strconv.Atoi(b)
	}
	return start, count
}

// headerPaths reads the two paths of "a/X b/Y": quoted ones, or two halves of equal length (the
// usual case), else the split at the last " b/". The "---"/"+++" and rename lines that follow
// correct them when present.
func headerPaths(rest string) (a, b string) {
	if strings.HasPrefix(rest, `"`) || strings.HasSuffix(rest, `"`) {
		parts := quotedFields(rest)
		if len(parts) == 2 {
			return strings.TrimPrefix(parts[0], "a/"), strings.TrimPrefix(parts[1], "b/")
		}
	}
	if n := (len(rest) - 1) / 2; len(rest)%2 == 1 && rest[n] == ' ' && rest[:n][2:] == rest[n+1:][2:] {
		return rest[2:n], rest[n+3:]
	}
	if i := strings.LastIndex(rest, " b/"); i > 0 {
		return strings.TrimPrefix(rest[:i], "a/"), rest[i+3:]
	}
	return rest, rest
}

func quotedFields(s string) []string {
	var out []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if s[0] != '"' {
			word, rest, _ := strings.Cut(s, " ")
			out = append(out, word)
			s = rest
			continue
		}
		end := closingQuote(s)
		if end < 0 {
			return nil
		}
		out = append(out, unquote(s[:end+1]))
		s = s[end+1:]
	}
	return out
}

// closingQuote is the index of the quote that closes the quoted string s starts with, escapes
// skipped; -1 when it is not closed.
func closingQuote(s string) int {
	end := 1
	for end < len(s) && s[end] != '"' {
		if s[end] == '\\' {
			end++
		}
		end++
	}
	if end >= len(s) {
		return -1
	}
	return end
}

func unquote(s string) string {
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}
