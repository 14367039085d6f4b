package census

import (
	"path"
	"regexp"
	"strings"
	"sync"
)

// The base's tests named without building or running them: the top-level test functions of its
// Go test files, read from the base commit's blobs (git grep). A stop that has no stored census of
// the base reads this, and runs at the base only the tests it needs an outcome of (those the
// change no longer runs), rather than the base's whole suite. The listing may name more than go
// test runs (a file excluded by a build constraint): each such test is run at the base, where it
// does not run either, and is then not compared; it never names fewer, since go test runs only
// functions of this form.

// goTestFunc is a Go test file's line declaring a test, fuzz test or example function.
var goTestFunc = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^func ((?:Test|Fuzz|Example)[\p{L}\p{N}_]*)\(`)
})

// maxListed bounds the tests a listing keeps.
const maxListed = DefaultMaxTests

// Listing is the base's tests, by package import path.
type Listing struct {
	Tests map[string][]string
	n     int
	// Cut says the listing held more tests than are kept.
	Cut bool
}

// NewListing returns an empty listing.
func NewListing() *Listing { return &Listing{Tests: map[string][]string{}} }

// GoGrepLine reads one line of `git grep` over a module's Go test files at a commit
// ("COMMIT:dir/x_test.go:func TestX(t *testing.T) {"), module being the module's path and the
// file's path relative to the module's root: a test function is listed under its package.
// Folders go test's ./... does not enter (testdata, vendor, _ and . folders) are skipped.
func (l *Listing) GoGrepLine(line, module string) {
	_, rest, ok := strings.Cut(line, ":")
	if !ok {
		return
	}
	file, decl, ok := strings.Cut(rest, ":")
	m := goTestFunc().FindStringSubmatch(decl)
	if !ok || m == nil || !strings.HasSuffix(file, "_test.go") || skippedByGoTest(file) {
		return
	}
	if l.n >= maxListed {
		l.Cut = true
		return
	}
	pkg := module
	if dir := path.Dir(file); dir != "." {
		pkg = module + "/" + dir
	}
	l.Tests[pkg] = append(l.Tests[pkg], m[1])
	l.n++
}

// skippedByGoTest says whether go test's ./... pattern leaves file's folder out.
func skippedByGoTest(file string) bool {
	for _, part := range strings.Split(path.Dir(file), "/") {
		if part == "testdata" || part == "vendor" || strings.HasPrefix(part, "_") || strings.HasPrefix(part, ".") && part != "." {
			return true
		}
	}
	return false
}

// Top is a test ID's top-level test: its suite and its name up to the first subtest.
func Top(t Test) string {
	top, _, _ := strings.Cut(t.Name, "/")
	return joinID(t.Suite, top)
}
