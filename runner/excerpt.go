package runner

import (
	"bytes"
	"regexp"
	"strings"
	"sync"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// The excerpt keeps a few lines before the first line that looks like an error, for the context
// that tools print first (go test -v logs a test's messages before its "--- FAIL"), and more
// after it, where the details are. Lines are cut so that the excerpt stays small whatever the
// output.
const (
	excerptBefore    = 8
	excerptAfter     = 40
	excerptLineBytes = 512
	// As much as the tail: the excerpt travels with the result into the stop hook's ledger.
	excerptMaxBytes = 8 << 10
)

// A test failure or a panic is the surest sign of what went wrong; a line merely saying "error"
// is often a test's expected output or a warning's neighbour, so it is kept only when no failure
// follows. The tests look at the start of a line, after its indentation, and run a rule's regexp
// only when the line starts so: an unanchored regexp over every line of a large output would cost
// more than all the rest of capturing.
type prefixRule struct {
	prefix  string
	pattern string // matched against the whole line, when set
	re      *regexp.Regexp
}

var (
	excerptOnce sync.Once
	// failureRules match the start of a line without its indentation.
	failureRules = []prefixRule{
		{prefix: "--- FAIL"},
		{prefix: "FAIL", pattern: `^\s?(FAIL|FAILED)(\s|:|$)`},
		{prefix: "ERROR", pattern: `^ERROR(\s|:|$)`},
		{prefix: "panic: ", pattern: `^panic: `},
		{prefix: "E   ", pattern: `^E {3}`},
		{prefix: "___", pattern: `^_{3,} .+ _{3,}$`},
		{prefix: "× "}, {prefix: "✗ "}, {prefix: "✕ "}, {prefix: "✖ "}, {prefix: "✘ "},
		{prefix: "● "},
		{prefix: "not ok ", pattern: `^not ok \d+`},
		{prefix: "test ", pattern: `^test .* \.\.\. FAILED$`},
		{prefix: "AssertionError"},
		{prefix: "Traceback (most recent call last):"},
	}
	// Compiled with the rules, on first use: most gauntlet commands never read gate output.
	playwrightFailure, errorWord, errorLocation *regexp.Regexp
)

var (
	panickedAt = []byte("panicked at ")
	errorBytes = []byte("error")
	goSuffix   = []byte(".go:")
)

// rulesByFirstByte indexes failureRules by the first byte of their prefix: most lines start with
// a byte no rule does, and are done with after one lookup.
var rulesByFirstByte [256][]*prefixRule

func compileExcerptRules() {
	excerptOnce.Do(func() {
		for i := range failureRules {
			r := &failureRules[i]
			if r.pattern != "" {
				r.re = regexp.MustCompile(r.pattern)
			}
			rulesByFirstByte[r.prefix[0]] = append(rulesByFirstByte[r.prefix[0]], r)
		}
		playwrightFailure = regexp.MustCompile(`^\s*\d+\) \[[^\]]+\] › `)
		errorWord = regexp.MustCompile(`^\w*(Error|ERROR|error)(\[\w+\])?:$`)
		errorLocation = regexp.MustCompile(`:\d+(:\d+)?:\s*(fatal )?error\b|\(\d+,\d+\): error |^\s*\d+:\d+\s+error\s`)
	})
}

// classifyLine says whether a line looks like a test failure or, failing that, like an error.
func classifyLine(line []byte) (failure, err bool) {
	compileExcerptRules()
	trimmed := line
	for len(trimmed) > 0 && (trimmed[0] == ' ' || trimmed[0] == '\t') {
		trimmed = trimmed[1:]
	}
	if startsLikeFailure(line, trimmed) {
		return true, false
	}
	// Every other sign names a place or a kind followed by a colon; most lines have none, and one
	// byte search tells.
	if bytes.IndexByte(line, ':') < 0 {
		return false, false
	}
	if bytes.Contains(line, panickedAt) {
		return true, false
	}
	return false, looksLikeError(line, trimmed)
}

// startsLikeFailure reports whether the line, trimmed of its indent, begins as a test runner's
// failure does: a rule's prefix (and pattern), or Playwright's numbered failure.
func startsLikeFailure(line, trimmed []byte) bool {
	if len(trimmed) == 0 {
		return false
	}
	for _, r := range rulesByFirstByte[trimmed[0]] {
		if bytes.HasPrefix(trimmed, []byte(r.prefix)) && (r.re == nil || r.re.Match(line)) {
			return true
		}
	}
	n := digits(trimmed[:min(len(trimmed), 6)])
	return n > 0 && bytes.HasPrefix(trimmed[n:], []byte(") [")) && playwrightFailure.Match(line)
}

// looksLikeError reports an error's signs: a first word such as "Error:", a compiler's
// FILE:LINE: error, or a Go location.
func looksLikeError(line, trimmed []byte) bool {
	word, _, _ := bytes.Cut(trimmed, []byte(" "))
	return bytes.HasSuffix(word, []byte(":")) && errorWord.Match(word) ||
		bytes.Contains(line, errorBytes) && errorLocation.Match(line) ||
		goLocation(line)
}

// goLocation reports a word of the form file.go:LINE:COL: (the Go compiler's and vet's errors;
// test logs have no column), without a regexp: go test -v prints one such candidate per log line.
func goLocation(line []byte) bool {
	for {
		i := bytes.Index(line, goSuffix)
		if i < 0 {
			return false
		}
		if i > 0 && line[i-1] != ' ' && line[i-1] != '\t' {
			rest := line[i+len(goSuffix):]
			if n := digits(rest); n > 0 && n < len(rest) && rest[n] == ':' {
				rest = rest[n+1:]
				if m := digits(rest); m > 0 && bytes.HasPrefix(rest[m:], []byte(": ")) {
					return true
				}
			}
		}
		line = line[i+len(goSuffix):]
	}
}

func digits(b []byte) int {
	n := 0
	for n < len(b) && b[n] >= '0' && b[n] <= '9' {
		n++
	}
	return n
}

// errorWindow finds the first line of a gate's output that looks like a failure (else the first
// that looks like an error) and keeps the lines around it. Its memory is bounded by the window
// size, whatever the output.
type errorWindow struct {
	ring    [excerptBefore][]byte // the last lines seen, for the context before a match
	n       int                   // lines seen
	failure capturing
	err     capturing
}

// capturing is one window being filled: started at a matching line, closed after excerptAfter more.
type capturing struct {
	start, match int
	lines        []string
	bytes        int
	open         bool
}

func (w *errorWindow) line(line []byte) {
	w.n++
	if w.failure.open {
		w.failure.add(line, w.n)
	}
	if w.err.open {
		w.err.add(line, w.n)
	}
	if w.failure.match == 0 {
		switch failure, err := classifyLine(line); {
		case failure:
			w.failure = w.begin(line)
		case err && w.err.match == 0:
			w.err = w.begin(line)
		}
	}
	slot := &w.ring[w.n%excerptBefore]
	*slot = append((*slot)[:0], line[:min(len(line), excerptLineBytes)]...)
}

// begin opens a window at the current line with the lines kept before it.
func (w *errorWindow) begin(line []byte) capturing {
	before := min(w.n-1, excerptBefore)
	c := capturing{start: w.n - before, match: w.n, open: true, lines: make([]string, 0, before+1)}
	for i := w.n - before; i < w.n; i++ {
		c.keep(cleanExcerptLine(w.ring[i%excerptBefore]))
	}
	c.keep(cleanExcerptLine(line))
	return c
}

func (c *capturing) add(line []byte, n int) {
	if n-c.match > excerptAfter || c.bytes+min(len(line), excerptLineBytes) > excerptMaxBytes {
		c.open = false
		return
	}
	c.keep(cleanExcerptLine(line))
}

func (c *capturing) keep(line string) {
	c.lines = append(c.lines, line)
	c.bytes += len(line) + 1
}

// excerpt is the failure's window, else the error's, with blank lines at its end dropped; nil
// when no line looked like either.
func (w *errorWindow) excerpt() *gates.Excerpt {
	c := w.failure
	if c.match == 0 {
		c = w.err
	}
	if c.match == 0 {
		return nil
	}
	lines := c.lines
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return &gates.Excerpt{Start: c.start, Match: c.match, Lines: lines}
}

func cleanExcerptLine(line []byte) string {
	s := termtext.Clean(string(line[:min(len(line), excerptLineBytes)]))
	if len(line) >= excerptLineBytes {
		s = termtext.FirstBytes(s, excerptLineBytes-len("…")) + "…"
	}
	return strings.TrimRight(s, " \t")
}
