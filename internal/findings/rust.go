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

func (p *rustParser) line(s string) {
	if p.panic != nil {
		if strings.TrimSpace(s) == "" || strings.HasPrefix(s, "note: ") || strings.HasPrefix(s, "stack backtrace:") || strings.HasPrefix(s, "thread '") {
			p.endPanic()
		} else {
			if len(p.panic.Message) < MaxMessageBytes {
				p.panic.Message = strings.TrimPrefix(p.panic.Message+"\n"+s, "\n")
			}
			return
		}
	}
	if p.pending == nil && !strings.HasPrefix(s, "thread '") && !strings.HasPrefix(s, "error") &&
		!strings.HasPrefix(s, "warning") && !strings.Contains(s, ": error") && !strings.Contains(s, ": warning") {
		return // not a diagnostic, not inside one: the usual build and test chatter
	}
	if m := rustPanic().FindStringSubmatch(s); m != nil {
		p.end()
		p.panic = &gates.Finding{File: m[2], Line: atoi(m[3]), Column: atoi(m[4]), Severity: SeverityError, Rule: m[1]}
		return
	}
	if m := rustPanicOld().FindStringSubmatch(s); m != nil {
		p.end()
		p.emit(gates.Finding{File: m[3], Line: atoi(m[4]), Column: atoi(m[5]), Severity: SeverityError, Message: m[2], Rule: m[1]})
		return
	}
	if m := rustShort().FindStringSubmatch(s); m != nil {
		p.end()
		p.emit(gates.Finding{File: m[1], Line: atoi(m[2]), Column: atoi(m[3]), Severity: wordSeverity(m[4]), Message: m[6], Rule: m[5]})
		return
	}
	if m := rustHeader().FindStringSubmatch(s); m != nil {
		p.end()
		p.pending = &gates.Finding{Severity: wordSeverity(m[1]), Rule: m[2], Message: m[3]}
		return
	}
	if p.pending == nil {
		return
	}
	if strings.TrimSpace(s) == "" {
		p.end()
		return
	}
	if m := rustArrow().FindStringSubmatch(s); m != nil && !p.located {
		p.pending.File, p.pending.Line, p.pending.Column = m[1], atoi(m[2]), atoi(m[3])
		p.located = true
		return
	}
	if m := rustLint().FindStringSubmatch(s); m != nil && p.pending.Rule == "" {
		p.pending.Rule = m[1]
	}
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
