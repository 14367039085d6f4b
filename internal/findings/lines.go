package findings

import (
	"regexp"
	"strings"
	"sync"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// lineParser reads formats where one line is one finding.
type lineParser struct {
	emit  emitFunc
	parse func(s string) (gates.Finding, bool)
	any   bool // the format has no line numbers (file lists): no hasPlace shortcut
}

func (p *lineParser) line(s string) {
	if !p.any && !hasPlace(s) {
		return
	}
	if f, ok := p.parse(s); ok {
		p.emit(f)
	}
}

func (p *lineParser) flush() {}

// may implements prefilter: a format with line numbers takes only lines that have one.
func (p *lineParser) may(line []byte) bool { return p.any || hasPlace(line) }

func lineFormat(parse func(string) (gates.Finding, bool)) makeParser {
	return func(emit emitFunc, _ Options) parser { return &lineParser{emit: emit, parse: parse} }
}

// goLine is what the Go compiler, vet, staticcheck and golangci-lint print: file.go:l:c: msg,
// with vet's "vet: " prefix on some errors.
var (
	goLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:vet: )?((?:[A-Za-z]:)?[^\s:]+\.go):(\d+)(?::(\d+))?: (.+)$`)
	})
	// A trailing "(SA4006)" (staticcheck) or "(errcheck)" (golangci-lint) names the rule.
	goRule = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.*\S)\s+\(([A-Z]+[0-9]+|[a-z][a-z0-9]+)\)$`) })
)

func newGoParser(emit emitFunc, opts Options) parser { return lineFormat(parseGoLine)(emit, opts) }

func parseGoLine(s string) (gates.Finding, bool) {
	m := goLine().FindStringSubmatch(s)
	if m == nil {
		return gates.Finding{}, false
	}
	if strings.HasPrefix(strings.TrimLeft(m[4], ": "), "# ") {
		// "x.go:1: : # example.com/pkg": golangci-lint's copy of the compiler's package header,
		// above the errors that are the findings.
		return gates.Finding{}, false
	}
	f := gates.Finding{File: m[1], Line: atoi(m[2]), Column: atoi(m[3]), Severity: SeverityError, Message: m[4]}
	if r := goRule().FindStringSubmatch(f.Message); r != nil {
		f.Message, f.Rule = r[1], r[2]
	}
	return f, true
}

// newListParser reads lists of files (gofmt -l, goimports -l, prettier --list-different): each
// line that looks like a source path is a file that is not formatted.
func newListParser(emit emitFunc, _ Options) parser {
	return &lineParser{emit: emit, any: true, parse: func(s string) (gates.Finding, bool) {
		s = strings.TrimSpace(s)
		if s == "" || strings.ContainsAny(s, " \t:") || !strings.Contains(s, ".") {
			return gates.Finding{}, false
		}
		return gates.Finding{File: s, Severity: SeverityError, Message: "not formatted", Rule: "format"}, true
	}}
}

// gccLine is the GNU format most compilers and linters can print: file:l:c: severity: msg [flag].
var (
	gccLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([^\s:][^:]*):(\d+):(?:(\d+):)? (?:(fatal error|error|warning|note|info|style): )(.+)$`)
	})
	gccRule = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.*\S)\s+\[(-W[^\]]+|SC\d+)\]$`) })
)

func newGCCParser(emit emitFunc, opts Options) parser { return lineFormat(parseGCCLine)(emit, opts) }

func parseGCCLine(s string) (gates.Finding, bool) {
	m := gccLine().FindStringSubmatch(s)
	if m == nil {
		return gates.Finding{}, false
	}
	f := gates.Finding{File: m[1], Line: atoi(m[2]), Column: atoi(m[3]), Severity: wordSeverity(m[4]), Message: m[5]}
	if r := gccRule().FindStringSubmatch(f.Message); r != nil {
		f.Message, f.Rule = r[1], r[2]
	}
	return f, true
}

func wordSeverity(w string) string {
	switch strings.ToLower(w) {
	case "warning", "warn", "style":
		return SeverityWarning
	case "note", "info", "information", "hint":
		return SeverityInfo
	default:
		return SeverityError
	}
}

// genericLine is file:line[:col]: message, the shape nearly every tool can print. The file must
// look like a path (an extension or a slash, no spaces) so that "Note: 3 things" is not one.
var (
	genericLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^((?:[A-Za-z]:)?[^\s:]*[./][^\s:]*):(\d+)(?::(\d+))?:? +(.+)$`)
	})
	severityWord = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?i)(fatal error|error|warning|warn|note|info|hint)(?:\[([^\]]+)\])?:\s*(.+)$`)
	})
)

func newGenericParser(emit emitFunc, opts Options) parser {
	return lineFormat(parseGenericLine)(emit, opts)
}

func parseGenericLine(s string) (gates.Finding, bool) {
	// tsc under a script runner (`npm test` running a build): its errors are the ones that
	// matter, whatever a linter before it warned about. Only a line naming a TS code costs its
	// regexps.
	if strings.Contains(s, " TS") {
		if f, ok := parseTSCLine(s); ok {
			return f, true
		}
	}
	m := genericLine().FindStringSubmatch(s)
	if m == nil || strings.HasPrefix(m[1], "http") || !looksLikePath(m[1]) {
		return gates.Finding{}, false
	}
	f := gates.Finding{File: m[1], Line: atoi(m[2]), Column: atoi(m[3]), Severity: SeverityError, Message: m[4]}
	if w := severityWord().FindStringSubmatch(f.Message); w != nil {
		f.Severity, f.Rule, f.Message = wordSeverity(w[1]), w[2], w[3]
	}
	if r := gccRule().FindStringSubmatch(f.Message); r != nil {
		f.Message, f.Rule = r[1], r[2]
	}
	return f, true
}

// looksLikePath tells a file name ("src/a.ts", "main.c") from a host or version ("10.0.0.1",
// "v1.2"): a directory, or an extension that starts with a letter.
var pathExtension = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\.[A-Za-z][A-Za-z0-9_+-]*$`) })

func looksLikePath(s string) bool {
	return strings.Contains(s, "/") || pathExtension().MatchString(s)
}

// shellcheck prints gcc lines with -f gcc, and by default (tty format):
//
//	In deploy.sh line 3:
//	echo $1
//	     ^-- SC2086 (info): Double quote to prevent globbing and word splitting.
type shellcheckParser struct {
	emit emitFunc
	file string
	lnum int
}

var (
	shellcheckIn    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^In (.+) line (\d+):$`) })
	shellcheckCaret = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s*)\^-*\^?\s*(SC\d+)(?: \((\w+)\))?: (.+)$`) })
)

func newShellcheckParser(emit emitFunc, _ Options) parser { return &shellcheckParser{emit: emit} }

func (p *shellcheckParser) line(s string) {
	if !hasPlace(s) && !strings.Contains(s, "^") {
		return
	}
	if f, ok := parseGCCLine(s); ok {
		p.emit(f)
		return
	}
	if m := shellcheckIn().FindStringSubmatch(s); m != nil {
		p.file, p.lnum = m[1], atoi(m[2])
		return
	}
	if m := shellcheckCaret().FindStringSubmatch(s); m != nil && p.file != "" {
		p.emit(gates.Finding{File: p.file, Line: p.lnum, Column: len(m[1]) + 1, Severity: wordSeverity(m[3]), Message: m[4], Rule: m[2]})
	}
}

func (p *shellcheckParser) flush() {}

// hasPlace is a cheap test every one-line format needs to pass: a line number, written ":12",
// "(12" or "line 12", somewhere in the line. Most output lines fail it, and a byte scan is far
// cheaper than the regexps that would otherwise each look at them. Digits are found by table,
// and only a number's first digit is checked for what precedes it.
func hasPlace[T string | []byte](s T) bool {
	for i := 1; i < len(s); i++ {
		if !isDigit[s[i]] {
			continue
		}
		if placeMark[s[i-1]] {
			return true
		}
		// Skip the rest of this number: only its first digit can follow a mark.
		for i+1 < len(s) && isDigit[s[i+1]] {
			i++
		}
	}
	return false
}

var isDigit, placeMark = func() (d, m [256]bool) {
	for c := '0'; c <= '9'; c++ {
		d[c] = true
	}
	m[':'], m['('], m[' '] = true, true, true
	return d, m
}()
