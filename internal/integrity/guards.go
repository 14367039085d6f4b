package integrity

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"sync"
)

// A skip under a condition weakens the gates when the condition holds where they run: `if
// runtime.GOOS != "windows" { t.Skip() }` skips on every other system, the gates' included. One
// that holds only elsewhere (another OS, short mode the gates do not ask for) or that probes the
// machine (a tool missing, an error setting up) lets the test run wherever it can. A guard on a
// test the change itself adds weakens nothing: nothing that ran before stops running.

// truth is a condition's value where the gates run, when it can be told without running it.
type truth int8

const (
	unknown truth = iota
	no
	yes
)

func (t truth) not() truth {
	switch t {
	case yes:
		return no
	case no:
		return yes
	}
	return unknown
}

// probeLeaf is a condition that depends on the machine and cannot be told from here: the test
// runs wherever the machine allows.
var probeLeaf = lazy(`\berr\b|LookPath|GOOS|GOARCH|testing\.Short\(\)|Getuid|Geteuid|ErrNotExist|ErrPermission`)

// goIfCondition parses the condition of an `if` (or `} else if`) line that opens its block; ok is
// false when the line is no such thing (a condition spread over lines, a switch case).
func goIfCondition(line string) (cond ast.Expr, src string, ok bool) {
	t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "}"))
	t = strings.TrimSpace(strings.TrimPrefix(t, "else"))
	if !strings.HasPrefix(t, "if ") || !strings.HasSuffix(t, "{") {
		return nil, "", false
	}
	src = "package p\nfunc _() {\n" + t + "}\n}\n"
	is := firstIfStatement(src)
	if is == nil {
		return nil, "", false
	}
	return is.Cond, src, true
}

// firstIfStatement is the if statement a source file's first function starts with; nil when it
// does not parse or starts with something else.
func firstIfStatement(src string) *ast.IfStmt {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil || len(f.Decls) == 0 {
		return nil
	}
	fn, _ := f.Decls[0].(*ast.FuncDecl)
	if fn == nil || fn.Body == nil || len(fn.Body.List) == 0 {
		return nil
	}
	is, _ := fn.Body.List[0].(*ast.IfStmt)
	return is
}

// guardSkipsHere says whether a Go skip under the `if` line may skip where the gates run: its
// condition holds there, or depends on something that is not a probe of the machine.
func (j *judge) guardSkipsHere(line string) bool {
	cond, src, ok := goIfCondition(line)
	if !ok {
		return !environmentProbe.MatchString(line)
	}
	onlyProbes := true
	switch j.evalGuard(cond, src, &onlyProbes) {
	case yes:
		return true
	case no:
		return false
	}
	return !onlyProbes
}

// evalGuard tells a condition's value where the gates run: comparisons of runtime.GOOS and
// runtime.GOARCH with a string, testing.Short() (true when a gate passes -short), the constants,
// and their combinations. Every other part is unknown; onlyProbes turns false when one of those
// is not a probe of the machine.
func (j *judge) evalGuard(e ast.Expr, src string, onlyProbes *bool) truth {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return j.evalGuard(e.X, src, onlyProbes)
	case *ast.Ident:
		if v, ok := goConstants()[e.Name]; ok {
			return v
		}
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return j.evalGuard(e.X, src, onlyProbes).not()
		}
	case *ast.BinaryExpr:
		if v, ok := j.evalBinary(e, src, onlyProbes); ok {
			return v
		}
	case *ast.CallExpr:
		if isSelector(e.Fun, "testing", "Short") && len(e.Args) == 0 {
			return map[bool]truth{true: yes, false: no}[gatesShort(j.goFlags())]
		}
	}
	if !probeLeaf.MatchString(src[int(e.Pos())-1 : int(e.End())-1]) {
		*onlyProbes = false
	}
	return unknown
}

// goConstants are the boolean constants a guard may be written with.
var goConstants = sync.OnceValue(func() map[string]truth {
	return map[string]truth{"true": yes, "false": no}
})

// evalBinary tells a conjunction, a disjunction or a comparison of the platform with a string;
// false when it is none of those.
func (j *judge) evalBinary(e *ast.BinaryExpr, src string, onlyProbes *bool) (truth, bool) {
	switch e.Op {
	case token.LAND, token.LOR:
		return combine(e.Op, j.evalGuard(e.X, src, onlyProbes), j.evalGuard(e.Y, src, onlyProbes)), true
	case token.EQL, token.NEQ:
		v, ok := j.platformIs(e.X, e.Y)
		if ok && e.Op == token.NEQ {
			v = v.not()
		}
		return v, ok
	}
	return unknown, false
}

func combine(op token.Token, a, b truth) truth {
	if op == token.LAND {
		return combineAnd(a, b)
	}
	return combineOr(a, b)
}

// platformIs compares runtime.GOOS or runtime.GOARCH with a string literal, either way round.
func (j *judge) platformIs(x, y ast.Expr) (truth, bool) {
	for _, pair := range [][2]ast.Expr{{x, y}, {y, x}} {
		lit, ok := pair[1].(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			continue
		}
		want, err := strconv.Unquote(lit.Value)
		if err != nil {
			continue
		}
		var have string
		switch {
		case isSelector(pair[0], "runtime", "GOOS"):
			have = j.goContext().GOOS
		case isSelector(pair[0], "runtime", "GOARCH"):
			have = j.goContext().GOARCH
		default:
			continue
		}
		return map[bool]truth{true: yes, false: no}[have == want], true
	}
	return unknown, false
}

func isSelector(e ast.Expr, pkg, name string) bool {
	s, ok := e.(*ast.SelectorExpr)
	if !ok || s.Sel.Name != name {
		return false
	}
	id, ok := s.X.(*ast.Ident)
	return ok && id.Name == pkg
}

var shortFlag = lazy(`(?:^|\s)--?short(?:=true)?(?:\s|$)`)

// gatesShort says whether a gate's command runs the go tests in short mode.
func gatesShort(commands []string) bool {
	for _, c := range commands {
		if shortFlag.MatchString(c) {
			return true
		}
	}
	return false
}

// testKey names a test: its file and its name.
type testKey struct{ file, name string }

// freshTests are the tests the change adds to what runs where the gates run: declared now, not
// before under that name in a file that ran (a test moved), and not the one a removed test of the
// same file may have been renamed to: of the tests added there, the one whose name shares most
// words with its own, the nearest to where it was among equals. A file that loses one test and
// gains several has one rename at most; the others are new. A test moved from a file that did not
// build here (another platform's) adds to what runs here too.
func freshTests(removed, added []testDecl) map[testKey]bool {
	addedNames := declNames(added, false)
	ranNames := declNames(removed, true)
	out := map[testKey]bool{}
	for _, d := range added {
		if !ranNames[d.name] {
			out[testKey{d.file, d.name}] = true
		}
	}
	for _, r := range removed {
		if !r.ran || addedNames[r.name] {
			continue
		}
		if best := renamedTo(r, added, out); best >= 0 {
			delete(out, testKey{added[best].file, added[best].name})
		}
	}
	return out
}

// declNames are the names of tests declared (only of those that ran, with ranOnly).
func declNames(decls []testDecl, ranOnly bool) map[string]bool {
	names := map[string]bool{}
	for _, d := range decls {
		if d.ran || !ranOnly {
			names[d.name] = true
		}
	}
	return names
}

// renamedTo is which of the added tests still counted fresh a removed test may have been renamed
// to: in its file, sharing most words with its name, the nearest to it among equals; -1 when
// there is none.
func renamedTo(r testDecl, added []testDecl, fresh map[testKey]bool) int {
	best, bestShared := -1, 0
	for i, d := range added {
		if d.file != r.file || !fresh[testKey{d.file, d.name}] {
			continue
		}
		shared := sharedWords(r.name, d.name)
		if best < 0 || shared > bestShared || shared == bestShared && abs(d.line-r.line) < abs(added[best].line-r.line) {
			best, bestShared = i, shared
		}
	}
	return best
}

// sharedWords counts the words two test names have in common ("test_capture_fd_faulthandler"
// and "test_faulthandler_enable" share "faulthandler"), "test" aside.
func sharedWords(a, b string) int {
	n := 0
	wb := nameWords(b)
	for w := range nameWords(a) {
		if wb[w] {
			n++
		}
	}
	return n
}

// nameWords are the words of a test name, split at underscores and capitals, lower-cased,
// "test" aside.
func nameWords(name string) map[string]bool {
	set := map[string]bool{}
	var w strings.Builder
	end := func() {
		if s := strings.ToLower(w.String()); s != "" && s != "test" {
			set[s] = true
		}
		w.Reset()
	}
	for i, c := range name {
		switch {
		case c == '_':
			end()
		case c >= 'A' && c <= 'Z' && i > 0:
			end()
			w.WriteRune(c)
		default:
			w.WriteRune(c)
		}
	}
	end()
	return set
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// skipExcused says whether an added skip weakens nothing the gates run: a Go skip under a guard
// that does not hold where they run, or a conditional skip on a test the change adds.
func (j *judge) skipExcused(file string, line int) bool {
	data, ok := j.ch.New(file)
	if !ok {
		return false
	}
	lines := splitLines(data)
	if line < 1 || line > len(lines) {
		return false
	}
	switch langOf(file) {
	case langGo:
		return j.goSkipExcused(file, lines, line)
	case langPython:
		name, conditional := pyGuardedTest(lines, line)
		return conditional && (j.fresh[testKey{file, name}] || j.pySkipElsewhere(file, lines, line))
	}
	return false
}

// goSkipExcused says whether a Go skip is under a guard, in a test the change adds or one whose
// guard does not hold where the gates run.
func (j *judge) goSkipExcused(file string, lines []string, line int) bool {
	guard, ok := goGuardLine(lines, line)
	if !ok {
		return false // unconditional
	}
	return j.fresh[testKey{file, goEnclosingTest(lines, line)}] || !j.guardSkipsHere(guard)
}

// goGuardLine is the `if` line a Go skip sits directly under (comments and blank lines aside).
func goGuardLine(lines []string, line int) (string, bool) {
	for k := line - 2; k >= 0 && k >= line-3; k-- {
		t := strings.TrimSpace(lines[k])
		if t == "" || strings.HasPrefix(t, "//") {
			continue
		}
		t = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(t, "}"), " else"))
		return lines[k], strings.HasPrefix(t, "if ") && strings.HasSuffix(t, "{")
	}
	return "", false
}

// goEnclosingTest is the name of the test function a line of a Go file is in; "" for any other
// function.
func goEnclosingTest(lines []string, line int) string {
	for k := line - 2; k >= 0; k-- {
		if strings.HasPrefix(lines[k], "func ") {
			if m := goTestDecl.FindStringSubmatch(lines[k]); m != nil {
				return m[1]
			}
			return ""
		}
	}
	return ""
}

var (
	pyConditionalDecorator = lazy(`@(?:pytest\.mark\.skipif|unittest\.skipIf|unittest\.skipUnless)\b|@pytest\.mark\.xfail\(\s*[^,)=\s][^,)=]*[,)]`)
	pyDef                  = lazy(`^\s*(?:async\s+)?def\s+(\w+)`)
)

// pyGuardedTest is the test a Python skip applies to, and whether the skip is conditional: a
// decorator with a condition (skipif, xfail(cond)), or a call under an if.
func pyGuardedTest(lines []string, line int) (name string, conditional bool) {
	text := lines[line-1]
	if strings.HasPrefix(strings.TrimSpace(text), "@") {
		return pyDecoratedTest(lines, line), pyConditionalDecorator.MatchString(text)
	}
	return pyTestAround(lines, line)
}

// pyDecoratedTest names the test the decorator on the line decorates; "" when it decorates
// something else.
func pyDecoratedTest(lines []string, line int) string {
	indent := indentOf(lines[line-1])
	for k := line; k < len(lines) && k < line+50; k++ {
		if pyBeforeDecorated(lines[k], indent) {
			continue
		}
		if m := pyTestDecl.FindStringSubmatch(lines[k]); m != nil {
			return m[1]
		}
		return ""
	}
	return ""
}

// pyBeforeDecorated says a line below a decorator comes before what it decorates: blank, a
// comment, another decorator, the decorator's arguments going on.
func pyBeforeDecorated(l string, indent int) bool {
	t := strings.TrimSpace(l)
	return t == "" || indentOf(l) != indent || strings.HasPrefix(t, "@") || strings.HasPrefix(t, "#") || strings.IndexByte(")]}", t[0]) >= 0
}

// pyTestAround names the test function a skip call is in ("" for another function), and
// whether an if is between them.
func pyTestAround(lines []string, line int) (name string, conditional bool) {
	indent := indentOf(lines[line-1])
	for k := line - 2; k >= 0; k-- {
		t := strings.TrimSpace(lines[k])
		if t == "" || strings.HasPrefix(t, "#") || indentOf(lines[k]) >= indent {
			continue
		}
		conditional = conditional || isPyIfLine(t)
		if m := pyDef.FindStringSubmatch(lines[k]); m != nil {
			if pyTestDecl.MatchString(lines[k]) {
				return m[1], conditional
			}
			return "", conditional
		}
		indent = indentOf(lines[k])
	}
	return "", conditional
}

func isPyIfLine(t string) bool {
	return (strings.HasPrefix(t, "if ") || strings.HasPrefix(t, "elif ")) && strings.HasSuffix(t, ":")
}

// indentOf is the width of a line's leading whitespace, a tab counting as one.
func indentOf(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }
