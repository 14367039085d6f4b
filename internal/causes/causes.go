// Package causes recognises environment failures in a gate's output: a registry that cannot be
// reached, a toolchain too old, dependencies or browsers not installed, a full disk, a process
// killed for memory. An agent cannot fix those, so a gate failing with one is an error, not a
// failure, and the reason says what to do instead.
package causes

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// Version identifies the catalogue's contents; it changes whenever an entry is added, removed or
// made to match differently, so that a report can be traced to the signatures that judged it.
const Version = 3

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
	// Probe checks the environment once the signature matched (see Probe); "" for the entries
	// whose text only the tool itself prints about its own setup, which nothing cheaper than
	// running the tool again could check.
	Probe Probe
	// explain, when set, words Summary and Fix for the matched line (the first pattern's) and the
	// gate's place: the tool the line names, the version it asks for, the project's own setup.
	// An empty summary keeps the catalogue's words.
	explain func(line string, opts Options) (summary, fix string)
}

// Pattern is one condition of a signature: a line containing one of Literals and, when Regexp is
// set, matching it too.
type Pattern struct {
	Literals []string
	Regexp   string
}

// Catalogue returns the built-in signatures in the order they are tried.
func Catalogue() []Signature { return slices.Clone(catalogue()) }

// compiledPattern is one pattern of one signature, its regexp compiled.
type compiledPattern struct {
	sig, index int // the signature and the pattern's place in it
	// re is the pattern's regular expression, compiled the first time a line holds one of its
	// literals: a run of quiet gates compiles none. nil when the literals are the whole pattern.
	re func() *regexp.Regexp
}

// literal is one literal of one pattern, with the set of its bytes.
type literal struct {
	text    []byte
	bytes   byteSet
	pattern int // index into compiledCatalogue.patterns
}

// keyGroup holds the literals whose least common byte is key: a line without that byte skips the
// whole group after one bit test.
type keyGroup struct {
	key      byte
	literals []literal
}

type compiledCatalogue struct {
	patterns []compiledPattern
	groups   []keyGroup
	perSig   []int   // how many patterns each signature has
	keys     byteSet // every group's key: a line with none of them is done with after four ANDs
}

// byteSet is a set of byte values. A line lacking any byte of a literal cannot contain it, which
// four word operations tell, where a substring search per literal would scan the line each time:
// most lines hold no literal of any signature, and every line of every gate passes here.
type byteSet [4]uint64

func (s *byteSet) has(b byte) bool { return s[b>>6]&(1<<(b&63)) != 0 }

func setOf(p []byte) byteSet {
	// In registers rather than an array: every byte of every line goes through here.
	var lo, hi, ext uint64
	for _, b := range p {
		switch bit := uint64(1) << (b & 63); {
		case b < 64:
			lo |= bit
		case b < 128:
			hi |= bit
		default:
			ext |= bit // bytes of UTF-8 sequences: rarely part of a literal, so kept coarse
		}
	}
	return byteSet{lo, hi, ext, ext}
}

// meets says whether s and t have a byte in common.
func (s byteSet) meets(t byteSet) bool {
	return s[0]&t[0] != 0 || s[1]&t[1] != 0 || s[2]&t[2] != 0 || s[3]&t[3] != 0
}

// within says whether every byte of s is in t.
func (s byteSet) within(t byteSet) bool {
	return s[0]&^t[0] == 0 && s[1]&^t[1] == 0 && s[2]&^t[2] == 0 && s[3]&^t[3] == 0
}

// commonness ranks bytes by how often they occur in ordinary output, roughly: a literal is keyed
// by its least common byte.
func commonness(b byte) int {
	switch {
	case b == ' ':
		return 100
	case strings.IndexByte("etaoinsrhl", b) >= 0:
		return 50
	case b >= 'a' && b <= 'z':
		return 30
	case b >= '0' && b <= '9', strings.IndexByte(".:/-_'\"", b) >= 0:
		return 20
	default:
		return 5
	}
}

func keyOf(text string) byte {
	key := text[0]
	for i := 1; i < len(text); i++ {
		if commonness(text[i]) < commonness(key) {
			key = text[i]
		}
	}
	return key
}

var (
	compileOnce sync.Once
	compiled    *compiledCatalogue
)

// compiledPatterns compiles the catalogue on first use rather than at start-up: most gauntlet
// commands never read gate output.
func compiledPatterns() *compiledCatalogue {
	compileOnce.Do(func() {
		c := &compiledCatalogue{perSig: make([]int, len(catalogue()))}
		byKey := map[byte]int{}
		for i, sig := range catalogue() {
			c.perSig[i] = len(sig.Patterns)
			for j, p := range sig.Patterns {
				cp := compiledPattern{sig: i, index: j}
				if p.Regexp != "" {
					cp.re = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(p.Regexp) })
				}
				c.patterns = append(c.patterns, cp)
				for _, text := range p.Literals {
					key := keyOf(text)
					g, ok := byKey[key]
					if !ok {
						g = len(c.groups)
						byKey[key] = g
						c.groups = append(c.groups, keyGroup{key: key})
						c.keys[key>>6] |= 1 << (key & 63)
					}
					c.groups[g].literals = append(c.groups[g].literals,
						literal{text: []byte(text), bytes: setOf([]byte(text)), pattern: len(c.patterns) - 1})
				}
			}
		}
		compiled = c
	})
	return compiled
}

// Reader is a runner.OutputReader that looks for the catalogue's signatures in one gate's output.
// Its memory is a few bits per signature and the first matched line of each.
type Reader struct {
	c       *compiledCatalogue
	matched []bool   // per pattern
	left    []int    // patterns of each signature not yet matched
	first   []string // the line that matched each signature's first pattern
	pending int      // signatures not yet complete

	opts      Options
	machine   Environment
	memBefore MemoryState // the memory when the gate started: did the OOM killer act during it?
	memErr    error
	complete  []int // the signatures that matched, in catalogue order (set by Finish)
	named     bool  // this reader named the outcome's cause
}

// NewReader returns a reader for one gate, about to start: it takes the memory's state now (or
// the run's, Options.MemoryBefore), so that a probe can tell whether a process was killed for
// memory while the gate ran.
func NewReader(opts Options) *Reader {
	c := compiledPatterns()
	r := &Reader{
		c:       c,
		matched: make([]bool, len(c.patterns)),
		left:    slices.Clone(c.perSig),
		first:   make([]string, len(c.perSig)),
		pending: len(c.perSig),
		opts:    opts,
		machine: Machine,
	}
	if opts.MemoryBefore != nil {
		r.memBefore, r.memErr = opts.MemoryBefore()
	} else {
		r.memBefore, r.memErr = r.env().Memory()
	}
	return r
}

func (r *Reader) env() Environment {
	if r.machine == nil {
		return system{}
	}
	return r.machine
}

// Line checks one output line against every pattern not yet matched.
func (r *Reader) Line(line []byte) {
	if r.pending == 0 {
		return
	}
	if len(line) > maxMatchBytes {
		line = line[:maxMatchBytes]
	}
	present := setOf(line)
	if !present.meets(r.c.keys) {
		return
	}
	for gi := range r.c.groups {
		g := &r.c.groups[gi]
		if !present.has(g.key) {
			continue
		}
		for li := range g.literals {
			l := &g.literals[li]
			if r.matched[l.pattern] || !l.bytes.within(present) || !bytes.Contains(line, l.text) {
				continue
			}
			if p := &r.c.patterns[l.pattern]; p.re == nil || p.re().Match(line) {
				r.hit(p, l.pattern, line)
			}
		}
	}
}

func (r *Reader) hit(p *compiledPattern, i int, line []byte) {
	r.matched[i] = true
	if p.index == 0 {
		r.first[p.sig] = cleanLine(line)
	}
	if r.left[p.sig]--; r.left[p.sig] == 0 {
		r.pending--
	}
}

// Finish names the first complete signature, in catalogue order, as the outcome's cause, unless
// another reader already did.
func (r *Reader) Finish(o *gates.Outcome) {
	r.complete = r.complete[:0]
	for i, s := range catalogue() {
		if r.left[i] != 0 || len(s.ExitCodes) > 0 && !slices.Contains(s.ExitCodes, o.ExitCode) {
			continue
		}
		r.complete = append(r.complete, i)
	}
	if o.Cause != nil || len(r.complete) == 0 {
		return
	}
	o.Cause = r.causeOf(r.complete[0])
	r.named = true
}

func (r *Reader) causeOf(i int) *gates.Cause {
	s := catalogue()[i]
	c := &gates.Cause{ID: s.ID, Summary: s.Summary, Fix: s.Fix, Line: r.first[i]}
	if s.explain != nil {
		if summary, fix := s.explain(c.Line, r.opts); summary != "" {
			c.Summary, c.Fix = summary, fix
		}
	}
	return c
}

// Settle implements runner.Settler: once the gate ended, the cause this reader named is checked
// against the environment. The first matched signature whose probe agrees names the cause; when
// none does, the outcome has no cause and says why in CauseRejected, so that the gate fails. A
// gate that passed is not probed: a cause only ever turns a failure into an error.
func (r *Reader) Settle(ctx context.Context, o *gates.Outcome) {
	if !r.named || o.Cause == nil || o.ExitCode == 0 && !o.TimedOut {
		return
	}
	var rejected string
	for _, i := range r.complete {
		sig := catalogue()[i]
		v := r.probe(ctx, sig, r.first[i])
		if v.agree {
			o.Cause = r.causeOf(i)
			return
		}
		if rejected == "" {
			rejected = fmt.Sprintf("the output says %s (%q), but %s: treated as the gate's own failure",
				strings.TrimSuffix(r.causeOf(i).Summary, "."), termtext.Short(r.first[i], maxQuotedBytes), v.why)
		}
	}
	o.Cause = nil
	o.CauseRejected = rejected
}

// maxQuotedBytes keeps the quoted line of a rejected cause short enough for a one-line reason.
const maxQuotedBytes = 120

// Match runs the catalogue over a whole output, as the runner would line by line; for tests and
// tools that hold an output in memory.
func Match(output string, exitCode int) *gates.Cause {
	r := NewReader(Options{})
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

// lazyRegexp compiles expr at first use: a stop answered from its record never reads a gate's
// output, and would pay for every expression of the catalogue's probes at start-up.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
