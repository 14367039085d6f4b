package findings

import (
	"fmt"
	"strings"
	"sync"

	"github.com/reviewdog/errorformat"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// reviewdog/errorformat compiles Vim errorformats into regexps the way Vim does (its Efm), which
// is the part worth not rewriting. Its Scanner is not used: it pulls from an io.Reader, while
// output here is pushed line by line, and it keeps every entry it ever read, which a gate
// printing millions of lines would turn into unbounded memory. The multi-line state machine
// below is Vim's, reduced to what quickfix lists need: %E %W %I %N %A start an entry, %C
// continues it, %Z ends it, %G is a general line, %P/%Q push and pop the current file, and a
// leading %- (or %+) only consumes the line.
type efmLine struct {
	efm    *errorformat.Efm
	prefix byte // 0 for a single-line format
	minus  bool
}

// maxFileStack bounds %P nesting: a tool that pushes without popping must not grow memory.
const maxFileStack = 16

func errorformatParser(lines []string) (makeParser, error) {
	var efms []efmLine
	for _, l := range lines {
		e, err := compileEfm(l)
		if err != nil {
			return nil, fmt.Errorf("errorformat %q: %w", l, err)
		}
		efms = append(efms, e)
	}
	return func(emit emitFunc, _ Options) parser { return &efmParser{efms: efms, emit: emit} }, nil
}

func compileEfm(s string) (efmLine, error) {
	var e efmLine
	rest := s
	if len(rest) >= 2 && rest[0] == '%' {
		i := 1
		if rest[i] == '-' || rest[i] == '+' {
			e.minus = rest[i] == '-'
			i++
		}
		if i < len(rest) && strings.IndexByte("DXAEWINCZGOPQ", rest[i]) >= 0 {
			e.prefix = rest[i]
			rest = rest[i+1:]
		} else {
			e.minus = false
		}
	}
	efm, err := errorformat.NewEfm(rest)
	if err != nil {
		return efmLine{}, err
	}
	e.efm = efm
	return e, nil
}

type efmParser struct {
	efms    []efmLine
	emit    emitFunc
	pending *gates.Finding
	files   []string
}

func (p *efmParser) line(s string) {
	for _, e := range p.efms {
		m := e.efm.Match(s)
		if m == nil {
			continue
		}
		p.apply(e, m)
		return
	}
	// Vim ends a multi-line entry at the first line no format matches.
	p.flush()
}

// efmPrefixes read a match by its format's prefix; a prefix not here (none, %G) is a finding of
// its own line.
var efmPrefixes = sync.OnceValue(func() map[byte]func(p *efmParser, e efmLine, m *errorformat.Match) {
	return map[byte]func(p *efmParser, e efmLine, m *errorformat.Match){
		'P': (*efmParser).pushFile,
		'Q': (*efmParser).popFile,
		'D': ignoreMatch, 'X': ignoreMatch, 'O': ignoreMatch,
		'C': (*efmParser).continueEntry,
		'Z': (*efmParser).endEntry,
		'E': (*efmParser).startEntry, 'W': (*efmParser).startEntry, 'I': (*efmParser).startEntry,
		'N': (*efmParser).startEntry, 'A': (*efmParser).startEntry,
	}
})

// efmDefaultSeverity is the severity an entry's prefix gives it when the match names no type.
var efmDefaultSeverity = sync.OnceValue(func() map[byte]string {
	return map[byte]string{'W': SeverityWarning, 'I': SeverityInfo, 'N': SeverityInfo}
})

func (p *efmParser) apply(e efmLine, m *errorformat.Match) {
	if read, ok := efmPrefixes()[e.prefix]; ok {
		read(p, e, m)
		return
	}
	if e.minus {
		return
	}
	f := p.finding(m)
	p.flush()
	p.emit(f)
}

// ignoreMatch reads a line that changes nothing a quickfix list holds (%D %X: directories, %O).
func ignoreMatch(*efmParser, efmLine, *errorformat.Match) {}

func (p *efmParser) pushFile(_ efmLine, m *errorformat.Match) {
	if len(p.files) < maxFileStack {
		p.files = append(p.files, m.F)
	}
}

func (p *efmParser) popFile(efmLine, *errorformat.Match) {
	if len(p.files) > 0 {
		p.files = p.files[:len(p.files)-1]
	}
}

// continueEntry reads %C: more of the entry being read, unless the line is only consumed.
func (p *efmParser) continueEntry(e efmLine, m *errorformat.Match) {
	if p.pending != nil && !e.minus {
		p.extend(m)
	}
}

// endEntry reads %Z: the last line of the entry being read.
func (p *efmParser) endEntry(e efmLine, m *errorformat.Match) {
	p.continueEntry(e, m)
	p.flush()
}

// startEntry reads %E %W %I %N %A: an entry starts, its severity the prefix's when the match
// names no type.
func (p *efmParser) startEntry(e efmLine, m *errorformat.Match) {
	if e.minus {
		return
	}
	f := p.finding(m)
	p.flush()
	if sev, ok := efmDefaultSeverity()[e.prefix]; ok && m.T == 0 {
		f.Severity = sev
	}
	p.pending = &f
}

func (p *efmParser) finding(m *errorformat.Match) gates.Finding {
	f := gates.Finding{File: m.F, Line: m.L, Column: m.C, Message: m.M, Severity: efmSeverity(m.T)}
	if f.File == "" && len(p.files) > 0 {
		f.File = p.files[len(p.files)-1]
	}
	if m.N > 0 {
		f.Rule = itoa(m.N)
	}
	return f
}

func (p *efmParser) extend(m *errorformat.Match) {
	f := p.pending
	if f.File == "" {
		f.File = m.F
	}
	if f.Line == 0 {
		f.Line, f.Column = m.L, m.C
	}
	if m.M != "" && len(f.Message) < MaxMessageBytes {
		if f.Message != "" {
			f.Message += "\n"
		}
		f.Message += m.M
	}
}

func (p *efmParser) flush() {
	if p.pending != nil {
		p.emit(*p.pending)
		p.pending = nil
	}
}

func efmSeverity(t byte) string {
	switch t {
	case 'w', 'W':
		return SeverityWarning
	case 'i', 'I', 'n', 'N':
		return SeverityInfo
	default:
		return SeverityError
	}
}
