package findings

import (
	"regexp"
	"strings"
	"sync"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// ruff prints "x.py:1:8: F401 [*] `os` imported but unused" (concise, and the first line of the
// older full format), or in its current full format the rule and message first:
//
//	F401 [*] `os` imported but unused
//	 --> x.py:1:8
type ruffParser struct {
	emit    emitFunc
	pending *gates.Finding
}

var (
	ruffConcise = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(.+?):(\d+):(\d+): ([A-Z]+[0-9]+) (?:\[\*\] )?(.+)$`)
	})
	ruffHeader = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Z]+[0-9]+) (?:\[\*\] )?(.+)$`) })
	ruffArrow  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*--> (.+?):(\d+):(\d+)$`) })
	ruffSyntax = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.+?):(\d+):(\d+): (SyntaxError: .+)$`) })
)

func newRuffParser(emit emitFunc, _ Options) parser { return &ruffParser{emit: emit} }

// ruffSteps read a line of ruff's output: each in turn, the first that takes the line deciding
// what it is.
var ruffSteps = []func(p *ruffParser, s string) bool{
	(*ruffParser).chatter,
	(*ruffParser).conciseLine,
	(*ruffParser).syntaxLine,
	(*ruffParser).headerLine,
	(*ruffParser).arrowLine,
}

func (p *ruffParser) line(s string) {
	for _, step := range ruffSteps {
		if step(p, s) {
			return
		}
	}
}

// chatter takes a line that is neither a location nor a rule code starting a diagnostic.
func (p *ruffParser) chatter(s string) bool {
	return !hasPlace(s) && !strings.Contains(s, "-->") && (s == "" || s[0] < 'A' || s[0] > 'Z')
}

// conciseLine reads "x.py:1:8: F401 [*] `os` imported but unused".
func (p *ruffParser) conciseLine(s string) bool {
	m := ruffConcise().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	p.pending = nil
	p.emit(gates.Finding{File: m[1], Line: atoi(m[2]), Column: atoi(m[3]), Severity: SeverityError, Message: m[5], Rule: m[4]})
	return true
}

// syntaxLine reads "x.py:1:8: SyntaxError: ...".
func (p *ruffParser) syntaxLine(s string) bool {
	m := ruffSyntax().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	p.pending = nil
	p.emit(gates.Finding{File: m[1], Line: atoi(m[2]), Column: atoi(m[3]), Severity: SeverityError, Message: m[4]})
	return true
}

// headerLine reads the rule and message that start a diagnostic in the full format.
func (p *ruffParser) headerLine(s string) bool {
	m := ruffHeader().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	p.pending = &gates.Finding{Severity: SeverityError, Message: m[2], Rule: m[1]}
	return true
}

// arrowLine reads the location of the diagnostic started, " --> x.py:1:8".
func (p *ruffParser) arrowLine(s string) bool {
	m := ruffArrow().FindStringSubmatch(s)
	if m == nil || p.pending == nil {
		return false
	}
	f := *p.pending
	p.pending = nil
	f.File, f.Line, f.Column = m[1], atoi(m[2]), atoi(m[3])
	p.emit(f)
	return true
}

func (p *ruffParser) flush() {}

// mypy: "x.py:3: error: Incompatible types in assignment  [assignment]", with a column when
// --show-column-numbers is set; notes are infos.
var mypyLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(.+?\.pyi?):(\d+):(?:(\d+):)? (error|warning|note): (.*?)(?:  \[([\w-]+)\])?$`)
})

func newMypyParser(emit emitFunc, opts Options) parser {
	return lineFormat(func(s string) (gates.Finding, bool) {
		m := mypyLine().FindStringSubmatch(s)
		if m == nil {
			return gates.Finding{}, false
		}
		return gates.Finding{File: m[1], Line: atoi(m[2]), Column: atoi(m[3]), Severity: wordSeverity(m[4]), Message: m[5], Rule: m[6]}, true
	})(emit, opts)
}

// pylint prints "x.py:1:0: C0114: Missing module docstring (missing-module-docstring)" (its text
// format; the column is 0-based) or, with --output-format=parseable,
// "x.py:1: [C0114(missing-module-docstring), obj] Missing module docstring". The letter of the
// message id is its category: a convention (C) or an informational message (I) is a note, a
// refactoring suggestion (R) or a warning (W) a warning, an error (E) or a fatal one (F) an
// error. The symbol names the rule, as `# pylint: disable=` does.
var (
	pylintText = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(.+?\.pyi?):(\d+):(\d+): ([CRWEFI])(\d{4}): (.*?)(?: \(([a-z0-9-]+)\))?$`)
	})
	pylintParseable = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(.+?\.pyi?):(\d+): \[([CRWEFI])(\d{4})(?:\(([a-z0-9-]+)\))?, [^\]]*\] (.*)$`)
	})
)

func newPylintParser(emit emitFunc, opts Options) parser {
	return lineFormat(func(s string) (gates.Finding, bool) {
		if m := pylintText().FindStringSubmatch(s); m != nil {
			return gates.Finding{File: m[1], Line: atoi(m[2]), Column: atoi(m[3]) + 1, Severity: pylintSeverity(m[4]),
				Message: m[6], Rule: cmpOr(m[7], m[4]+m[5])}, true
		}
		if m := pylintParseable().FindStringSubmatch(s); m != nil {
			return gates.Finding{File: m[1], Line: atoi(m[2]), Severity: pylintSeverity(m[3]), Message: m[6], Rule: cmpOr(m[5], m[3]+m[4])}, true
		}
		return gates.Finding{}, false
	})(emit, opts)
}

func pylintSeverity(category string) string {
	switch category {
	case "C", "I":
		return SeverityInfo
	case "R", "W":
		return SeverityWarning
	default:
		return SeverityError
	}
}

// pytest prints each failure in a section
//
//	___________________________ test_add ___________________________
//	    def test_add():
//	>       assert add(1, 2) == 4
//	E       assert 3 == 4
//	tests/test_a.py:5: AssertionError
//
// and then a short summary, "FAILED tests/test_a.py::test_add - assert 3 == 4". A finding is
// the section's E lines at its last location in a test file; a failed id whose section was not
// read (-q --tb=no, --tb=line) comes from the summary alone.
type pytestParser struct {
	emit    emitFunc
	test    string // section being read
	elines  []string
	loc     *gates.Finding
	located map[string]bool
}

var (
	pytestSection = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^_{3,} (?:ERROR at \w+ of )?(.+?) _{3,}$`) })
	pytestE       = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^E\s+(.*)$`) })
	// "tests/test_a.py:5: AssertionError" (the long traceback) or "tests/test_a.py:5: in test_add"
	// (--tb=short).
	pytestLoc     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([^\s:]+\.py):(\d+):(?: (\w+)| in \S+)? *$`) })
	pytestSummary = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(FAILED|ERROR) ([^\s:]+\.py)(?:::(\S+))?(?: - (.*))?$`)
	})
	pytestBanner = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^={3,} .* ={3,}$|^={5,}$`) })
)

func newPytestParser(emit emitFunc, _ Options) parser {
	return &pytestParser{emit: emit, located: map[string]bool{}}
}

// pytestSteps read a line of pytest's output: each in turn, the first that takes the line
// deciding what it is.
var pytestSteps = []func(p *pytestParser, s string) bool{
	(*pytestParser).chatter,
	(*pytestParser).sectionLine,
	(*pytestParser).bannerLine,
	(*pytestParser).summaryLine,
	(*pytestParser).outsideSection,
	(*pytestParser).eLine,
	(*pytestParser).locationLine,
}

func (p *pytestParser) line(s string) {
	for _, step := range pytestSteps {
		if step(p, s) {
			return
		}
	}
}

// chatter takes a line none of the steps after it can read, told by its first bytes.
func (p *pytestParser) chatter(s string) bool {
	for _, prefix := range []string{"___", "===", "FAILED ", "ERROR "} {
		if strings.HasPrefix(s, prefix) {
			return false
		}
	}
	return p.test == "" || !strings.HasPrefix(s, "E ") && !strings.Contains(s, ".py:")
}

// sectionLine reads the rule that starts a failure's section, naming its test.
func (p *pytestParser) sectionLine(s string) bool {
	m := pytestSection().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	p.endSection()
	p.test = m[1]
	return true
}

// bannerLine reads a banner ("=== short test summary info ==="): a section ends.
func (p *pytestParser) bannerLine(s string) bool {
	if !pytestBanner().MatchString(s) {
		return false
	}
	p.endSection()
	return true
}

// summaryLine reads "FAILED tests/test_a.py::test_add - assert 3 == 4": a finding of its own
// when the test's section gave none.
func (p *pytestParser) summaryLine(s string) bool {
	m := pytestSummary().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	name := cmpOr(m[3], m[2])
	if !p.located[shortTestName(name)] {
		p.emit(gates.Finding{File: m[2], Severity: SeverityError, Message: cmpOr(m[4], m[1]+" "+name), Rule: name})
	}
	return true
}

// outsideSection takes what the steps before did not, outside a section.
func (p *pytestParser) outsideSection(string) bool { return p.test == "" }

// eLine reads a line of the error, "E       assert 3 == 4".
func (p *pytestParser) eLine(s string) bool {
	m := pytestE().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	if len(p.elines) < maxMessageLines {
		p.elines = append(p.elines, strings.TrimRight(m[1], " "))
	}
	return true
}

// locationLine reads a location of the traceback. The last location is where it was raised; a
// test file's is the one a person looks at, so a location inside a test file wins over one in
// a library.
func (p *pytestParser) locationLine(s string) bool {
	m := pytestLoc().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	if p.loc == nil || isTestFile(m[1]) || !isTestFile(p.loc.File) {
		p.loc = &gates.Finding{File: m[1], Line: atoi(m[2]), Rule: m[3]}
	}
	return true
}

func (p *pytestParser) endSection() {
	if p.test == "" {
		return
	}
	if p.loc != nil {
		msg := strings.Join(p.elines, "\n")
		if msg == "" {
			msg = p.loc.Rule
		}
		p.emit(gates.Finding{File: p.loc.File, Line: p.loc.Line, Severity: SeverityError, Message: msg, Rule: p.test})
		if len(p.located) < maxPending {
			p.located[shortTestName(p.test)] = true
		}
	}
	p.test, p.elines, p.loc = "", nil, nil
}

func (p *pytestParser) flush() { p.endSection() }

// shortTestName is how a section names a test: "TestCalc.test_add" for the id
// "TestCalc::test_add".
func shortTestName(id string) string { return strings.ReplaceAll(id, "::", ".") }

func isTestFile(file string) bool {
	base := file[strings.LastIndexByte(file, '/')+1:]
	return strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py")
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
