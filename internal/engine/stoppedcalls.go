package engine

import (
	"go/ast"
	"go/scanner"
	"go/token"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/gauntlet-dev/gauntlet/internal/coverage"
	"github.com/gauntlet-dev/gauntlet/internal/integrity"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

// Code the change stopped calling (coverage.md, "What stays quiet"): the change removed the
// last calls of a function from its code, and the function's lines, covered at the base through
// those calls, are not now. That is the change's doing, which only a call graph tells from a test
// that stopped reaching the function; the word count below stands in for the call graph. On real
// history: toml 52534926c5, whose errLexInlineTableNL the commit stopped building. Not cobra
// 611e16c322, whose template calling gt moved rather than went (it is no longer executed): no
// count of words tells that.

var identifierPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`) })

// stoppedNames are the words the change's code (its files that are not tests) mentions fewer
// times now than at the base: removed lines against added ones. Tests are left out: a call a
// test stopped making is the weakening coverage is there to see.
func stoppedNames(ch *snapshot.Change) map[string]bool {
	count := map[string]int{}
	for _, f := range ch.Files {
		if integrity.IsTestFile(f.Path) || integrity.IsTestFile(f.RenamedTo) {
			continue
		}
		words := textWords
		if strings.HasSuffix(f.Path, ".go") {
			words = goWords
		}
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				switch l.Kind {
				case snapshot.Remove:
					countWords(count, words(l.Text), 1)
				case snapshot.Add:
					countWords(count, words(l.Text), -1)
				}
			}
		}
	}
	out := map[string]bool{}
	for w, n := range count {
		if n > 0 {
			out[w] = true
		}
	}
	return out
}

func countWords(count map[string]int, words []string, by int) {
	for _, w := range words {
		count[w] += by
	}
}

// textWords are the identifiers of a line of a file that is not Go (a template, a script).
func textWords(line string) []string { return identifierPattern().FindAllString(line, -1) }

// goWords are the identifiers of a line of Go, read as Go reads it: a comment mentions no
// function (deleting one must not quiet a function's lost coverage), a template's text inside a
// multi-line string does (the line holds no quote to start the string).
func goWords(line string) []string {
	var sc scanner.Scanner
	fset := token.NewFileSet()
	src := []byte(line)
	sc.Init(fset.AddFile("", -1, len(src)), src, func(token.Position, string) {}, 0)
	var out []string
	for {
		_, tok, lit := sc.Scan()
		switch tok {
		case token.EOF:
			return out
		case token.IDENT:
			out = append(out, lit)
		}
	}
}

// skipStoppedCalls narrows untouched: a line of a Go function whose name (or whose receiver's
// type name) the change's code stopped mentioning is not compared. A function is also known by
// its name with a lower-case first letter, as template function maps name them ("gt": Gt).
// read gives a Go file as it is now (nil when it cannot be read); each is read and parsed once,
// and only when a line of it is asked for.
func skipStoppedCalls(untouched coverage.Untouched, ch *snapshot.Change, read func(file string) []byte) coverage.Untouched {
	if untouched == nil {
		return nil
	}
	names := stoppedNames(ch)
	if len(names) == 0 {
		return untouched
	}
	spans := map[string][][2]int{}
	return func(file string, line int) (int, bool) {
		old, ok := untouched(file, line)
		if !ok || !strings.HasSuffix(file, ".go") {
			return old, ok
		}
		s, read1 := spans[file]
		if !read1 {
			s = namedFuncSpans(file, read(file), names)
			spans[file] = s
		}
		if funcSpans(map[string][][2]int{file: s}).holds(file, line) {
			return 0, false
		}
		return old, true
	}
}

// namedFuncSpans are the line ranges of a Go file's functions and methods known by one of names.
func namedFuncSpans(name string, src []byte, names map[string]bool) [][2]int {
	if src == nil {
		return nil
	}
	return goFuncSpans(name, src, func(fn *ast.FuncDecl) bool { return knownBy(fn, names) })
}

// knownBy says whether one of names names the function, or the type it is a method of.
func knownBy(fn *ast.FuncDecl, names map[string]bool) bool {
	candidates := []string{fn.Name.Name}
	if fn.Recv != nil && len(fn.Recv.List) == 1 {
		if t := receiverType(fn.Recv.List[0].Type); t != "" {
			candidates = append(candidates, t)
		}
	}
	for _, c := range candidates {
		if names[c] || names[lowerFirst(c)] {
			return true
		}
	}
	return false
}

// receiverType is the name of a receiver's type: T, *T, T[K], *T[K].
func receiverType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}
