package census

import (
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// ReadJUnit reads one JUnit XML report. The dialects differ in what they put where, and each
// gives a test's ID from what it has (see docs/census.md):
//
//   - surefire, nextest, pytest (--junitxml), vitest: the testcase's classname is its suite
//     (a class, a Rust target, a Python module, a test file) and its name is its name;
//   - jest-junit repeats the title as classname: the suite is then the testsuite's name;
//   - node's junit reporter calls every classname "test" and nests describe blocks as
//     testsuites: the name is the path of testsuites to the test, "add > nested > deep", as
//     node's TAP and vitest say it.
//
// A testcase with <failure> or <error> failed, one with <skipped> (pytest's xfail and node's
// todo among them) was skipped, any other passed. The file is the testcase's or testsuite's
// file attribute, or the classname when it is a source file's path (vitest).
func ReadJUnit(r io.Reader, opts Options) Census {
	b := newBuilder("junit", opts)
	readJUnit(b, r)
	return b.census()
}

// ReadJUnitFiles reads the JUnit reports a gate wrote, as one census. Every file is opened as
// safefile does (a FIFO or a device is refused) and read before deadline (zero: none); one that
// cannot be read makes the census incomplete and is named in its notes.
func ReadJUnitFiles(paths []string, deadline time.Time, opts Options) Census {
	b := newBuilder("junit", opts)
	if len(paths) == 0 {
		b.incomplete("no JUnit report was written")
	}
	for _, p := range paths {
		f, _, err := safefile.Open(p, deadline)
		if err != nil {
			b.incomplete(fmt.Sprintf("JUnit report %s: %v", p, err))
			continue
		}
		readJUnit(b, &deadlineReader{r: f, deadline: deadline, name: p})
		f.Close()
	}
	return b.census()
}

// deadlineReader ends a read of a file after its deadline, between reads.
type deadlineReader struct {
	r        io.Reader
	deadline time.Time
	name     string
}

func (d *deadlineReader) Read(p []byte) (int, error) {
	if !d.deadline.IsZero() && time.Now().After(d.deadline) {
		return 0, fmt.Errorf("%s: reading did not finish in time", d.name)
	}
	return d.r.Read(p)
}

type junitCase struct {
	suite, name, file string
	outcome           Outcome
	depth             int
}

type junitSuite struct{ name, file string }

func readJUnit(b *builder, r io.Reader) {
	s := newXMLScanner(r)
	jr := &junitReader{b: b}
	for {
		tok, err := s.next()
		if err != nil {
			jr.end(err)
			return
		}
		if tok.end {
			jr.endTag(tok, s.depth())
		} else {
			jr.startTag(tok, s.depth())
		}
	}
}

// junitReader is readJUnit's state between tokens: the testsuites open, the testcase open.
type junitReader struct {
	b       *builder
	suites  []junitSuite
	tc      *junitCase
	sawRoot bool
}

// end reads the error that ended the report: its end, or a report that does not parse.
func (jr *junitReader) end(err error) {
	switch {
	case errors.Is(err, io.EOF) && jr.sawRoot:
	case errors.Is(err, io.EOF):
		jr.b.incomplete("no JUnit testsuite or testcase in the report")
	default:
		jr.b.incomplete("the JUnit report did not parse: " + err.Error())
	}
}

// endTag reads an end tag, the scanner at depth after it.
func (jr *junitReader) endTag(tok xmlToken, depth int) {
	switch {
	case tok.name == "testsuite" && jr.tc == nil:
		if len(jr.suites) > 0 {
			jr.suites = jr.suites[:len(jr.suites)-1]
		}
	case tok.name == "testcase" && jr.tc != nil && depth == jr.tc.depth-1:
		jr.b.add(Test{Suite: jr.tc.suite, Name: jr.tc.name, File: jr.tc.file, Outcome: jr.tc.outcome})
		jr.tc = nil
	}
}

// startTag reads a start tag, the scanner at depth inside it.
func (jr *junitReader) startTag(tok xmlToken, depth int) {
	switch {
	case tok.name == "testsuites":
		jr.sawRoot = true
	case tok.name == "testsuite" && jr.tc == nil:
		jr.sawRoot = true
		jr.suites = append(jr.suites, junitSuite{name: strings.TrimSpace(attr(tok, "name")), file: fileAttr(tok)})
	case tok.name == "testcase" && jr.tc == nil:
		jr.sawRoot = true
		jr.tc = newJUnitCase(tok, jr.suites)
		jr.tc.depth = depth
	case jr.tc != nil && depth == jr.tc.depth+1:
		jr.tc.outcome = childOutcome(tok.name, jr.tc.outcome)
	}
}

// childOutcome is a testcase's outcome after one of its own children, named name; a flaky
// test's earlier failures (nextest's flakyFailure, surefire's rerunFailure) are not its outcome.
func childOutcome(name string, outcome Outcome) Outcome {
	switch {
	case name == "failure" || name == "error":
		return Fail
	case name == "skipped" && outcome != Fail:
		return Skip
	}
	return outcome
}

func newJUnitCase(tok xmlToken, suites []junitSuite) *junitCase {
	name := strings.TrimSpace(attr(tok, "name"))
	class := strings.TrimSpace(attr(tok, "classname"))
	path, file := suitePath(suites, fileAttr(tok))
	tc := &junitCase{name: name, outcome: Pass}
	switch {
	case class == "test" && nodeNesting(suites):
		// node: the describe blocks are testsuites.
		tc.name = strings.Join(append(path, name), " > ")
	case class != "" && class != name:
		tc.suite = class
	default:
		tc.suite = strings.Join(path, " > ")
	}
	if file == "" && looksLikeSourceFile(tc.suite) {
		file = tc.suite
	}
	tc.file = file
	if skippedByAttributes(tok) {
		tc.outcome = Skip
	}
	return tc
}

// suitePath is the names of the testsuites a testcase is in, and its file: its own (file), else
// the first its testsuites name.
func suitePath(suites []junitSuite, file string) (path []string, caseFile string) {
	caseFile = file
	for _, s := range suites {
		if s.name != "" {
			path = append(path, s.name)
		}
		if s.file != "" && caseFile == "" {
			caseFile = s.file
		}
	}
	return path, caseFile
}

// nodeNesting says whether testsuites around a testcase of classname "test" are node's describe
// blocks: not a suite that is itself named "test".
func nodeNesting(suites []junitSuite) bool {
	return len(suites) == 0 || suites[0].name != "test"
}

// skipAttributes are the attributes, and their values (lower case), by which dialects mark a
// skip (GoogleTest, some Ant tasks).
var skipAttributes = []struct {
	name   string
	values []string
}{
	{"status", []string{"notrun", "skipped", "disabled"}},
	{"result", []string{"skipped", "suppressed"}},
}

func skippedByAttributes(tok xmlToken) bool {
	for _, a := range skipAttributes {
		if slices.Contains(a.values, strings.ToLower(attr(tok, a.name))) {
			return true
		}
	}
	return false
}

func attr(tok xmlToken, name string) string {
	for _, a := range tok.attrs {
		if a.name == name {
			return a.value
		}
	}
	return ""
}

func fileAttr(tok xmlToken) string {
	for _, n := range []string{"file", "filepath"} {
		if v := strings.TrimSpace(attr(tok, n)); v != "" {
			return v
		}
	}
	return ""
}

// looksLikeSourceFile is true for a path ending in a source extension, as vitest's classname.
func looksLikeSourceFile(s string) bool {
	if s == "" || strings.ContainsAny(s, " \t") {
		return false
	}
	switch path.Ext(s) {
	case ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx", ".py", ".rb", ".go", ".rs",
		".java", ".kt", ".cs", ".php", ".ex", ".exs", ".swift", ".dart", ".scala":
		return true
	}
	return false
}
