package census

import (
	"errors"
	"fmt"
	"io"
	"path"
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
	var suites []junitSuite
	var tc *junitCase
	sawRoot := false
	for {
		tok, err := s.next()
		if err != nil {
			switch {
			case errors.Is(err, io.EOF) && sawRoot:
			case errors.Is(err, io.EOF):
				b.incomplete("no JUnit testsuite or testcase in the report")
			default:
				b.incomplete("the JUnit report did not parse: " + err.Error())
			}
			return
		}
		switch {
		case tok.end && tok.name == "testsuite" && tc == nil:
			if len(suites) > 0 {
				suites = suites[:len(suites)-1]
			}
		case tok.end && tok.name == "testcase" && tc != nil && s.depth() == tc.depth-1:
			b.add(Test{Suite: tc.suite, Name: tc.name, File: tc.file, Outcome: tc.outcome})
			tc = nil
		case tok.end:
		case tok.name == "testsuites":
			sawRoot = true
		case tok.name == "testsuite" && tc == nil:
			sawRoot = true
			suites = append(suites, junitSuite{name: strings.TrimSpace(attr(tok, "name")), file: fileAttr(tok)})
		case tok.name == "testcase" && tc == nil:
			sawRoot = true
			tc = newJUnitCase(tok, suites)
			tc.depth = s.depth()
		case tc != nil && s.depth() == tc.depth+1:
			// The testcase's own children; a flaky test's earlier failures (nextest's
			// flakyFailure, surefire's rerunFailure) are not its outcome.
			switch tok.name {
			case "failure", "error":
				tc.outcome = Fail
			case "skipped":
				if tc.outcome != Fail {
					tc.outcome = Skip
				}
			}
		}
	}
}

func newJUnitCase(tok xmlToken, suites []junitSuite) *junitCase {
	name := strings.TrimSpace(attr(tok, "name"))
	class := strings.TrimSpace(attr(tok, "classname"))
	var path []string
	file := fileAttr(tok)
	for _, s := range suites {
		if s.name != "" {
			path = append(path, s.name)
		}
		if s.file != "" && file == "" {
			file = s.file
		}
	}
	tc := &junitCase{name: name, outcome: Pass}
	switch {
	case class == "test" && (len(suites) == 0 || len(suites) > 0 && suites[0].name != "test"):
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
	// Dialects that mark a skip in attributes (GoogleTest, some Ant tasks).
	switch strings.ToLower(attr(tok, "status")) {
	case "notrun", "skipped", "disabled":
		tc.outcome = Skip
	}
	switch strings.ToLower(attr(tok, "result")) {
	case "skipped", "suppressed":
		tc.outcome = Skip
	}
	return tc
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
