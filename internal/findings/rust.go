package findings

import (
	"regexp"
	"strings"
	"sync"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// rustc, cargo and clippy print each diagnostic as a header, a location arrow and notes, ended
// by a blank line:
//
//	warning: unused variable: `x`
//	 --> src/main.rs:2:9
//	  |
//	  = note: `#[warn(unused_variables)]` on by default
//
// cargo test adds panics: "thread 'tests::adds' panicked at src/lib.rs:10:5:" and the message
// on the next lines (before Rust 1.73: "panicked at 'msg', src/lib.rs:10:5").
type rustParser struct {
	emit    emitFunc
	pending *gates.Finding
	located bool
	panic   *gates.Finding
}

var (
	rustHeader = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(error|warning)(?:\[(\w+)\])?: (.+)$`) })
	rustArrow  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*--> (.+?):(\d+):(\d+)$`) })
	rustLint   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`#\[(?:warn|deny|forbid)\(([\w:]+)\)\]`) })
	rustShort  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(.+?):(\d+):(\d+): (error|warning)(?:\[(\w+)\])?: (.+)$`)
	})
	rustPanic = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^thread '(.+?)'(?: \(\d+\))? panicked at (.+?):(\d+):(\d+):$`)
	})
	rustPanicOld = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^thread '(.+)' panicked at '(.*)', (.+?):(\d+):(\d+)$`)
	})
)

func newRustParser(emit emitFunc, _ Options) parser { return &rustParser{emit: emit} }

// rustSteps read a line of rustc's or cargo's output: each in turn, the first that takes the
// line deciding what it is.
var rustSteps = []func(p *rustParser, s string) bool{
	(*rustParser).panicMessage,
	(*rustParser).chatter,
	(*rustParser).panicLine,
	(*rustParser).oldPanicLine,
	(*rustParser).shortLine,
	(*rustParser).headerLine,
	(*rustParser).outsideDiagnostic,
	(*rustParser).blankLine,
	(*rustParser).arrowLine,
	(*rustParser).lintLine,
}

func (p *rustParser) line(s string) {
	for _, step := range rustSteps {
		if step(p, s) {
			return
		}
	}
}

// panicMessage reads a line of a panic's message, which runs to a blank line, a note, a
// backtrace or another thread's panic; a line that ends it is read by the steps after.
func (p *rustParser) panicMessage(s string) bool {
	if p.panic == nil {
		return false
	}
	if endsPanicMessage(s) {
		p.endPanic()
		return false
	}
	if len(p.panic.Message) < MaxMessageBytes {
		p.panic.Message = strings.TrimPrefix(p.panic.Message+"\n"+s, "\n")
	}
	return true
}

func endsPanicMessage(s string) bool {
	return strings.TrimSpace(s) == "" || strings.HasPrefix(s, "note: ") || strings.HasPrefix(s, "stack backtrace:") || strings.HasPrefix(s, "thread '")
}

// chatter takes a line that is not a diagnostic, outside one: the usual build and test chatter.
func (p *rustParser) chatter(s string) bool {
	return p.pending == nil && !mayStartRustDiagnostic(s)
}

func mayStartRustDiagnostic(s string) bool {
	return strings.HasPrefix(s, "thread '") || strings.HasPrefix(s, "error") || strings.HasPrefix(s, "warning") ||
		strings.Contains(s, ": error") || strings.Contains(s, ": warning")
}

// panicLine reads "thread 'x' panicked at src/lib.rs:10:5:": its message follows.
func (p *rustParser) panicLine(s string) bool {
	m := rustPanic().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	p.end()
	p.panic = &gates.Finding{File: m[2], Line: atoi(m[3]), Column: atoi(m[4]), Severity: SeverityError, Rule: m[1]}
	return true
}

// oldPanicLine reads a panic as Rust before 1.73 printed it, its message on the line.
func (p *rustParser) oldPanicLine(s string) bool {
	m := rustPanicOld().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	p.end()
	p.emit(gates.Finding{File: m[3], Line: atoi(m[4]), Column: atoi(m[5]), Severity: SeverityError, Message: m[2], Rule: m[1]})
	return true
}

// shortLine reads a diagnostic in --message-format=short: one line.
func (p *rustParser) shortLine(s string) bool {
	m := rustShort().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	p.end()
	p.emit(gates.Finding{File: m[1], Line: atoi(m[2]), Column: atoi(m[3]), Severity: wordSeverity(m[4]), Message: m[6], Rule: m[5]})
	return true
}

// headerLine reads "warning: unused variable: `x`": a diagnostic starts.
func (p *rustParser) headerLine(s string) bool {
	m := rustHeader().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	p.end()
	p.pending = &gates.Finding{Severity: wordSeverity(m[1]), Rule: m[2], Message: m[3]}
	return true
}

// outsideDiagnostic takes what the steps before did not, outside a diagnostic.
func (p *rustParser) outsideDiagnostic(string) bool { return p.pending == nil }

// blankLine ends the diagnostic being read.
func (p *rustParser) blankLine(s string) bool {
	if strings.TrimSpace(s) != "" {
		return false
	}
	p.end()
	return true
}

// arrowLine reads the diagnostic's first location, " --> src/main.rs:2:9".
func (p *rustParser) arrowLine(s string) bool {
	m := rustArrow().FindStringSubmatch(s)
	if m == nil || p.located {
		return false
	}
	p.pending.File, p.pending.Line, p.pending.Column = m[1], atoi(m[2]), atoi(m[3])
	p.located = true
	return true
}

// lintLine reads the lint a note names, "#[warn(unused_variables)]", as the rule of a
// diagnostic that has none.
func (p *rustParser) lintLine(s string) bool {
	if m := rustLint().FindStringSubmatch(s); m != nil && p.pending.Rule == "" {
		p.pending.Rule = m[1]
	}
	return true
}

// end emits the diagnostic being read; one without a location ("could not compile", "aborting
// due to 2 previous errors", "generated 1 warning") is a summary, not a finding.
func (p *rustParser) end() {
	p.endPanic()
	if p.pending != nil && p.located {
		p.emit(*p.pending)
	}
	p.pending, p.located = nil, false
}

func (p *rustParser) endPanic() {
	if p.panic != nil {
		p.emit(*p.panic)
		p.panic = nil
	}
}

func (p *rustParser) flush() { p.end() }
