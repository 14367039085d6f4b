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
// follows.
var (
	excerptOnce    sync.Once
	failureLine    *regexp.Regexp
	errorLine      *regexp.Regexp
	excerptSignals [][]byte
)

func excerptPatterns() {
	excerptOnce.Do(func() {
		failureLine = regexp.MustCompile(`^\s*--- FAIL|^(FAIL|FAILED|ERROR)(\s|:|$)|^panic: |panicked at |^E {3}|^_{3,} .+ _{3,}$|^\s*[×✗✕✖✘] |^\s*● |^not ok \d+|^test .* \.\.\. FAILED$|^\s*\d+\) \[[^\]]+\] › |^\s*AssertionError\b|^Traceback \(most recent call last\):`)
		errorLine = regexp.MustCompile(`^\s*\w*(Error|ERROR|error)(\[\w+\])?: |:\d+(:\d+)?:\s*(fatal )?error\b|\(\d+,\d+\): error |(^|\s)\S+\.go:\d+:\d+: |^\s*\d+:\d+\s+error\s`)
		for _, s := range []string{"FAIL", "ERROR", "panic", "E   ", "___", "×", "✗", "✕", "✖", "✘", "●", "not ok", "Traceback", "AssertionError", "rror", ".go:", "] › "} {
			excerptSignals = append(excerptSignals, []byte(s))
		}
	})
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
	if w.failure.match == 0 && looksLikeError(line) {
		excerptPatterns()
		switch {
		case failureLine.Match(line):
			w.failure = w.begin(line)
		case w.err.match == 0 && errorLine.Match(line):
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

func looksLikeError(line []byte) bool {
	excerptPatterns()
	for _, s := range excerptSignals {
		if bytes.Contains(line, s) {
			return true
		}
	}
	return false
}

func cleanExcerptLine(line []byte) string {
	s := termtext.Clean(string(line[:min(len(line), excerptLineBytes)]))
	if len(line) >= excerptLineBytes {
		s = termtext.FirstBytes(s, excerptLineBytes-len("…")) + "…"
	}
	return strings.TrimRight(s, " \t")
}
