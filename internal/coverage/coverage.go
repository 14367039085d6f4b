// Package coverage reads line coverage from the tools that write it (Go's cover profile, lcov,
// coverage.py's JSON) into one model, and compares the coverage of a change with its base: the
// lines the change did not touch that were covered at the base and are not now.
//
// It does no I/O of its own: readers take an io.Reader, read it as a stream and keep at most
// Options' bounds, saying so in the coverage's notes when they cut.
package coverage

import (
	"bytes"
	"errors"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Coverage is the line coverage of a project: per file (a root-relative, slash-separated path),
// the lines that could be covered and those that were.
type Coverage struct {
	// Format names the reader: "go", "lcov", "coverage.py".
	Format string
	// Files by root-relative path.
	Files map[string]*File
	// Complete is false when a bound cut the data or the input ended early; Notes say why.
	Complete bool
	Notes    []string
}

// File is the coverage of one file: each instrumented line (one that could be covered), and
// whether it was.
type File struct {
	lines map[int]bool // instrumented line → covered
}

// Instrumented reports whether line could be covered.
func (f *File) Instrumented(line int) bool {
	if f == nil {
		return false
	}
	_, ok := f.lines[line]
	return ok
}

// Covered reports whether line was covered.
func (f *File) Covered(line int) bool {
	return f != nil && f.lines[line]
}

// Lines returns the instrumented lines in order.
func (f *File) Lines() []int {
	if f == nil {
		return nil
	}
	out := make([]int, 0, len(f.lines))
	for l := range f.lines {
		out = append(out, l)
	}
	slices.Sort(out)
	return out
}

// CoveredLines returns the covered lines in order.
func (f *File) CoveredLines() []int {
	var out []int
	for _, l := range f.Lines() {
		if f.lines[l] {
			out = append(out, l)
		}
	}
	return out
}

// Options bounds what a reader keeps. Zero fields take the defaults.
type Options struct {
	// MaxFiles is the number of files kept (default 100,000); later files are dropped.
	MaxFiles int
	// MaxLines is the number of instrumented lines kept over all files (default 2,000,000).
	MaxLines int
	// MaxLineNumber is the largest line number believed (default 10,000,000); a larger one is
	// dropped.
	MaxLineNumber int
}

const (
	defaultMaxFiles      = 100_000
	defaultMaxLines      = 2_000_000
	defaultMaxLineNumber = 10_000_000
	// maxNotes bounds the notes a coverage keeps.
	maxNotes = 20
)

func (o Options) withDefaults() Options {
	if o.MaxFiles <= 0 {
		o.MaxFiles = defaultMaxFiles
	}
	if o.MaxLines <= 0 {
		o.MaxLines = defaultMaxLines
	}
	if o.MaxLineNumber <= 0 {
		o.MaxLineNumber = defaultMaxLineNumber
	}
	return o
}

// PathMap maps a file name as a tool writes it (an import path, an absolute path, a path relative
// to where the tool ran) to a root-relative, slash-separated path; ok is false for a file outside
// the project (the standard library, a dependency), which is then not kept.
type PathMap func(name string) (rel string, ok bool)

// RootRelative maps the names lcov and coverage.py write: an absolute path inside root, or a path
// relative to root (where the tool ran). Paths that leave root are dropped. Backslashes are read as
// separators, as Windows tools write them.
func RootRelative(root string) PathMap {
	root = path.Clean(strings.ReplaceAll(root, `\`, "/"))
	return func(name string) (string, bool) { return relToRoot(root, name) }
}

// relToRoot maps a name as RootRelative does, root cleaned.
func relToRoot(root, name string) (string, bool) {
	name = strings.ReplaceAll(name, `\`, "/")
	if name == "" {
		return "", false
	}
	if !path.IsAbs(name) && !isDriveAbs(name) {
		return cleanRel(name)
	}
	if root == "" || root == "." {
		return "", false
	}
	rel, ok := strings.CutPrefix(path.Clean(name), strings.TrimSuffix(root, "/")+"/")
	if !ok {
		return "", false
	}
	return cleanRel(rel)
}

// isDriveAbs reports a Windows path with a drive letter, "C:/x".
func isDriveAbs(name string) bool {
	return len(name) >= 3 && name[1] == ':' && name[2] == '/' &&
		('a' <= name[0]|0x20 && name[0]|0x20 <= 'z')
}

// cleanRel cleans a relative slash path, refusing one that leaves its root.
func cleanRel(name string) (string, bool) {
	c := path.Clean(name)
	if c == "." || c == ".." || strings.HasPrefix(c, "../") || path.IsAbs(c) || strings.ContainsRune(c, 0) {
		return "", false
	}
	return c, true
}

// Module is a Go module of the project: its module path, and its directory relative to the root
// ("" or "." for the root's own go.mod).
type Module struct {
	Path string
	Dir  string
}

// GoModules maps the import-path file names of a Go cover profile ("example.com/m/pkg/lib.go")
// to root-relative paths ("pkg/lib.go"): the longest module path that prefixes the name wins.
// Files of other modules and of the standard library are dropped.
func GoModules(mods ...Module) PathMap {
	mods = slices.Clone(mods)
	slices.SortFunc(mods, func(a, b Module) int { return len(b.Path) - len(a.Path) })
	return func(name string) (string, bool) { return moduleRel(mods, name) }
}

// moduleRel maps a name as GoModules does, mods longest path first.
func moduleRel(mods []Module, name string) (string, bool) {
	for _, m := range mods {
		if m.Path == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(name, m.Path+"/"); ok {
			return cleanRel(inModuleDir(m.Dir, rest))
		}
	}
	return "", false
}

// inModuleDir is a path relative to a module's directory made relative to the root.
func inModuleDir(dir, rest string) string {
	dir = strings.Trim(filepath.ToSlash(dir), "/")
	if dir == "" || dir == "." {
		return rest
	}
	return dir + "/" + rest
}

// GoModPath returns the module path a go.mod declares.
func GoModPath(gomod []byte) (string, error) {
	for line := range bytes.Lines(gomod) {
		rest, ok := moduleDirective(line)
		if !ok {
			continue
		}
		p := string(bytes.Trim(bytes.TrimSpace(rest), "\"`"))
		if p == "" || strings.ContainsAny(p, " \t\"`") {
			return "", errors.New("go.mod: malformed module line")
		}
		return p, nil
	}
	return "", errors.New("go.mod: no module line")
}

// moduleDirective is what follows "module" on a line of go.mod that is the module directive,
// its comment dropped; false for any other line.
func moduleDirective(line []byte) ([]byte, bool) {
	line = bytes.TrimSpace(line)
	if i := bytes.Index(line, []byte("//")); i >= 0 {
		line = bytes.TrimSpace(line[:i])
	}
	rest, ok := bytes.CutPrefix(line, []byte("module"))
	if !ok || len(rest) == 0 || (rest[0] != ' ' && rest[0] != '\t' && rest[0] != '"') {
		return nil, false
	}
	return rest, true
}

// GoModMap is GoModules for the one module whose go.mod is at the root.
func GoModMap(gomod []byte) (PathMap, error) {
	p, err := GoModPath(gomod)
	if err != nil {
		return nil, err
	}
	return GoModules(Module{Path: p}), nil
}

// builder collects a coverage within its bounds.
type builder struct {
	opts     Options
	cov      Coverage
	lines    int
	capFiles bool
	capLines bool
	capNum   bool
	dropped  int // files dropped by the PathMap
}

func newBuilder(format string, opts Options) *builder {
	return &builder{opts: opts.withDefaults(), cov: Coverage{Format: format, Files: map[string]*File{}, Complete: true}}
}

// keptFile is the file a report names, nil when paths drops it (counted).
func keptFile(b *builder, paths PathMap, name string) *File {
	rel, keep := paths(name)
	if !keep {
		b.dropped++
		return nil
	}
	return b.file(rel)
}

// file returns the kept file rel, creating it within the bounds; nil when it is not kept.
func (b *builder) file(rel string) *File {
	if f := b.cov.Files[rel]; f != nil {
		return f
	}
	if len(b.cov.Files) >= b.opts.MaxFiles {
		b.incompleteOnce(&b.capFiles, "more than ", b.opts.MaxFiles, " files: the rest were not kept")
		return nil
	}
	f := &File{lines: map[int]bool{}}
	b.cov.Files[rel] = f
	return f
}

// add records line of f as instrumented, and covered when covered is true. A line seen twice is
// covered when either saw it covered. Once the bound on lines is reached, lines already kept can
// still become covered, and no other is kept.
func (b *builder) add(f *File, line int, covered bool) {
	if f == nil {
		return
	}
	if line < 1 || line > b.opts.MaxLineNumber {
		b.incompleteOnce(&b.capNum, "a line number out of range (1 to ", b.opts.MaxLineNumber, ") was dropped")
		return
	}
	was, ok := f.lines[line]
	if ok {
		if covered && !was {
			f.lines[line] = true
		}
		return
	}
	if b.lines >= b.opts.MaxLines {
		b.incompleteOnce(&b.capLines, "more than ", b.opts.MaxLines, " instrumented lines: the rest were not kept")
		return
	}
	b.lines++
	f.lines[line] = covered
}

func (b *builder) note(s string) {
	if len(b.cov.Notes) < maxNotes && !slices.Contains(b.cov.Notes, s) {
		b.cov.Notes = append(b.cov.Notes, s)
	}
}

func (b *builder) incomplete(s string) {
	b.cov.Complete = false
	b.note(s)
}

// incompleteOnce is incomplete the first time a bound is reached (once, its flag), its note
// the bound between two phrases: made only then, as the bound may be met on every line after.
func (b *builder) incompleteOnce(once *bool, before string, bound int, after string) {
	if !*once {
		*once = true
		b.incomplete(before + strconv.Itoa(bound) + after)
	}
}

func (b *builder) done() Coverage {
	if b.dropped > 0 {
		b.note(strconv.Itoa(b.dropped) + " file names outside the project were not kept")
	}
	// A file the PathMap kept but of which no line was (all out of bounds) stays: its presence
	// says the tool saw it.
	return b.cov
}

// atoi parses a non-negative decimal of at most 18 digits; ok is false otherwise.
func atoi(s []byte) (int, bool) {
	if len(s) == 0 || len(s) > 18 {
		return 0, false
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}
