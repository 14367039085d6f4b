package integrity

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"sync"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// A test can be kept, with every assertion in it, and still made unable to fail: a bare return
// before its first statement, a check whose condition is made constant false, a TestMain that
// never runs the tests or exits 0 whatever they did. The counts of tests and assertions do not
// move, so these are read for what they are.

// checkNeutered reports tests the change makes unable to fail, in the test files it edits.
func (j *judge) checkNeutered() {
	for _, f := range j.files {
		if !f.Deleted && testScope(f.Path) {
			j.neuteredIn(f)
		}
		if !f.Deleted && langOf(f.Path) == langGo && !notOurs(f.Path) {
			j.selfSteered(f)
		}
	}
}

// neuteredIn reports the tests of one test file made unable to fail. A file the change creates
// holds no test that ran before, but its TestMain is judged all the same.
func (j *judge) neuteredIn(f File) {
	data, ok := j.ch.New(f.Path)
	if !ok {
		return
	}
	l := langOf(f.Path)
	if !f.Created {
		lines := splitLines(data)
		added := lineNumbers(f.Added)
		for _, a := range f.Added {
			if a.N >= 1 && a.N <= len(lines) {
				j.returnFirst(f, l, lines, a.N, added)
				j.constantlyFalse(f, l, lines, a.N)
			}
		}
	}
	if l == langGo {
		j.testMain(f, data)
	}
}

// lineNumbers is the set of the lines' numbers.
func lineNumbers(lines []Line) map[int]bool {
	set := map[int]bool{}
	for _, l := range lines {
		set[l.N] = true
	}
	return set
}

// returnFirst reports a bare return added as the first statement of an existing test (its
// declaration a line the change keeps): nothing after it runs, and the test passes.
func (j *judge) returnFirst(f File, l lang, lines []string, n int, added map[int]bool) {
	if t := strings.TrimSpace(lines[n-1]); t != "return" && t != "return;" {
		return
	}
	name, at, ok := testOpenedAbove(l, lines, n)
	if !ok || added[at] || j.fresh[testKey{f.Path, name}] {
		return
	}
	j.add(gates.RuleTestNeutered, f.Path, n, "test %s returns before its first statement: nothing in it runs, and it passes", name)
}

// goSubtest is the line that opens a subtest's function literal: t.Run("x", func(t *testing.T) {.
var goSubtest = lazy(`func\s*\(\s*\w+\s+\*testing\.[TB]\s*\)\s*\{\s*$`)

// testOpenedAbove says whether the code line above line n opens a test's body, names the test
// (the enclosing one, for a Go subtest) and the line that opens it.
func testOpenedAbove(l lang, lines []string, n int) (name string, at int, ok bool) {
	k := codeLineAbove(l, lines, n)
	if k < 0 {
		return "", 0, false
	}
	if name, ok := testOpenedAt(l, lines, k); ok {
		return name, k + 1, true
	}
	return "", 0, false
}

// codeLineAbove is the index of the nearest line above line n that holds code (no blank line,
// comment or Python docstring); -1 when there is none.
func codeLineAbove(l lang, lines []string, n int) int {
	for k := n - 2; k >= 0; k-- {
		if !holdsNoCode(l, strings.TrimSpace(lines[k])) {
			return k
		}
	}
	return -1
}

func holdsNoCode(l lang, trimmed string) bool {
	return trimmed == "" || strings.HasPrefix(trimmed, "//") || strings.HasPrefix(trimmed, "#") ||
		l == langPython && isDocstringEdge(trimmed)
}

// isDocstringEdge says a Python line opens or closes a docstring.
func isDocstringEdge(t string) bool {
	return strings.HasPrefix(t, `"""`) || strings.HasPrefix(t, `'''`) || strings.HasSuffix(t, `"""`) || strings.HasSuffix(t, `'''`)
}

// testOpener is how a language's test declaration opens its body: the declaration, which of its
// groups is the name, and what ends the line.
type testOpener struct {
	decl  *lazyRegexp
	name  int
	opens string
}

var testOpeners = sync.OnceValue(func() map[lang]testOpener {
	return map[lang]testOpener{
		langGo:     {goTestDecl, 1, "{"},
		langPython: {pyTestDecl, 1, ":"},
		langJS:     {jsTestDecl, 2, "{"},
	}
})

// testOpenedAt names the test whose body lines[k] opens: a test declaration, or for Go a
// subtest's function literal (named by its enclosing test).
func testOpenedAt(l lang, lines []string, k int) (string, bool) {
	line := lines[k]
	if o, ok := testOpeners()[l]; ok {
		if m := o.decl.FindStringSubmatch(line); m != nil && strings.HasSuffix(strings.TrimSpace(line), o.opens) {
			return m[o.name], true
		}
	}
	if l == langGo && goSubtest.MatchString(line) {
		if name := goEnclosingTest(lines, k+1); name != "" {
			return name, true
		}
	}
	return "", false
}

var (
	// ifCondition is the condition of an if line, by language: Go and JS open a block with {,
	// Python with :.
	ifCondition = map[lang]*lazyRegexp{
		langGo:     lazy(`^\s*(?:}\s*else\s+)?if\s+(?:[^;{]*;\s*)?(.+?)\s*\{(.*)$`),
		langJS:     lazy(`^\s*(?:}\s*else\s+)?if\s*\((.+)\)\s*\{?(.*)$`),
		langPython: lazy(`^\s*(?:el)?if\s+(.+?)\s*:(.*)$`),
	}
	// orOperator is a disjunction: a condition holding one is no constant.
	orOperator = lazy(`\|\||\bor\b`)
	andOperand = lazy(`&&|\band\b`)
)

// falseLiterals are the operands that make a conjunction constant false.
var falseLiterals = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"false": true, "False": true, "0": true, "!true": true, "not True": true, "None": true}
})

// constantlyFalse reports an if line added to a test file whose condition is constant false (false
// alone, or a conjunction with false) and whose block holds a check: the check never runs.
func (j *judge) constantlyFalse(f File, l lang, lines []string, n int) {
	re := ifCondition[l]
	if re == nil {
		return
	}
	m := re.FindStringSubmatch(lines[n-1])
	if m == nil || orOperator.MatchString(m[1]) || !constantFalse(m[1]) {
		return
	}
	if !holdsCheck(l, append([]string{m[2]}, blockBelow(lines, n)...)) {
		return
	}
	in := ""
	if name := enclosingTest(l, lines, n); name != "" {
		in = " in test " + name
	}
	j.add(gates.RuleTestNeutered, f.Path, n, "condition made constant false%s: %s: the checks under it never run", in, excerpt(lines[n-1]))
}

// holdsCheck says whether a block's lines hold an assertion of the language.
func holdsCheck(l lang, block []string) bool {
	checks := assertions[l]
	if checks == nil {
		return false
	}
	return slices.ContainsFunc(block, func(b string) bool { return countOutsideStrings(checks.get(), b, l) > 0 })
}

// enclosingTest names the test line n is in, so that a finding says which test stopped checking:
// for Go the test function (a subtest's parent), for Python and JavaScript the nearest test
// declared less indented above it; "" when it is in none.
func enclosingTest(l lang, lines []string, n int) string {
	if l == langGo {
		return goEnclosingTest(lines, n)
	}
	level := indentOf(lines[n-1])
	for k := n - 2; k >= 0 && level > 0; k-- {
		if strings.TrimSpace(lines[k]) == "" || indentOf(lines[k]) >= level {
			continue
		}
		level = indentOf(lines[k])
		if name, found := enclosingDeclaration(l, lines[k]); found {
			return name
		}
	}
	return ""
}

// enclosingDeclaration reads a line that encloses others: the test it declares, or "" for a
// Python helper or class that is no test; found is false when it ends nothing (a block inside).
func enclosingDeclaration(l lang, line string) (name string, found bool) {
	switch l {
	case langPython:
		if m := pyTestDecl.FindStringSubmatch(line); m != nil {
			return m[1], true
		}
		if pyDef.MatchString(line) || strings.HasPrefix(strings.TrimSpace(line), "class ") {
			return "", true // a helper, or a class that is no test
		}
	case langJS:
		if m := jsTestDecl.FindStringSubmatch(line); m != nil {
			return m[2], true
		}
	}
	return "", false
}

func constantFalse(cond string) bool {
	for _, operand := range andOperand.Split(cond, -1) {
		if falseLiterals()[strings.Trim(strings.TrimSpace(operand), "() ")] {
			return true
		}
	}
	return false
}

// blockBelow are the lines indented deeper than line n, right below it: the block it opens.
func blockBelow(lines []string, n int) []string {
	indent := indentOf(lines[n-1])
	var out []string
	for k := n; k < len(lines); k++ {
		if strings.TrimSpace(lines[k]) == "" {
			continue
		}
		if indentOf(lines[k]) <= indent {
			break
		}
		out = append(out, lines[k])
	}
	return out
}

// A TestMain defect is a way it keeps failures from failing the test binary.
const (
	mainNeverRuns = "TestMain never calls m.Run: no test in the package runs, and the test binary passes"
	mainExitsZero = "TestMain exits 0 whatever m.Run returned: failing tests no longer fail the test binary"
)

// testMain reports the TestMain defects the change brings: each one the file has now and did not
// have at the base. A TestMain that returns after m.Run is fine: since Go 1.15 the test binary
// exits with m.Run's result by itself.
func (j *judge) testMain(f File, data []byte) {
	now := testMainDefects(data)
	if len(now) == 0 {
		return // the base is read only when there is a defect to compare
	}
	var before map[string]int
	if !f.Created {
		old, _ := j.read(f, true)
		before = testMainDefects(old)
	}
	for defect, line := range now {
		if _, had := before[defect]; !had {
			j.add(gates.RuleTestNeutered, f.Path, line, "%s", defect)
		}
	}
}

// testMainDefects reads a Go test file's TestMain(m *testing.M): the defects it has, each with
// its line. A file that does not parse has none that can be told; m used in any way (m.Run(),
// handed to a helper) counts as running the tests.
func testMainDefects(data []byte) map[string]int {
	if !bytes.Contains(data, []byte("TestMain")) {
		return nil
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", data, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	out := map[string]int{}
	for _, d := range file.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok {
			if m, isMain := testMainParam(fn); isMain {
				testMainDefectsOf(fset, fn, m, out)
			}
		}
	}
	return out
}

// testMainParam says whether fn is a TestMain(m *testing.M) with a body, and names m ("" when
// unnamed).
func testMainParam(fn *ast.FuncDecl) (string, bool) {
	if fn.Name.Name != "TestMain" || fn.Recv != nil || fn.Body == nil || len(fn.Type.Params.List) != 1 {
		return "", false
	}
	param := fn.Type.Params.List[0]
	if star, ok := param.Type.(*ast.StarExpr); !ok || !isSelector(star.X, "testing", "M") {
		return "", false
	}
	if len(param.Names) == 1 {
		return param.Names[0].Name, true
	}
	return "", true
}

// testMainDefectsOf adds one TestMain's defects to out. m used in any way counts as running the
// tests: m.Run called, or m handed to a helper that may call it (os.Exit(testutil.Run(m))).
func testMainDefectsOf(fset *token.FileSet, fn *ast.FuncDecl, m string, out map[string]int) {
	runs := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == m && m != "_" {
			runs = true
		}
		if call, ok := n.(*ast.CallExpr); ok && exitsZero(call) {
			out[mainExitsZero] = fset.Position(call.Pos()).Line
		}
		return true
	})
	if !runs {
		out[mainNeverRuns] = fset.Position(fn.Pos()).Line
	}
}

// exitsZero says a call is os.Exit(0).
func exitsZero(call *ast.CallExpr) bool {
	if !isSelector(call.Fun, "os", "Exit") || len(call.Args) != 1 {
		return false
	}
	lit, ok := call.Args[0].(*ast.BasicLit)
	return ok && lit.Kind == token.INT && lit.Value == "0"
}
