package findings

import (
	"regexp"
	"strings"
	"sync"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// eslint prints stylish (the default: a file line, then "  3:7  error  message  rule"), unix
// ("file:3:7: message [Error/rule]") or compact ("file: line 3, col 7, Error - message (rule)").
type eslintParser struct {
	emit emitFunc
	file string
}

var (
	eslintStylish = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s+(\d+):(\d+)\s+(error|warning)\s+(.+?)(?:\s{2,}(\S+))?\s*$`)
	})
	eslintUnix = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(.+?):(\d+):(\d+): (.*) \[(Error|Warning)(?:/(\S+))?\]$`)
	})
	eslintCompact = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(.+?): line (\d+), col (\d+), (Error|Warning) - (.*?)(?: \(([^()\s]+)\))?$`)
	})
	eslintSummary = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[✖✔]|^\d+ problems?`) })
)

func newESLintParser(emit emitFunc, _ Options) parser { return &eslintParser{emit: emit} }

func (p *eslintParser) line(s string) {
	if hasPlace(s) && p.located(s) {
		return
	}
	switch {
	case strings.TrimSpace(s) == "":
		p.file = ""
	case s[0] != ' ' && s[0] != '\t' && !eslintSummary().MatchString(s) && !strings.HasPrefix(s, ">"):
		// stylish names each file on a line of its own, unindented.
		p.file = strings.TrimSpace(s)
	}
}

// located reads a line holding a line number as a finding, reporting whether it was one.
func (p *eslintParser) located(s string) bool {
	if m := eslintStylish().FindStringSubmatch(s); m != nil && p.file != "" {
		p.emit(gates.Finding{File: p.file, Line: atoi(m[1]), Column: atoi(m[2]), Severity: wordSeverity(m[3]), Message: m[4], Rule: m[5]})
		return true
	}
	if m := eslintUnix().FindStringSubmatch(s); m != nil {
		p.emit(gates.Finding{File: m[1], Line: atoi(m[2]), Column: atoi(m[3]), Severity: wordSeverity(m[5]), Message: m[4], Rule: m[6]})
		return true
	}
	if m := eslintCompact().FindStringSubmatch(s); m != nil {
		p.emit(gates.Finding{File: m[1], Line: atoi(m[2]), Column: atoi(m[3]), Severity: wordSeverity(m[4]), Message: m[5], Rule: m[6]})
		return true
	}
	return false
}

func (p *eslintParser) flush() {}

// tsc prints "src/a.ts(3,7): error TS2322: msg" when not on a terminal, and with --pretty
// "src/a.ts:3:7 - error TS2322: msg".
var (
	tscPlain = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(.+?)\((\d+),(\d+)\): (error|warning|message) (TS\d+): (.*)$`)
	})
	tscPretty = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(.+?):(\d+):(\d+) - (error|warning|message) (TS\d+): (.*)$`)
	})
)

func newTSCParser(emit emitFunc, opts Options) parser { return lineFormat(parseTSCLine)(emit, opts) }

func parseTSCLine(s string) (gates.Finding, bool) {
	m := tscPlain().FindStringSubmatch(s)
	if m == nil {
		m = tscPretty().FindStringSubmatch(s)
	}
	if m == nil {
		return gates.Finding{}, false
	}
	return gates.Finding{File: m[1], Line: atoi(m[2]), Column: atoi(m[3]), Severity: wordSeverity(m[4]), Message: m[6], Rule: m[5]}, true
}

// testCase collects one failing test of a JavaScript runner: its name, the first lines of its
// error, and the first location in a test or source file (not in node_modules).
type testCase struct {
	name    string
	file    string
	message []string
	f       *gates.Finding
}

const maxMessageLines = 6

func (t *testCase) addMessage(s string) {
	s = strings.TrimSpace(s)
	if s != "" && len(t.message) < maxMessageLines {
		t.message = append(t.message, s)
	}
}

func (t *testCase) finding() gates.Finding {
	f := gates.Finding{File: t.file, Severity: SeverityError, Rule: t.name, Message: t.name}
	if t.f != nil {
		f.File, f.Line, f.Column = t.f.File, t.f.Line, t.f.Column
		// jest names stack frames relative to its rootDir, the test file relative to the
		// working directory: the test file's own path is the one that resolves.
		if !strings.Contains(f.File, "/") && strings.HasSuffix(t.file, "/"+f.File) {
			f.File = t.file
		}
	}
	if len(t.message) > 0 {
		f.Message = t.name + ": " + strings.Join(t.message, "\n")
	}
	return f
}

// vitest prints each failure as
//
//	 FAIL  test/sum.test.ts > sum > adds
//	AssertionError: expected 3 to be 4 // Object.is equality
//	...
//	 ❯ test/sum.test.ts:5:21
type vitestParser struct {
	emit emitFunc
	cur  *testCase
	seen map[string]bool
}

var (
	vitestFail = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*FAIL\s+(\S+?) > (.+)$`) })
	vitestLoc  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*❯ (.+?):(\d+):(\d+)$`) })
	vitestEnd  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(⎯{3,}|Test Files |Tests |\s*Start at )`) })
)

func newVitestParser(emit emitFunc, _ Options) parser {
	return &vitestParser{emit: emit, seen: map[string]bool{}}
}

// Colour codes whose escape byte was lost on the way ("[31m", or "\u001b[31m" from an error
// serialised by a worker), and the starts of a second failure or error inside a line: two
// workers' writes run together, which must not make one test's message out of two.
var (
	colourRemnant = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:\\u001[bB]|\\x1[bB]|\\033|\\e)?\[[0-9;]*m`)
	})
	splicedFail  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\S\s+FAIL\s+\S+? > `) })
	errorStart   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Z][A-Za-z]*Error: `) })
	wordInsideOf = func(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' }
)

func (p *vitestParser) line(s string) {
	if strings.Contains(s, "[") {
		s = colourRemnant().ReplaceAllString(s, "")
	}
	for _, part := range unspliced(s) {
		p.read(part)
	}
}

// unspliced cuts a line where a second failure header, or a second error starting inside a word
// ("expected 'singapoAssertionError: ..."), begins.
func unspliced(s string) []string {
	var parts []string
	for {
		cut := -1
		if loc := splicedFail().FindStringIndex(s); loc != nil {
			cut = loc[0] + 1
		}
		if first := errorStart().FindStringIndex(s); first != nil {
			if next := errorStart().FindStringIndex(s[first[1]:]); next != nil {
				at := first[1] + next[0]
				if wordInsideOf(s[at-1]) && (cut < 0 || at < cut) {
					cut = at
				}
			}
		}
		if cut <= 0 {
			return append(parts, s)
		}
		parts = append(parts, s[:cut])
		s = s[cut:]
	}
}

func (p *vitestParser) read(s string) {
	if m := vitestFail().FindStringSubmatch(s); m != nil {
		p.flush()
		p.cur = &testCase{name: strings.TrimSpace(m[2]), file: m[1]}
		return
	}
	if p.cur == nil {
		return
	}
	if vitestEnd().MatchString(s) {
		p.flush()
		return
	}
	if m := vitestLoc().FindStringSubmatch(s); m != nil {
		if p.cur.f == nil && !strings.Contains(m[1], "node_modules") {
			p.cur.f = &gates.Finding{File: m[1], Line: atoi(m[2]), Column: atoi(m[3])}
		}
		return
	}
	if p.cur.f == nil && len(p.cur.message) == 0 {
		p.cur.addMessage(s)
	}
}

func (p *vitestParser) flush() {
	if p.cur == nil {
		return
	}
	f := p.cur.finding()
	p.cur = nil
	key := f.File + f.Rule
	if !p.seen[key] && len(p.seen) < maxPending {
		p.seen[key] = true
		p.emit(f)
	}
}

// jest prints each failure as
//
//	● suite › adds
//
//	  expect(received).toBe(expected) // Object.is equality
//	  ...
//	    at Object.toBe (src/sum.test.js:10:21)
type jestParser struct {
	emit emitFunc
	file string
	cur  *testCase
}

var (
	jestFile   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*FAIL\s+(\S+)\s*(?:\(.*\))?$`) })
	jestTest   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*● (.+)$`) })
	jestAt     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s+at (?:.*\()?([^()\s]+?):(\d+):(\d+)\)?$`) })
	jestFrame  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(>\s*)?\d+ \|`) })
	jestReport = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(Test Suites:|Tests:|Summary of all failing tests)`)
	})
)

func newJestParser(emit emitFunc, _ Options) parser { return &jestParser{emit: emit} }

// jestSteps read a line of jest's output: each in turn, the first that takes the line deciding
// what it is.
var jestSteps = []func(p *jestParser, s string) bool{
	(*jestParser).fileLine,
	(*jestParser).testLine,
	(*jestParser).outsideTest,
	(*jestParser).reportLine,
	(*jestParser).atLine,
	(*jestParser).messageLine,
}

func (p *jestParser) line(s string) {
	for _, step := range jestSteps {
		if step(p, s) {
			return
		}
	}
}

// fileLine reads "FAIL src/sum.test.js": the failures after it are the file's.
func (p *jestParser) fileLine(s string) bool {
	m := jestFile().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	p.flush()
	p.file = m[1]
	return true
}

// testLine reads "● suite › adds": a failure starts, unless it is a console message's.
func (p *jestParser) testLine(s string) bool {
	m := jestTest().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	p.flush()
	if name := strings.TrimSpace(m[1]); !strings.HasPrefix(name, "Console") {
		p.cur = &testCase{name: name, file: p.file}
	}
	return true
}

// outsideTest takes what the steps before did not, outside a failure.
func (p *jestParser) outsideTest(string) bool { return p.cur == nil }

// reportLine reads the summary that ends the failures.
func (p *jestParser) reportLine(s string) bool {
	if !jestReport().MatchString(s) {
		return false
	}
	p.flush()
	return true
}

// atLine reads a stack frame: the first in the project's own code places the failure.
func (p *jestParser) atLine(s string) bool {
	m := jestAt().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	if p.cur.f == nil && !strings.Contains(m[1], "node_modules") && !strings.HasPrefix(m[1], "node:") {
		p.cur.f = &gates.Finding{File: m[1], Line: atoi(m[2]), Column: atoi(m[3])}
	}
	return true
}

// messageLine reads a line of the failure's message, up to its first frame; the code excerpt
// ("> 10 | expect(...)") is not the message.
func (p *jestParser) messageLine(s string) bool {
	if p.cur.f == nil && !jestFrame().MatchString(s) && !strings.Contains(s, "|") {
		p.cur.addMessage(s)
	}
	return true
}

func (p *jestParser) flush() {
	if p.cur != nil {
		p.emit(p.cur.finding())
		p.cur = nil
	}
}

// ava prints "✘ [fail]: sum › adds Assertion failed" as it runs, then a detail section per
// failure: the title on a line of its own, then "test.js:5".
type avaParser struct {
	emit    emitFunc
	failed  []testCase
	current int // index into failed of the detail section being read, -1 none
}

var (
	avaFail = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*✘ \[fail\]: (.+)$`) })
	avaLoc  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s+([^\s:]+\.[cm]?[jt]sx?):(\d+)$`) })
)

func newAvaParser(emit emitFunc, _ Options) parser { return &avaParser{emit: emit, current: -1} }

func (p *avaParser) line(s string) {
	if m := avaFail().FindStringSubmatch(s); m != nil {
		if len(p.failed) < maxPending {
			p.failed = append(p.failed, testCase{name: strings.TrimSpace(m[1])})
		}
		return
	}
	if p.detailTitle(strings.TrimSpace(s)) {
		return
	}
	if m := avaLoc().FindStringSubmatch(s); m != nil && p.current >= 0 && p.failed[p.current].f == nil {
		p.failed[p.current].f = &gates.Finding{File: m[1], Line: atoi(m[2])}
	}
}

// detailTitle reads the title that starts a failure's detail section (trimmed): the running
// line adds the error message after the title, the detail section has the title alone, which
// tells the two apart.
func (p *avaParser) detailTitle(trimmed string) bool {
	if trimmed == "" {
		return false
	}
	for i := range p.failed {
		t := &p.failed[i]
		if t.name != trimmed && !strings.HasPrefix(t.name, trimmed+" ") {
			continue
		}
		if rest := strings.TrimSpace(strings.TrimPrefix(t.name, trimmed)); rest != "" && len(t.message) == 0 {
			t.addMessage(rest)
		}
		t.name = trimmed
		p.current = i
		return true
	}
	return false
}

func (p *avaParser) flush() {
	for _, t := range p.failed {
		p.emit(t.finding())
	}
	p.failed = nil
}
