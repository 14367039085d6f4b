// Package census reads which tests ran and how each ended from a test runner's machine output,
// in bounded memory, and names each test that passed at a change's base and no longer does.
package census

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Outcome is how one test ended.
type Outcome uint8

const (
	Pass Outcome = iota + 1
	Fail
	Skip
)

func (o Outcome) String() string {
	switch o {
	case Pass:
		return "pass"
	case Fail:
		return "fail"
	case Skip:
		return "skip"
	}
	return "unknown"
}

// worse is the outcome a test seen twice under one ID keeps: a failure anywhere is a failure,
// and a skip of one of two same-named tests is not hidden by the other passing.
func worse(a, b Outcome) Outcome {
	rank := func(o Outcome) int {
		switch o {
		case Fail:
			return 3
		case Skip:
			return 2
		case Pass:
			return 1
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// Test is one test's outcome. Suite is where the runner says the test lives (a Go package, a
// JUnit classname, a test file, a Rust test target) and Name the test's own name within it,
// subtests and describe blocks included ("TestParse/empty", "add > handles negatives"); ID joins
// the two and is what identifies the test from one run to the next.
type Test struct {
	ID      string
	Suite   string
	Name    string
	File    string // the test's source file relative to the project, when the runner says it
	Outcome Outcome
	// Digest is a hash of the test's body, when the caller can compute one (the runners do not
	// say it): it recognises a test renamed or moved with its body unchanged.
	Digest string
}

// Unit is a part of a run that failed as a whole, so that its tests did not run or did not all
// report: a Go package that did not build or whose test binary exited non-zero after its tests
// passed (TestMain, a panic, a timeout), a Rust test target that crashed, a jest file that did
// not load. An empty Suite is the whole run (a Rust crate that did not compile).
type Unit struct {
	Suite  string
	Reason string
}

// Census is what one run of a gate's tests reported.
type Census struct {
	Runner string // the format it was read from: "go", "junit", "tap", "libtest", "jest"
	Tests  []Test
	Failed []Unit
	// Complete is false when the output was cut short, did not parse, or held more than the
	// census keeps; Notes says why.
	Complete bool
	Notes    []string
}

// Bounds on what a census keeps, whatever the output holds.
const (
	DefaultMaxTests = 100_000
	maxUnits        = 10_000
	maxNotes        = 20
	// maxPart bounds a suite or a name; a longer one keeps its start and a hash of the whole, so
	// two long names stay apart and the same long name gives the same ID every run.
	maxPart = 512
)

// Options steer a reading.
type Options struct {
	// Root is the project directory the runner ran in: absolute paths under it are made
	// relative, so that a census of the base taken in another checkout compares with this one.
	Root string
	// MaxTests bounds the tests kept; 0 is DefaultMaxTests.
	MaxTests int
}

// builder assembles a census: it joins IDs, bounds lengths and counts, and keeps one entry per ID.
type builder struct {
	c     Census
	opts  Options
	index map[string]int
	noted map[string]bool
}

func newBuilder(runner string, opts Options) *builder {
	if opts.MaxTests <= 0 {
		opts.MaxTests = DefaultMaxTests
	}
	return &builder{c: Census{Runner: runner, Complete: true}, opts: opts, index: map[string]int{}, noted: map[string]bool{}}
}

// joinID is the ID of a test: its suite and its name, "::" between them when both are known.
func joinID(suite, name string) string {
	if suite == "" {
		return name
	}
	return suite + "::" + name
}

func (b *builder) add(t Test) {
	if filepath.IsAbs(t.Name) {
		t.Name = b.rel(t.Name) // node names a file that did not load by its absolute path
	}
	t.Suite = b.bound(t.Suite)
	t.Name = b.bound(t.Name)
	t.File = b.bound(b.rel(t.File))
	t.ID = joinID(t.Suite, t.Name)
	if i, ok := b.index[t.ID]; ok {
		prev := &b.c.Tests[i]
		prev.Outcome = worse(prev.Outcome, t.Outcome)
		if prev.File == "" {
			prev.File = t.File
		}
		return
	}
	if len(b.c.Tests) >= b.opts.MaxTests {
		b.incomplete(fmt.Sprintf("more than %d tests: the rest are not in the census", b.opts.MaxTests))
		return
	}
	b.index[t.ID] = len(b.c.Tests)
	b.c.Tests = append(b.c.Tests, t)
}

func (b *builder) fail(suite, reason string) {
	suite = b.bound(b.rel(suite))
	for _, u := range b.c.Failed {
		if u.Suite == suite {
			return
		}
	}
	if len(b.c.Failed) >= maxUnits {
		b.incomplete(fmt.Sprintf("more than %d failed units: the rest are not in the census", maxUnits))
		return
	}
	b.c.Failed = append(b.c.Failed, Unit{Suite: suite, Reason: b.bound(reason)})
}

// incomplete marks the census as not the whole story, saying why once per reason.
func (b *builder) incomplete(why string) {
	b.c.Complete = false
	b.note(why)
}

func (b *builder) note(s string) {
	if b.noted[s] || len(b.c.Notes) >= maxNotes {
		return
	}
	b.noted[s] = true
	b.c.Notes = append(b.c.Notes, s)
}

func (b *builder) bound(s string) string {
	if len(s) <= maxPart {
		return s
	}
	b.note(fmt.Sprintf("a test name longer than %d bytes is kept as its start and a hash", maxPart))
	sum := sha256.Sum256([]byte(s))
	cut := maxPart - 20
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…#" + hex.EncodeToString(sum[:8])
}

// rel makes an absolute path under the root relative to it, with forward slashes.
func (b *builder) rel(p string) string {
	if p == "" {
		return ""
	}
	if b.opts.Root != "" && filepath.IsAbs(p) {
		if r, err := filepath.Rel(b.opts.Root, p); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			p = r
		}
	}
	return filepath.ToSlash(p)
}

func (b *builder) census() Census { return b.c }

// Merge joins the censuses of one gate read from several files (JUnit written per class or per
// file): the same ID in two keeps the worse outcome, and one incomplete part makes the whole so.
func Merge(parts ...Census) Census {
	if len(parts) == 0 {
		return Census{Complete: true}
	}
	b := newBuilder(parts[0].Runner, Options{})
	for _, p := range parts {
		if p.Runner != b.c.Runner {
			b.c.Runner = "mixed"
		}
		b.merge(p)
	}
	return b.census()
}

// merge adds a part's tests, failed units and notes to those merged so far.
func (b *builder) merge(p Census) {
	for _, t := range p.Tests {
		b.mergeTest(t)
	}
	for _, u := range p.Failed {
		b.fail(u.Suite, u.Reason)
	}
	if !p.Complete {
		b.c.Complete = false
	}
	for _, n := range p.Notes {
		b.note(n)
	}
}

// mergeTest adds a test, keeping the worse outcome of one already there and the digest either
// part gave.
func (b *builder) mergeTest(t Test) {
	digest := t.Digest
	b.add(t)
	if i, ok := b.index[t.ID]; ok && b.c.Tests[i].Digest == "" {
		b.c.Tests[i].Digest = digest
	}
}
