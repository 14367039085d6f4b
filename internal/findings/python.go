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

func (p *ruffParser) line(s string) {
	if !hasPlace(s) && !strings.Contains(s, "-->") && (s == "" || s[0] < 'A' || s[0] > 'Z') {
		return // neither a location nor a rule code starting a diagnostic
	}
	if m := ruffConcise().FindStringSubmatch(s); m != nil {
		p.pending = nil
		p.emit(gates.Finding{File: m[1], Line: atoi(m[2]), Column: atoi(m[3]), Severity: SeverityError, Message: m[5], Rule: m[4]})
		return
	}
	if m := ruffSyntax().FindStringSubmatch(s); m != nil {
		p.pending = nil
		p.emit(gates.Finding{File: m[1], Line: atoi(m[2]), Column: atoi(m[3]), Severity: SeverityError, Message: m[4]})
		return
	}
	if m := ruffHeader().FindStringSubmatch(s); m != nil {
		p.pending = &gates.Finding{Severity: SeverityError, Message: m[2], Rule: m[1]}
		return
	}
	if m := ruffArrow().FindStringSubmatch(s); m != nil && p.pending != nil {
		f := *p.pending
		p.pending = nil
		f.File, f.Line, f.Column = m[1], atoi(m[2]), atoi(m[3])
		p.emit(f)
	}
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

func (p *pytestParser) line(s string) {
	if !strings.HasPrefix(s, "___") && !strings.HasPrefix(s, "===") && !strings.HasPrefix(s, "FAILED ") &&
		!strings.HasPrefix(s, "ERROR ") && (p.test == "" || !strings.HasPrefix(s, "E ") && !strings.Contains(s, ".py:")) {
		return
	}
	if m := pytestSection().FindStringSubmatch(s); m != nil {
		p.endSection()
		p.test = m[1]
		return
	}
	if pytestBanner().MatchString(s) {
		p.endSection()
		return
	}
	if m := pytestSummary().FindStringSubmatch(s); m != nil {
		name := m[3]
		if name == "" {
			name = m[2]
		}
		if !p.located[shortTestName(name)] {
			f := gates.Finding{File: m[2], Severity: SeverityError, Message: cmpOr(m[4], m[1]+" "+name), Rule: name}
			p.emit(f)
		}
		return
	}
	if p.test == "" {
		return
	}
	if m := pytestE().FindStringSubmatch(s); m != nil {
		if len(p.elines) < maxMessageLines {
			p.elines = append(p.elines, strings.TrimRight(m[1], " "))
		}
		return
	}
	if m := pytestLoc().FindStringSubmatch(s); m != nil {
		// The last location of a traceback is where it was raised; a test file's is the one a
		// person looks at, so a location inside a test file wins over one in a library.
		f := &gates.Finding{File: m[1], Line: atoi(m[2]), Rule: m[3]}
		if p.loc == nil || isTestFile(m[1]) || !isTestFile(p.loc.File) {
			p.loc = f
		}
	}
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
