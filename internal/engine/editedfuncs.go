package engine

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/integrity"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

// maxEditedGoFiles bounds the Go files read for the functions the change edited; past it, the
// others' functions are compared whole.
const maxEditedGoFiles = 200

// editedGoSources are the Go code files (not tests) the change edited, as the work tree holds
// them now, read boundedly; a file that cannot be read is left out.
func editedGoSources(ctx context.Context, snap *snapshot.Snapshot, ch *snapshot.Change) map[string][]byte {
	read := goSourceReader(ctx, snap)
	out := map[string][]byte{}
	for _, f := range ch.Files {
		if f.Status != snapshot.Modified || !strings.HasSuffix(f.Path, ".go") || integrity.IsTestFile(f.Path) || len(out) >= maxEditedGoFiles {
			continue
		}
		if data := read(f.Path); data != nil {
			out[f.Path] = data
		}
	}
	return out
}

// goSourceReader reads a Go file of the work tree as it is now, boundedly, before the run's
// deadline; nil when it cannot be read.
func goSourceReader(ctx context.Context, snap *snapshot.Snapshot) func(file string) []byte {
	deadline := time.Now().Add(digestReadTime)
	if d, ok := ctx.Deadline(); ok {
		deadline = d
	}
	return func(file string) []byte {
		data, err := safefile.ReadFile(filepath.Join(snap.Root(), filepath.FromSlash(file)), maxDigestFileBytes, deadline)
		if err != nil {
			return nil
		}
		return data
	}
}

// funcSpans are line ranges of functions, by file: [from, to], numbered as the files are now.
type funcSpans map[string][][2]int

func (s funcSpans) holds(file string, line int) bool {
	for _, sp := range s[file] {
		if line >= sp[0] && line <= sp[1] {
			return true
		}
	}
	return false
}

// editedGoFuncs are the functions of the given Go files that hold a line the change added or
// removed.
func editedGoFuncs(ch *snapshot.Change, sources map[string][]byte) funcSpans {
	out := funcSpans{}
	for _, f := range ch.Files {
		src, ok := sources[f.Path]
		if !ok {
			continue
		}
		changed := changedLines(f)
		for _, sp := range goFuncSpans(f.Path, src, nil) {
			for _, l := range changed {
				if l >= sp[0] && l <= sp[1] {
					out[f.Path] = append(out[f.Path], sp)
					break
				}
			}
		}
	}
	return out
}

// changedLines are where a file's change is, numbered as the file is now: its added lines, and
// where its removed lines were.
func changedLines(f *snapshot.File) []int {
	var out []int
	for _, h := range f.Hunks {
		next := h.NewStart // the line now where the next removed line was
		for _, l := range h.Lines {
			switch l.Kind {
			case snapshot.Remove:
				out = append(out, next)
			case snapshot.Add:
				out = append(out, l.New)
				next = l.New + 1
			default:
				next = l.New + 1
			}
		}
	}
	return out
}

// goFuncSpans are the line ranges of a Go file's functions and methods that keep holds (every
// one when it is nil); none when it does not parse.
func goFuncSpans(name string, src []byte, keep func(*ast.FuncDecl) bool) [][2]int {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var out [][2]int
	for _, d := range file.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Body != nil && (keep == nil || keep(fn)) {
			out = append(out, [2]int{fset.Position(fn.Pos()).Line, fset.Position(fn.End()).Line})
		}
	}
	return out
}
