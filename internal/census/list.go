package census

import (
	"regexp"
	"strings"
	"sync"
)

// The base's tests named without running them: go test -list prints each package's top-level
// tests, then the package's result line. A stop that has no stored census of the base reads
// this, and runs at the base only the tests it needs an outcome of (those the change no longer
// runs), rather than the base's whole suite.

// ListArgs are the arguments that make go test list its tests instead of running them.
var ListArgs = []string{"-list", "."}

var (
	listedName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(Test|Example|Fuzz|Benchmark)[\p{L}\p{N}_]*$`) })
	// listedEnd is a package's result line: ok, FAIL or "?" (no test files), its import path.
	listedEnd = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(ok|FAIL|\?)\s+(\S+)`) })
)

// maxListed bounds the tests a listing keeps.
const maxListed = DefaultMaxTests

// Listing collects go test -list's output line by line: each package's top-level tests.
type Listing struct {
	pending []string
	// Tests are the listed tests, by package import path; Failed the packages whose listing
	// failed (they did not build at the base).
	Tests  map[string][]string
	Failed []string
	n      int
	// Cut says the listing held more tests than are kept.
	Cut bool
}

// NewListing returns an empty listing.
func NewListing() *Listing { return &Listing{Tests: map[string][]string{}} }

// Line reads one line of the output.
func (l *Listing) Line(line []byte) {
	s := strings.TrimSpace(string(line))
	if listedName().MatchString(s) {
		if l.n >= maxListed {
			l.Cut = true
			return
		}
		l.pending = append(l.pending, s)
		l.n++
		return
	}
	m := listedEnd().FindStringSubmatch(s)
	if m == nil {
		return
	}
	if m[1] == "FAIL" {
		l.Failed = append(l.Failed, m[2])
	}
	if len(l.pending) > 0 {
		l.Tests[m[2]] = append(l.Tests[m[2]], l.pending...)
		l.pending = nil
	}
}

// Top is a test ID's top-level test: its suite and its name up to the first subtest.
func Top(t Test) string {
	top, _, _ := strings.Cut(t.Name, "/")
	return joinID(t.Suite, top)
}
