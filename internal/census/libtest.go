package census

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gauntlet-dev/gauntlet/internal/boundedio"
)

var (
	cargoRunning  = lazyRegexp(`^\s*Running (?:unittests )?(\S+)(?: \((.*)\))?$`)
	cargoDocTests = lazyRegexp(`^\s*Doc-tests (\S+)$`)
	cargoHash     = lazyRegexp(`-[0-9a-f]{16}(?:\.exe)?$`)
	libtestStart  = lazyRegexp(`^running (\d+) tests?$`)
	libtestResult = lazyRegexp(`^test (.+?) \.\.\. (ok|FAILED|ignored(?:, .*)?|bench:.*)$`)
	libtestOpen   = lazyRegexp(`^test (.+?) \.\.\.\s*$`)
	libtestTerse  = lazyRegexp(`^(\S+) --- FAILED$`)
	libtestSum    = lazyRegexp(`^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored`)
	docTestLine   = lazyRegexp(` \(line \d+\)`)
	cargoNoBuild  = lazyRegexp("^error: could not compile `([^`]+)`(?: \\(([^)]*)\\))?")
	cargoCrash    = lazyRegexp(`process didn't exit successfully: .*\((signal: .*|exit status: .*)\)$`)
)

// ReadLibtest reads the text cargo test prints: libtest's "test a::b ... ok|FAILED|ignored"
// lines, under the "Running" line of each test target, which names the suite (src/lib.rs,
// tests/integration.rs, "Doc-tests calc"). A target that did not compile fails the whole run;
// a test binary that ended before its summary (an abort, a stack overflow) is a failed unit.
// The summary of each target checks the count: terse output (cargo test -q) names only the
// failing tests, and the census then says it is incomplete.
func ReadLibtest(r io.Reader, opts Options) Census {
	lt := &libtestReader{b: newBuilder("libtest", opts)}
	lr := boundedio.NewLineReader(r)
	for {
		raw, ok := lr.Next()
		if !ok {
			break
		}
		raw = bytes.TrimRight(raw, " \t")
		if lt.takePending(raw) || !libtestMay(raw) {
			continue
		}
		lt.line(string(raw))
	}
	lt.end(lr.Err)
	return lt.b.census()
}

// libtestReader is ReadLibtest's state between lines.
type libtestReader struct {
	b        *builder
	suite    string
	open     bool // "running N tests" seen, its summary not yet
	read     int  // results read in the open target
	pending  string
	crash    *Unit // a target that ended before its summary, its reason still to be read
	stopped  bool  // cargo said a target failed: without --no-fail-fast it stops there
	finished bool  // cargo's "error: N targets failed" after running them all
	seen     bool
}

// libtestLine is a kind of line cargo test prints: what it matches and what reading it does.
type libtestLine struct {
	matches func(lt *libtestReader, line string) bool
	read    func(lt *libtestReader, line string)
}

// libtestLines are the lines ReadLibtest reads, the first that matches deciding.
var libtestLines = []libtestLine{
	{matches: matching(cargoRunning, cargoDocTests), read: (*libtestReader).target},
	{matches: matching(libtestStart), read: (*libtestReader).start},
	{matches: matching(libtestResult), read: (*libtestReader).result},
	{matches: matching(libtestOpen), read: (*libtestReader).opened},
	{matches: (*libtestReader).terseFailure, read: (*libtestReader).terse},
	{matches: matching(libtestSum), read: (*libtestReader).summary},
	{matches: matching(cargoNoBuild), read: (*libtestReader).noBuild},
	{matches: isTestFailedLine, read: (*libtestReader).targetFailed},
	{matches: (*libtestReader).crashReason, read: (*libtestReader).crashed},
	{matches: isTargetsFailedLine, read: (*libtestReader).allFailed},
}

// matching is a libtestLine's matches for lines any of the expressions match.
func matching(exprs ...func() *regexp.Regexp) func(*libtestReader, string) bool {
	return func(_ *libtestReader, line string) bool {
		return slices.ContainsFunc(exprs, func(re func() *regexp.Regexp) bool { return re().MatchString(line) })
	}
}

// line reads one line of cargo test's output by the first kind of line it is.
func (lt *libtestReader) line(line string) {
	for _, kind := range libtestLines {
		if kind.matches(lt, line) {
			kind.read(lt, line)
			return
		}
	}
}

// takePending reads the line that ends a test whose result went on another line ("test a ...",
// its output, then "ok"); false when the line is not that.
func (lt *libtestReader) takePending(raw []byte) bool {
	if lt.pending == "" {
		return false
	}
	v := bytes.TrimSpace(raw)
	if string(v) != "ok" && string(v) != "FAILED" && !bytes.HasPrefix(v, []byte("ignored")) {
		return false
	}
	lt.addResult(lt.pending, string(v))
	lt.pending = ""
	return true
}

func (lt *libtestReader) addResult(name, verdict string) {
	name = strings.TrimSuffix(name, " - should panic")
	name = docTestLine().ReplaceAllString(name, "")
	o := Pass
	switch {
	case verdict == "FAILED":
		o = Fail
	case strings.HasPrefix(verdict, "ignored"):
		o = Skip
	}
	lt.b.add(Test{Suite: lt.suite, Name: name, Outcome: o})
	lt.read++
}

func (lt *libtestReader) commitCrash() {
	if lt.crash != nil {
		lt.b.fail(lt.crash.Suite, lt.crash.Reason)
		lt.crash = nil
	}
}

// target reads a "Running" or "Doc-tests" line: a test target starts.
func (lt *libtestReader) target(line string) {
	lt.commitCrash()
	if lt.open {
		lt.b.fail(lt.suite, "the test binary ended before reporting every test")
	}
	lt.open, lt.stopped, lt.seen = false, false, true
	if m := cargoDocTests().FindStringSubmatch(line); m != nil {
		lt.suite = "Doc-tests " + m[1]
	} else {
		lt.suite = cargoSuite(cargoRunning().FindStringSubmatch(line)[1])
	}
}

func (lt *libtestReader) start(string) { lt.open, lt.read, lt.seen = true, 0, true }

func (lt *libtestReader) result(line string) {
	m := libtestResult().FindStringSubmatch(line)
	lt.addResult(m[1], m[2])
}

func (lt *libtestReader) opened(line string) {
	lt.pending = libtestOpen().FindStringSubmatch(line)[1]
}

func (lt *libtestReader) terseFailure(line string) bool {
	return libtestTerse().MatchString(line) && lt.open
}

func (lt *libtestReader) terse(line string) {
	lt.addResult(libtestTerse().FindStringSubmatch(line)[1], "FAILED")
}

// summary reads a target's "test result:" line, which checks the count of results read.
func (lt *libtestReader) summary(line string) {
	m := libtestSum().FindStringSubmatch(line)
	total := 0
	for _, n := range m[1:] {
		v, _ := strconv.Atoi(n)
		total += v
	}
	if lt.read < total {
		lt.b.incomplete(fmt.Sprintf("libtest's summary of %s counts %d tests, %d were named (terse output, as cargo test -q prints it, names only failures)",
			orWhole(lt.suite), total, lt.read))
	}
	lt.open = false
}

// noBuild reads cargo's "could not compile": the whole run fails.
func (lt *libtestReader) noBuild(line string) {
	lt.seen = true
	reason := strings.TrimPrefix(line, "error: ")
	if i := strings.Index(reason, " due to"); i > 0 {
		reason = reason[:i]
	}
	lt.b.fail("", reason)
}

func isTestFailedLine(_ *libtestReader, line string) bool {
	return strings.HasPrefix(line, "error: test failed, to rerun pass") || strings.HasPrefix(line, "error: doctest failed, to rerun pass")
}

// targetFailed reads cargo's word that a target failed: one still open ended early.
func (lt *libtestReader) targetFailed(string) {
	if lt.open {
		lt.crash = &Unit{Suite: lt.suite, Reason: "the test binary ended before reporting every test"}
		lt.open = false
	}
	lt.stopped = true
}

func (lt *libtestReader) crashReason(line string) bool {
	return lt.crash != nil && cargoCrash().MatchString(line)
}

func (lt *libtestReader) crashed(line string) {
	lt.crash.Reason = "the test binary ended before reporting every test (" + cargoCrash().FindStringSubmatch(line)[1] + ")"
}

func isTargetsFailedLine(_ *libtestReader, line string) bool {
	return strings.HasPrefix(line, "error: ") && strings.Contains(line, " failed:") && strings.Contains(line, "target")
}

func (lt *libtestReader) allFailed(string) { lt.finished = true }

// end judges the output as a whole once read (err, an error reading it).
func (lt *libtestReader) end(err error) {
	lt.commitCrash()
	switch {
	case err != nil:
		lt.b.incomplete("reading cargo test's output: " + err.Error())
	case !lt.seen:
		lt.b.incomplete("no cargo test output")
	case lt.open:
		lt.b.incomplete("the output ended inside " + orWhole(lt.suite))
	case lt.stopped && !lt.finished:
		lt.b.fail("", "cargo stopped at the first target that failed: the targets after it did not run (no --no-fail-fast)")
	}
}

// libtestMay is false for a line none of the patterns can match, decided without them: most
// lines of a test run are its tests' own output.
func libtestMay(line []byte) bool {
	trimmed := bytes.TrimLeft(line, " ")
	for _, p := range libtestStarts {
		if bytes.HasPrefix(trimmed, p) {
			return true
		}
	}
	return bytes.HasSuffix(line, []byte(" --- FAILED"))
}

var libtestStarts = [][]byte{[]byte("test "), []byte("running "), []byte("error"), []byte("Running "), []byte("Doc-tests "),
	[]byte("process didn't exit")}

// cargoSuite names a test target by its source ("src/lib.rs"); older cargo names only the
// binary, whose hash changes with every build.
func cargoSuite(s string) string {
	if strings.Contains(s, "/deps/") || strings.Contains(s, `\deps\`) {
		return cargoHash().ReplaceAllString(path.Base(strings.ReplaceAll(s, `\`, "/")), "")
	}
	return s
}

func orWhole(suite string) string {
	if suite == "" {
		return "the run"
	}
	return suite
}
