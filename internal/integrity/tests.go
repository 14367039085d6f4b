package integrity

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// Test declarations, by language: the name group is what identifies a test across a move.
var (
	goTestDecl = lazy(`^\s*func\s+((?:Test|Fuzz)\w*)\s*\(\s*\w+\s+\*testing\.[TF]\b`)
	jsTestDecl = lazy("(?:^|[^\\w.$])(?:x|f)?(?:it|test)(?:\\.(?:skip|only|todo|concurrent|failing|each\\s*\\(.*?\\)|each`[^`]*`))*\\s*\\(\\s*(['\"`])(.+?)['\"`]")
	pyTestDecl = lazy(`^\s*(?:async\s+)?def\s+(test\w*)\s*\(`)
	rsTestAttr = lazy(`^\s*#\[(?:[\w:]+::)?(?:test|rstest|test_case|quickcheck)\b[^\]]*\]`)
	rsFn       = lazy(`^\s*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:unsafe\s+)?fn\s+(\w+)`)
)

// Skips and focuses added: each keeps a test from running (or every other test, for a focus).
var (
	skipMarkers = map[lang]*lazyRegexp{
		langGo:     lazy(`\b(?:t|b|f|tb|tt|s|suite)\.Skip(?:f|Now)?\(`),
		langJS:     lazy(`\b(?:it|test|describe|context|suite)\.(?:skip|todo)\b|(?:^|[^\w.$])(?:xit|xdescribe|xtest|xcontext)\s*\(`),
		langPython: lazy(`@pytest\.mark\.(?:skip|skipif|xfail)\b|@unittest\.(?:skip|skipIf|skipUnless|expectedFailure)\b|\bpytest\.(?:skip|xfail)\(|\bself\.skipTest\(|\braise\s+(?:unittest\.)?SkipTest\b`),
		langRust:   lazy(`#\[ignore\b`),
	}
	focusMarkers = map[lang]*lazyRegexp{
		langJS: lazy(`\b(?:it|test|describe|context|suite)\.only\b|(?:^|[^\w.$])(?:fit|fdescribe|ftest)\s*\(`),
	}
)

// Assertions, counted per line: a net drop across the test files is reported.
var assertions = map[lang]*lazyRegexp{
	langGo:     lazy(`\b(?:t|b|f|tb|tt|s|suite)\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)\(|\b(?:assert|require|is|qt|c)\.[A-Z]\w*\(|\bExpect\(`),
	langJS:     lazy(`\bexpect(?:\.\w+)?\s*\(|\bassert(?:\.\w+)?\s*\(|\.should\b|\bt\.(?:is|not|deepEqual|notDeepEqual|true|false|truthy|falsy|throws|throwsAsync|regex|snapshot)\(`),
	langPython: lazy(`^\s*assert\b|\bself\.assert\w+\(|\bpytest\.raises\(|\bself\.fail\(`),
	langRust:   lazy(`\b(?:assert|assert_eq|assert_ne|assert_matches|debug_assert|debug_assert_eq|debug_assert_ne|prop_assert|prop_assert_eq)!`),
}

// testDecl is a test found on a line.
type testDecl struct {
	name string
	file string
	line int
	ran  bool // a removed test: its file ran where the gates run, at the base
}

// checkTests reports test files removed, tests removed, skips and focuses added, a net drop
// in assertions and tests made unable to fail.
func (j *judge) checkTests() {
	removed, added := j.testDecls()
	j.fresh = freshTests(removed, added)
	j.testFilesRemoved(removed, added)
	j.testsRemoved(removed, added)
	j.markersAdded(gates.RuleTestSkipped, skipMarkers, "skip added")
	j.markersAdded(gates.RuleTestFocused, focusMarkers, "focus added: every other test stops running")
	j.assertionsDropped()
	j.checkNeutered()
}

// testScope says whether a file's tests are judged: test files, and Rust sources, whose unit
// tests live beside the code.
func testScope(p string) bool {
	return isTestFile(p) || langOf(p) == langRust && !notOurs(p)
}

// testDecls finds the tests each file's change removes and adds.
func (j *judge) testDecls() (removed, added []testDecl) {
	removed, idle := j.removedDecls()
	return removed, j.addedDecls(idle)
}

// removedDecls are the tests the change removes, each marked with whether it ran at the base;
// idle names those removed from files that did not run there.
func (j *judge) removedDecls() (removed []testDecl, idle map[string]bool) {
	idle = map[string]bool{}
	for _, f := range j.files {
		if !heldTests(f) {
			continue
		}
		ran := j.ranAtBase(f)
		for _, d := range j.declsIn(f, f.Removed, true) {
			d.ran = ran
			idle[d.name] = idle[d.name] || !ran
			removed = append(removed, d)
		}
	}
	return removed, idle
}

// addedDecls are the tests the change adds that run. A test declared in a file the runner does
// not pick up does not run: it is not declared again, unless it did not run before either (a
// helper moved from one module to another, named in idle). A file the runner did not pick up at
// the base either (a module of a runner of its own) is judged as it always was.
func (j *judge) addedDecls(idle map[string]bool) []testDecl {
	var added []testDecl
	for _, f := range j.files {
		if !testScope(f.Path) || f.Deleted {
			continue
		}
		runs := j.runsNow(f)
		for _, d := range j.declsIn(f, f.Added, false) {
			if runs || idle[d.name] {
				added = append(added, d)
			}
		}
	}
	return added
}

// heldTests says whether a file's base side held tests that are judged.
func heldTests(f File) bool {
	return testScope(f.OldPath) || f.Deleted && testScope(f.Path)
}

// ranAtBase says whether the runner picked up a file's tests at the base; Rust unit tests run
// from any source file.
func (j *judge) ranAtBase(f File) bool {
	return langOf(f.Path) == langRust || j.runs(f, true)
}

// runsNow says whether the tests a file declares now count as running: the runner picks it up,
// or it did not at the base either (judged as it always was).
func (j *judge) runsNow(f File) bool {
	return langOf(f.Path) == langRust || j.runs(f, false) || !f.Created && !j.runs(f, true)
}

func (j *judge) declsIn(f File, lines []Line, old bool) []testDecl {
	at := func(l Line) int {
		if old {
			return l.At
		}
		return l.N
	}
	l := langOf(f.Path)
	if l == langRust {
		return j.rustDecls(f, lines, old, at)
	}
	o, ok := testOpeners()[l]
	if !ok {
		return nil
	}
	var out []testDecl
	for _, line := range lines {
		if m := o.decl.FindStringSubmatch(line.Text); m != nil {
			out = append(out, testDecl{name: m[o.name], file: f.Path, line: at(line)})
		}
	}
	return out
}

// rustDecls pairs each #[test] attribute on the lines with the fn it marks: on the following
// lines of the same hunk, else in the file itself (an attribute removed from a fn that stays is
// a test removed too).
func (j *judge) rustDecls(f File, lines []Line, old bool, at func(Line) int) []testDecl {
	var out []testDecl
	var content []string
	for i, l := range lines {
		if !rsTestAttr.MatchString(l.Text) {
			continue
		}
		name := rsFnInHunk(lines, i)
		if name == "" {
			if content == nil {
				data, _ := j.read(f, old)
				content = splitLines(data)
			}
			name = rsFnBelow(content, l.N)
		}
		out = append(out, testDecl{name: cmpOr(name, "(unnamed)"), file: f.Path, line: at(l)})
	}
	return out
}

// rsFnInHunk names the fn declared on the lines right after lines[i], as long as they follow it
// without a gap (at most 7); "" when there is none.
func rsFnInHunk(lines []Line, i int) string {
	for k := i + 1; k < len(lines) && lines[k].N == lines[k-1].N+1 && k < i+8; k++ {
		if m := rsFn.FindStringSubmatch(lines[k].Text); m != nil {
			return m[1]
		}
	}
	return ""
}

// rsFnBelow names the fn declared in the 8 lines of a file after line n; "" when there is none.
func rsFnBelow(content []string, n int) string {
	for k := n; k < len(content) && k < n+8; k++ {
		if m := rsFn.FindStringSubmatch(content[k]); m != nil {
			return m[1]
		}
	}
	return ""
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// read is the old or the new content of a file.
func (j *judge) read(f File, old bool) ([]byte, bool) {
	if old {
		return j.ch.Old(cmpOr(f.OldPath, f.Path))
	}
	return j.ch.New(f.Path)
}

// testFilesRemoved reports test files deleted, or renamed to a path the test runner does not
// pick up, unless every test they held is declared again elsewhere in the change (split or
// moved by hand); and a Go test file that stays but that a build constraint now keeps the go
// tool from building where the gates run: every test in it skipped at once.
func (j *judge) testFilesRemoved(removed, added []testDecl) {
	addedNames := declNames(added, false)
	for _, f := range j.files {
		wasTest := wasTestFile(cmpOr(f.OldPath, f.Path))
		switch {
		case !wasTest:
		case f.Deleted:
			j.testFileDeleted(f, removed, addedNames)
		case f.Created || langOf(f.Path) == langRust || !j.runs(f, true):
			// Rust unit tests run from any source file; a file that did not run has nothing to lose.
		case f.Renamed() && !j.nameRuns(f.Path):
			j.add(gates.RuleTestFileRemoved, f.Path, 0, "test file %s renamed to %s, which %s", f.OldPath, f.Path, j.whyNotRun(f.Path))
		case !j.runs(f, false):
			data, _ := j.read(f, false)
			line, text := buildConstraintLine(data)
			j.add(gates.RuleTestSkipped, f.Path, line, "build constraint %s: the go tool no longer builds this file on %s, so none of its tests run",
				cmpOr(excerpt(text), "(none)"), j.platform())
		}
	}
}

// testFileDeleted reports a deleted test file, unless it declared tests and every one of them
// is declared again elsewhere.
func (j *judge) testFileDeleted(f File, removed []testDecl, addedNames map[string]bool) {
	var lost []string
	declared := 0
	for _, d := range removed {
		if d.file != f.Path {
			continue
		}
		declared++
		if !addedNames[d.name] {
			lost = append(lost, d.name)
		}
	}
	if declared > 0 && len(lost) == 0 {
		return // its tests live on in other files
	}
	j.add(gates.RuleTestFileRemoved, f.Path, 0, "test file deleted%s", testCount(lost))
}

// wasTestFile says whether a file gone or moved held tests of its own: a test file, but not a
// Python module beside the tests that pytest does not collect (conftest.py, a helper), whose
// test_ functions, if any, are judged one by one.
func wasTestFile(p string) bool {
	return isTestFile(p) && (langOf(p) != langPython || pyCollected.MatchString(path.Base(p)))
}

// runs says whether the test runner picks up a test file on one side of the change: by its name
// and place, and for Go when the go tool builds it where the gates run.
func (j *judge) runs(f File, old bool) bool {
	p := f.Path
	if old {
		p = cmpOr(f.OldPath, f.Path)
	}
	if !j.nameRuns(p) {
		return false
	}
	if langOf(p) != langGo {
		return true
	}
	return j.goBuilds(p, j.goHeader(f, old))
}

// nameRuns says whether a test file's path alone lets its runner pick it up: for Go, a name for
// this platform; for Python, a module pytest collects by default (test_*.py, *_test.py), not a
// helper or conftest.py beside the tests.
func (j *judge) nameRuns(p string) bool {
	switch {
	case !isTestFile(p):
		return false
	case langOf(p) == langGo:
		return j.goNameBuilds(p)
	case langOf(p) == langPython:
		return pyCollected.MatchString(path.Base(p))
	}
	return true
}

var pyCollected = lazy(`^(?:test_.*|.*_test)\.py$`)

// whyNotRun says, for a message, why the runner does not pick up a file at p.
func (j *judge) whyNotRun(p string) string {
	switch {
	case langOf(p) == langGo && strings.HasSuffix(p, "_test.go") && !goWalked(p):
		return "go test ./... does not reach (a directory starting with _ or ., or testdata)"
	case langOf(p) == langGo && isTestFile(p):
		return "the go tool does not build on " + j.platform() + " (a name for another platform)"
	case langOf(p) == langPython && isTestFile(p):
		return "pytest does not collect (not test_*.py or *_test.py)"
	}
	return "the test runner does not pick up"
}

func testCount(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf(" (%s: %s)", plural(len(names), "test"), list(names, 5))
}

// testsRemoved reports tests removed from files that remain. A test declared again anywhere in
// the change moved; a new test in the same file pairs with a removed one as a rename.
func (j *judge) testsRemoved(removed, added []testDecl) {
	declared := tally{}
	for _, d := range added {
		declared[d.name]++
	}
	var left []testDecl
	for _, d := range removed {
		if !declared.take(d.name) {
			left = append(left, d)
		}
	}
	// New names left in each file: candidates for renames.
	renames := tally{}
	for _, d := range added {
		if declared.take(d.name) {
			renames[d.file]++
		}
	}
	deleted := j.testFilesGone()
	for _, d := range left {
		if deleted[d.file] || renames.take(d.file) {
			continue // a file gone is reported once, as the file
		}
		j.add(gates.RuleTestRemoved, d.file, d.line, "test %s removed", d.name)
	}
}

// testFilesGone are the files deleted, and the test files renamed to where their runner does not
// pick them up: reported as files, not test by test.
func (j *judge) testFilesGone() map[string]bool {
	gone := map[string]bool{}
	for _, f := range j.files {
		if f.Deleted || f.Renamed() && isTestFile(f.OldPath) && !j.nameRuns(f.Path) && langOf(f.Path) != langRust {
			gone[f.Path] = true
		}
	}
	return gone
}

// markersAdded reports lines of test scope that add a marker of the rule; a marker the change
// also removes elsewhere (the same text, moved) is not new.
func (j *judge) markersAdded(rule string, markers map[lang]*lazyRegexp, what string) {
	moved, hits := markerChanges(j.files, markers, testScope)
	for _, h := range hits {
		if moved.take(h.key) || rule == gates.RuleTestSkipped && j.skipExcused(h.file, h.line) {
			continue
		}
		j.add(rule, h.file, h.line, "%s: %s", what, excerpt(h.text))
	}
}

// markerHit is a marker a line adds, keyed as markerKeys keys it.
type markerHit struct {
	key, file string
	line      int
	text      string
}

// markerChanges reads the markers of the files in scope, by their language: those removed,
// counted to pair with the same added elsewhere (moved), and those added.
func markerChanges(files []File, markers map[lang]*lazyRegexp, inScope func(string) bool) (tally, []markerHit) {
	moved := tally{}
	var hits []markerHit
	for _, f := range files {
		re := markers[langOf(f.Path)]
		if re == nil {
			continue
		}
		if inScope(cmpOr(f.OldPath, f.Path)) {
			markersRemoved(f, re.get(), moved)
		}
		if !f.Deleted && inScope(f.Path) {
			hits = append(hits, markerHits(f, re.get())...)
		}
	}
	return moved, hits
}

// markersRemoved counts the markers a file loses.
func markersRemoved(f File, re *regexp.Regexp, moved tally) {
	for _, l := range f.Removed {
		for _, k := range markerKeys(re, l.Text, langOf(f.Path)) {
			moved[k]++
		}
	}
}

// markerHits are the markers a file gains.
func markerHits(f File, re *regexp.Regexp) []markerHit {
	var hits []markerHit
	for _, l := range f.Added {
		for _, k := range markerKeys(re, l.Text, langOf(f.Path)) {
			hits = append(hits, markerHit{k, f.Path, l.N, l.Text})
		}
	}
	return hits
}

// environmentProbe is the condition of a Go skip that depends on the machine, not on the code
// under test: a tool missing, an error setting up, another OS, short mode, running as root. It
// judges a condition that cannot be parsed; guardSkipsHere judges the others.
var environmentProbe = lazy(`^\s*(?:if|}\s*else\s+if)\b.*(?:\berr\b|LookPath|GOOS|GOARCH|testing\.Short\(\)|Getuid|Geteuid|ErrNotExist|ErrPermission).*\{\s*$`)

// markerKeys are the markers on a line outside strings, each keyed by the rest of the line from
// the marker on, so that editing the code before a marker does not make it new.
func markerKeys(re *regexp.Regexp, text string, l lang) []string {
	var keys []string
	for _, loc := range re.FindAllStringIndex(text, -1) {
		start := loc[0]
		for start < loc[1] && !isWordStart(text[start]) {
			start++
		}
		if inString(text, start, quotesOf(l)) {
			continue
		}
		keys = append(keys, normalize(text[start:]))
	}
	return keys
}

func isWordStart(c byte) bool {
	lower := c | 0x20 // an ASCII letter's lower case
	return strings.IndexByte("@#/._", c) >= 0 || lower >= 'a' && lower <= 'z'
}

// assertionsDropped reports test files with fewer assertions than before, when the change as a
// whole has fewer: assertions moved from one test file to another are not a drop.
func (j *judge) assertionsDropped() {
	perFile := map[string]assertionCount{}
	var order []string
	total := 0
	for _, f := range j.files {
		c, ok := j.assertionsIn(f)
		if !ok {
			continue
		}
		total += c.added - c.removed
		perFile[f.Path] = c
		order = append(order, f.Path)
	}
	if total >= 0 {
		return
	}
	for _, p := range order {
		c := perFile[p]
		if c.added >= c.removed || j.deletedFile(p) {
			continue
		}
		j.add(gates.RuleAssertionsDropped, p, c.line, "%s fewer in this file (%d removed, %d added; %d fewer in the whole change)",
			plural(c.removed-c.added, "assertion"), c.removed, c.added, -total)
	}
}

// assertionCount is how many test assertions a file's change removes and adds, and the line of
// the first removed.
type assertionCount struct{ removed, added, line int }

// assertionsIn counts the test assertions a file's change removes and adds; false when it
// touches none.
func (j *judge) assertionsIn(f File) (assertionCount, bool) {
	re := assertions[langOf(f.Path)]
	if re == nil {
		return assertionCount{}, false
	}
	var c assertionCount
	c.removed, c.line = assertionsOn(re.get(), f.Removed, langOf(f.Path))
	if !f.Deleted {
		c.added, _ = assertionsOn(re.get(), f.Added, langOf(f.Path))
	}
	if c.removed > 0 && !j.assertScope(f, true) {
		c.removed, c.line = 0, 0
	}
	if c.added > 0 && !j.assertScope(f, false) {
		c.added = 0
	}
	return c, c.removed != 0 || c.added != 0
}

// assertionsOn counts the assertions on lines, and says where (At) the first is.
func assertionsOn(re *regexp.Regexp, lines []Line, l lang) (n, first int) {
	for _, line := range lines {
		if k := countOutsideStrings(re, line.Text, l); k > 0 {
			n += k
			if first == 0 {
				first = line.At
			}
		}
	}
	return n, first
}

func (j *judge) deletedFile(p string) bool {
	return slices.ContainsFunc(j.files, func(f File) bool { return f.Path == p && f.Deleted })
}

// assertScope says whether a file's assertions are test assertions: in test files, and in Rust
// sources that hold unit tests.
func (j *judge) assertScope(f File, old bool) bool {
	p := f.Path
	if old {
		p = cmpOr(f.OldPath, f.Path)
	}
	if isTestFile(p) {
		return true
	}
	if langOf(p) != langRust || notOurs(p) {
		return false
	}
	data, ok := j.read(f, old)
	return ok && (strings.Contains(string(data), "#[cfg(test)]") || strings.Contains(string(data), "#[test]"))
}

func countOutsideStrings(re *regexp.Regexp, text string, l lang) int {
	n := 0
	for _, loc := range re.FindAllStringIndex(text, -1) {
		if !inString(text, loc[0], quotesOf(l)) {
			n++
		}
	}
	return n
}
