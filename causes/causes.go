// Package causes recognises environment failures in a gate's output: a registry that cannot be
// reached, a toolchain too old, dependencies or browsers not installed, a full disk, a process
// killed for memory. An agent cannot fix those, so a gate failing with one is an error, not a
// failure, and the reason says what to do instead.
package causes

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// Version identifies the catalogue's contents; it changes whenever an entry is added, removed or
// made to match differently, so that a report can be traced to the signatures that judged it.
const Version = 1

// maxLineBytes keeps the matched line short enough for a one-line report, and bounds the text a
// pattern is run over: the signatures sit near the start of a line.
const (
	maxLineBytes  = 200
	maxMatchBytes = 4 << 10
)

// Signature is one catalogue entry.
type Signature struct {
	ID        string
	Ecosystem string
	// Patterns must all match, each on some line of the output (in any order). A pattern is
	// literals of which a line must contain one, then optionally a regexp the line must also
	// match: the literals make the common case, a line that is nothing of the kind, a cheap byte
	// search.
	Patterns []Pattern
	// ExitCodes, when set, restrict the entry to these exit codes.
	ExitCodes []int
	Summary   string // one line naming the cause
	Fix       string // one line saying what to do
}

// Pattern is one condition of a signature: a line containing one of Literals and, when Regexp is
// set, matching it too.
type Pattern struct {
	Literals []string
	Regexp   string
}

// Catalogue returns the built-in signatures in the order they are tried.
func Catalogue() []Signature { return slices.Clone(catalogue) }

type compiledPattern struct {
	literals [][]byte
	masks    []byteSet // the bytes of each literal
	re       *regexp.Regexp
}

// byteSet is a set of byte values. A line lacking any byte of a literal cannot contain it, which
// four word operations tell, where a substring search per literal would scan the line each time:
// most lines hold no literal of any signature, and every line of every gate passes here.
type byteSet [4]uint64

func (s *byteSet) add(b byte) { s[b>>6] |= 1 << (b & 63) }

func setOf(p []byte) byteSet {
	var s byteSet
	for _, b := range p {
		s.add(b)
	}
	return s
}

// within says whether every byte of s is in t.
func (s byteSet) within(t byteSet) bool {
	return s[0]&^t[0] == 0 && s[1]&^t[1] == 0 && s[2]&^t[2] == 0 && s[3]&^t[3] == 0
}

var (
	compileOnce sync.Once
	compiled    [][]compiledPattern
)

// patterns compiles the catalogue on first use rather than at start-up: most gauntlet commands
// never read gate output.
func patterns() [][]compiledPattern {
	compileOnce.Do(func() {
		compiled = make([][]compiledPattern, len(catalogue))
		for i, s := range catalogue {
			for _, p := range s.Patterns {
				var cp compiledPattern
				for _, l := range p.Literals {
					cp.literals = append(cp.literals, []byte(l))
					cp.masks = append(cp.masks, setOf([]byte(l)))
				}
				if p.Regexp != "" {
					cp.re = regexp.MustCompile(p.Regexp)
				}
				compiled[i] = append(compiled[i], cp)
			}
		}
	})
	return compiled
}

func (p compiledPattern) match(line []byte, present byteSet) bool {
	for i, l := range p.literals {
		if p.masks[i].within(present) && bytes.Contains(line, l) {
			return p.re == nil || p.re.Match(line)
		}
	}
	return false
}

// Reader is a runner.OutputReader that looks for the catalogue's signatures in one gate's output.
// Its memory is a few bits per signature and the first matched line of each.
type Reader struct {
	pats    [][]compiledPattern
	matched [][]bool
	left    []int    // patterns of each signature not yet matched
	first   []string // the line that matched each signature's first pattern
	pending int      // signatures not yet complete
}

// NewReader returns a reader for one gate.
func NewReader() *Reader {
	pats := patterns()
	r := &Reader{
		pats:    pats,
		matched: make([][]bool, len(pats)),
		left:    make([]int, len(pats)),
		first:   make([]string, len(pats)),
		pending: len(pats),
	}
	for i, ps := range pats {
		r.matched[i] = make([]bool, len(ps))
		r.left[i] = len(ps)
	}
	return r
}

// Line checks one output line against every signature still incomplete.
func (r *Reader) Line(line []byte) {
	if r.pending == 0 {
		return
	}
	if len(line) > maxMatchBytes {
		line = line[:maxMatchBytes]
	}
	present := setOf(line)
	for i, ps := range r.pats {
		if r.left[i] == 0 {
			continue
		}
		for j, p := range ps {
			if r.matched[i][j] || !p.match(line, present) {
				continue
			}
			r.matched[i][j] = true
			if j == 0 {
				r.first[i] = cleanLine(line)
			}
			if r.left[i]--; r.left[i] == 0 {
				r.pending--
			}
		}
	}
}

// Finish names the first complete signature, in catalogue order, as the outcome's cause, unless
// another reader already did.
func (r *Reader) Finish(o *gates.Outcome) {
	if o.Cause != nil {
		return
	}
	if c := r.cause(o.ExitCode); c != nil {
		o.Cause = c
	}
}

func (r *Reader) cause(exitCode int) *gates.Cause {
	for i, s := range catalogue {
		if r.left[i] != 0 || len(s.ExitCodes) > 0 && !slices.Contains(s.ExitCodes, exitCode) {
			continue
		}
		return &gates.Cause{ID: s.ID, Summary: s.Summary, Fix: s.Fix, Line: r.first[i]}
	}
	return nil
}

// Match runs the catalogue over a whole output, as the runner would line by line; for tests and
// tools that hold an output in memory.
func Match(output string, exitCode int) *gates.Cause {
	r := NewReader()
	for line := range strings.SplitSeq(output, "\n") {
		r.Line([]byte(termtext.StripString(strings.TrimSuffix(line, "\r"))))
	}
	o := gates.Outcome{ExitCode: exitCode}
	r.Finish(&o)
	return o.Cause
}

func cleanLine(line []byte) string {
	return termtext.FirstBytes(strings.TrimSpace(termtext.Line(string(line))), maxLineBytes)
}
