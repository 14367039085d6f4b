package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/internal/census"
	"github.com/gauntlet-dev/gauntlet/runner"
)

const (
	// maxEventLine bounds the line the go events filter holds to decode: test2json cuts a
	// test's output into pieces far shorter, so a longer line is no event and passes as the
	// text it is.
	maxEventLine = 64 << 10
	// maxHeldPerUnit and maxHeldInAll bound what the filter holds until a test (or, with
	// packages named, a package) ends: the last bytes of each, a line saying what was dropped.
	maxHeldPerUnit = 256 << 10
	maxHeldInAll   = 4 << 20
	// maxTrackedTests bounds the tests followed at once (parallel subtests all wait at once);
	// one beyond is shown as a test that passed, save its --- FAIL line and its own prints.
	maxTrackedTests = 10_000
	heldChunk       = 4 << 10
)

// goEventsFilter stands between a `go test -json` the census asked for and the gate's capture:
// the census gets the events as they came (raw), and everything that shows the output (the log,
// the tail, the findings and causes readers, the live view) gets what the command prints
// without -json, rebuilt from the events as go test itself builds it (show says which form):
//
//   - a test's log (t.Log, t.Error: its lines indented by four spaces) is held until its --- line
//     comes: under the --- FAIL line of a test that fails, nested in its parent's as go test
//     nests them; dropped, with its === RUN and --- PASS lines, for a test that passes or is
//     skipped, or whose test binary died with it (a timeout, os.Exit), as go test loses it;
//   - what a test prints itself (fmt.Print, a panic, the race detector) and the package's own
//     lines (build errors, ok and FAIL) show as they come; with packages named, go test shows a
//     package's output only once it fails, and of a package that passes only its ok line: those
//     are held until the package is known to fail or has ended, and go test's last FAIL line,
//     which -json leaves out, ends the output;
//   - with -v, every line, and the === NAME lines go test -v prints, which test2json leaves out;
//   - with -json in GOFLAGS, the events as they are.
//
// A line that is not an event (the go command's own messages, a line of another command in the
// gate) is shown as it is.
type goEventsFilter struct {
	out  io.Writer
	raw  io.Writer
	show census.GoShow
	line []byte // the start of a line whose newline has not come yet
	// passing: the current line outgrew maxEventLine and goes out as it comes, up to its newline.
	passing bool

	pkgs    map[string]*goPackage
	tracked int  // tests followed, in all packages
	held    int  // bytes held, in all packages and tests
	failed  bool // a package failed: go test ends with FAIL

	// origins, when the output takes them, is told the package of each line written (see
	// runner.OriginWriter); origin is the one it was told last.
	origins runner.OriginWriter
	origin  string
}

// goPackage is a package whose test binary is running.
type goPackage struct {
	name  string
	tests map[string]*goTest
	// holding: with packages named, its output waits until it fails (held) or passes (then only
	// its ok line shows).
	holding bool
	held    heldText
	ok      string
	midLine bool // its last output had no newline
	// lastName is the test go test -v's printer last named, for its === NAME lines.
	lastName string
}

// goTest is a test that runs, followed from its run event to its end.
type goTest struct {
	name   string
	parent *goTest
	// held is what go test prints under the test's --- FAIL line: its log and its failed
	// subtests' reports.
	held     heldText
	reported bool // its --- line came
	ended    bool
	bench    bool
	inLog    bool     // its last line was a log line, which a line indented by eight continues
	mid      lineKind // the kind of its line whose newline is still to come
}

type lineKind int

const (
	lineStart  lineKind = iota // no line is open
	lineFrame                  // === RUN, === PAUSE, ...
	lineLog                    // the test's log
	lineReport                 // its --- PASS, --- FAIL or --- SKIP line
	lineDirect                 // what it printed itself
)

func newGoEventsFilter(out, raw io.Writer, show census.GoShow) *goEventsFilter {
	f := &goEventsFilter{out: out, raw: raw, show: show, pkgs: map[string]*goPackage{}}
	f.origins, _ = out.(runner.OriginWriter)
	return f
}

// emit writes s, output of the package named pkg ("" for a line of no package), telling the
// output whose lines they are: the findings of a test are of its package, wherever another
// package's lines fall between them.
func (f *goEventsFilter) emit(pkg, s string) {
	f.from(pkg)
	io.WriteString(f.out, s)
}

// from says that what is written next is of the package named pkg.
func (f *goEventsFilter) from(pkg string) {
	if f.origins != nil && pkg != f.origin {
		f.origin = pkg
		f.origins.SetOrigin(pkg)
	}
}

// Write never fails: the process's pipe must be drained whatever happens to its output.
func (f *goEventsFilter) Write(p []byte) (int, error) {
	n := len(p)
	f.raw.Write(p)
	if f.show.JSON {
		f.from("")
		f.out.Write(p)
		return n, nil
	}
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i+1]
		}
		p = p[len(chunk):]
		f.take(chunk, i >= 0)
	}
	return n, nil
}

// take handles a piece of one line; ends says it holds the line's newline.
func (f *goEventsFilter) take(chunk []byte, ends bool) {
	switch {
	case f.passing:
		f.from("")
		f.out.Write(chunk)
		f.passing = !ends
	case len(f.line)+len(chunk) > maxEventLine:
		f.from("")
		f.out.Write(f.line)
		f.out.Write(chunk)
		f.line = f.line[:0]
		f.passing = !ends
	case !ends:
		f.line = append(f.line, chunk...)
	case len(f.line) == 0:
		f.showLine(chunk) // the whole line in one piece: no copy
	default:
		f.line = append(f.line, chunk...)
		f.showLine(f.line)
		f.line = f.line[:0]
	}
}

// goEventLine is the part of a test2json event the filter reads.
type goEventLine struct {
	Action  string
	Package string
	Test    string
	Output  *string
}

// showLine shows what a line means to the user: an event's part of the output, or the line itself.
func (f *goEventsFilter) showLine(line []byte) {
	if body := bytes.TrimRight(line, "\r\n"); len(body) > 0 && body[0] == '{' {
		var e goEventLine
		if json.Unmarshal(body, &e) == nil && e.Action != "" {
			f.event(e)
			return
		}
	}
	f.from("")
	f.out.Write(line)
}

func (f *goEventsFilter) event(e goEventLine) {
	if e.Package == "" { // build-output, and events of no package
		if e.Output != nil {
			f.emit("", *e.Output)
		}
		return
	}
	p := f.pkg(e.Package)
	t := p.tests[e.Test]
	switch e.Action {
	case "output":
		if e.Output != nil {
			f.output(p, t, e.Test, *e.Output)
		}
	case "run":
		if e.Test != "" && t == nil && f.tracked < maxTrackedTests {
			f.tracked++
			p.tests[e.Test] = &goTest{name: e.Test, parent: p.parentOf(e.Test), bench: strings.HasPrefix(e.Test, "Benchmark")}
		}
	case "pass", "fail", "skip":
		f.end(p, t, e.Test, e.Action == "fail")
	}
}

// pkg is the package named, from its first event on.
func (f *goEventsFilter) pkg(name string) *goPackage {
	p := f.pkgs[name]
	if p == nil {
		p = &goPackage{name: name, tests: map[string]*goTest{}, holding: !f.show.Streams && !f.show.Verbose}
		f.pkgs[name] = p
	}
	return p
}

// output takes a piece of output of the package, of its test t (nil when it is not tracked)
// named test, or of the package itself (test "").
func (f *goEventsFilter) output(p *goPackage, t *goTest, test, s string) {
	switch {
	case test == "":
		if f.show.HideCoverage && !p.midLine {
			if s = withoutCoverage(p.name, s); s == "" {
				return
			}
		}
		f.print(p, s)
	case t != nil:
		f.testOutput(p, t, s)
	default:
		f.untrackedOutput(p, s)
	}
}

// withoutCoverage is a line of a package's own output as go test prints it without the
// -coverprofile gauntlet added: no "coverage: 50.0% of statements" line (""), none at the end of
// its ok line, and a package without tests said to have none, as go test says it without the
// flag (with it, go test reports such a package's coverage).
func withoutCoverage(pkg, s string) string {
	line, ok := strings.CutSuffix(s, "\n")
	switch {
	case !ok:
		return s
	case strings.HasPrefix(line, "coverage: "):
		return ""
	case strings.HasPrefix(line, "ok  \t"):
		if i := strings.Index(line, "\tcoverage: "); i > 0 {
			return line[:i] + "\n"
		}
	case strings.HasPrefix(line, "\t"+pkg+"\t\tcoverage: "):
		return "?   \t" + pkg + "\t[no test files]\n"
	}
	return s
}

// end takes the end of the package (test "") or of its tracked test t.
func (f *goEventsFilter) end(p *goPackage, t *goTest, test string, failed bool) {
	switch {
	case test == "":
		f.packageEnd(p, failed)
	case t != nil:
		f.testEnd(p, t, failed)
	}
}

// parentOf is the running test a subtest runs under, nil for a top-level test.
func (p *goPackage) parentOf(name string) *goTest {
	for i := strings.LastIndexByte(name, '/'); i > 0; i = strings.LastIndexByte(name[:i], '/') {
		if t := p.tests[name[:i]]; t != nil {
			return t
		}
	}
	return nil
}

// testOutput takes a piece of a test's output: test2json gives each line in one piece, or a
// long one in several, the first of which says what the line is.
func (f *goEventsFilter) testOutput(p *goPackage, t *goTest, s string) {
	whole := strings.HasSuffix(s, "\n")
	kind := t.kindOf(s, whole)
	if f.show.Verbose {
		f.verbose(p, t.name, kind, s)
		return
	}
	switch kind {
	case lineFrame:
	case lineReport:
		f.report(p, t, s)
	case lineLog:
		f.hold(&t.held, s)
	default:
		f.print(p, s)
		if t.bench && t.held.size > 0 && whole && strings.HasPrefix(s, t.name) {
			// A benchmark's result: go test prints its log after it, under --- BENCH.
			name, _, _ := strings.Cut(s, "\t")
			f.print(p, "--- BENCH: "+strings.TrimSpace(name)+"\n"+f.emptied(&t.held, t.name, ""))
		}
	}
}

// kindOf says what the piece s of t's output is: a piece that starts a line is classified
// (a whole one again when it turns out to be a frame or a report), and one that continues a line
// is of that line's kind.
func (t *goTest) kindOf(s string, whole bool) lineKind {
	kind := t.mid
	if k := classify(t.name, t.inLog, t.reported, t.bench, s); kind == lineStart || (whole && (k == lineFrame || k == lineReport)) {
		kind = k
		t.inLog = kind == lineLog
	}
	t.mid = lineStart
	if !whole {
		t.mid = kind
	}
	return kind
}

// classify says what a line of a test's output is, from its start.
func classify(name string, inLog, reported, bench bool, s string) lineKind {
	switch {
	case isFrame(s):
		return lineFrame
	case !reported && reportOf(s, name) != "":
		return lineReport
	case bench && strings.TrimRight(s, "\r\n") == name:
		return lineFrame // -json's -v prints a benchmark's name on a line of its own
	case reported:
		return lineDirect
	case logStart(s) || inLog && strings.HasPrefix(s, "        "):
		return lineLog
	}
	return lineDirect
}

// verbose shows a line of a test's output as go test -v prints it: as it is, after the === NAME
// line go test -v prints before a test's log when another test printed last, which test2json
// leaves out.
func (f *goEventsFilter) verbose(p *goPackage, name string, kind lineKind, s string) {
	switch {
	case kind == lineFrame && isFrame(s):
		p.lastName = name
	case kind == lineReport && !strings.HasPrefix(s, " "):
		p.lastName = name // a subtest's, indented, comes with its parent's
	case kind == lineLog:
		if p.lastName != "" && p.lastName != name {
			f.print(p, "=== NAME  "+name+"\n")
		}
		p.lastName = name
	}
	f.print(p, s)
}

// goFrames start the lines go test -v prints as a test runs, waits, resumes, and says an
// attribute or its artifacts (test2json's list).
var goFrames = []string{"=== RUN   ", "=== PAUSE ", "=== CONT  ", "=== NAME  ", "=== PASS  ", "=== FAIL  ",
	"=== SKIP  ", "=== ATTR  ", "=== ARTIFACTS "}

func isFrame(s string) bool {
	return strings.HasPrefix(s, "=== ") && slices.ContainsFunc(goFrames, func(f string) bool { return strings.HasPrefix(s, f) })
}

// logStart says a line starts an entry of a test's log: go test indents it by four spaces
// (t.Log's file:line:, t.Output's text), and its further lines by eight.
func logStart(s string) bool {
	rest, ok := strings.CutPrefix(s, "    ")
	return ok && rest != "" && rest[0] != ' ' && rest[0] != '\t' && rest[0] != '\n' && rest[0] != '\r'
}

// reportOf is the outcome a test's --- line reports ("PASS", "FAIL", "SKIP"), "" when s is
// no such line of that test; go test -v indents a subtest's.
func reportOf(s, name string) string {
	rest, ok := strings.CutPrefix(strings.TrimLeft(s, " "), "--- ")
	if !ok {
		return ""
	}
	outcome, rest, _ := strings.Cut(rest, ": ")
	if outcome != "PASS" && outcome != "FAIL" && outcome != "SKIP" {
		return ""
	}
	if rest, ok = strings.CutPrefix(rest, name); !ok {
		return ""
	}
	if strings.HasPrefix(rest, " (") || strings.TrimRight(rest, "\r\n") == "" {
		return outcome
	}
	return ""
}

// report takes a test's --- line. Of a test that fails, go test prints it, then what the test
// held: in its parent's report (a subtest), or as the package's output (a top-level test); of
// one that passes or is skipped, nothing.
func (f *goEventsFilter) report(p *goPackage, t *goTest, line string) {
	t.reported = true
	if reportOf(line, t.name) != "FAIL" {
		f.release(&t.held)
		return
	}
	trimmed := strings.TrimLeft(line, " ")
	f.place(p, t, line[:len(line)-len(trimmed)], trimmed+f.emptied(&t.held, t.name, "    "))
}

// place puts a failed test's report where go test prints it: in its parent's, or in the
// package's output, indented as its --- line was (a Go that prints a subtest's after its
// parent's).
func (f *goEventsFilter) place(p *goPackage, t *goTest, indent, text string) {
	if parent := t.parent; parent != nil && !parent.ended && !parent.reported {
		f.hold(&parent.held, indented(text, "    "))
		return
	}
	f.failing(p)
	f.print(p, indented(text, indent))
}

// testEnd takes a test's end: a failure without a --- line is reported with what it held.
func (f *goEventsFilter) testEnd(p *goPackage, t *goTest, failed bool) {
	if failed && !t.reported && !f.show.Verbose {
		t.reported = true
		f.place(p, t, "", f.emptied(&t.held, t.name, "    "))
	}
	f.forget(p, t)
}

func (f *goEventsFilter) forget(p *goPackage, t *goTest) {
	f.release(&t.held)
	t.ended = true
	delete(p.tests, t.name)
	f.tracked--
}

// untrackedOutput shows a line of a test the filter does not follow as a passing test's, save
// a --- FAIL line and what it printed itself.
func (f *goEventsFilter) untrackedOutput(p *goPackage, s string) {
	if f.show.Verbose {
		f.print(p, s)
		return
	}
	trimmed := strings.TrimLeft(s, " ")
	switch {
	case isFrame(s), logStart(s), strings.HasPrefix(s, "        "),
		strings.HasPrefix(trimmed, "--- PASS: "), strings.HasPrefix(trimmed, "--- SKIP: "):
		return
	case strings.HasPrefix(trimmed, "--- FAIL: "):
		f.failing(p)
	}
	f.print(p, s)
}

// print shows a piece of a package's output, or holds it while the package may still pass.
func (f *goEventsFilter) print(p *goPackage, s string) {
	start := !p.midLine
	p.midLine = !strings.HasSuffix(s, "\n")
	switch {
	case !p.holding:
		f.emit(p.name, s)
	case start && !p.midLine && strings.HasPrefix(s, "ok  \t"):
		p.ok = s // the go command's verdict: it is all a passing package shows
	default:
		f.hold(&p.held, s)
	}
}

// failing says a package fails: what it held shows, and the rest as it comes.
func (f *goEventsFilter) failing(p *goPackage) {
	if !p.holding {
		return
	}
	p.holding = false
	f.emit(p.name, f.emptied(&p.held, p.name, ""))
}

// packageEnd takes the end of a package's test binary. Tests still running died with it: go test
// lost their logs.
func (f *goEventsFilter) packageEnd(p *goPackage, failed bool) {
	for _, t := range p.tests {
		f.forget(p, t)
	}
	if failed {
		f.failed = true
	}
	if p.holding {
		if failed || p.ok == "" {
			f.emit(p.name, f.emptied(&p.held, p.name, ""))
		}
		f.release(&p.held)
		f.emit(p.name, p.ok)
	}
	delete(f.pkgs, p.name)
}

// Close shows a last line that had no newline, what packages that did not end held, and go
// test's last FAIL line.
func (f *goEventsFilter) Close() error {
	if len(f.line) > 0 {
		f.showLine(f.line)
	}
	f.line = nil
	names := make([]string, 0, len(f.pkgs))
	for name := range f.pkgs {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		f.packageEnd(f.pkgs[name], false)
	}
	if f.failed && f.show.FinalFail {
		f.emit("", "FAIL\n")
	}
	f.failed = false
	return nil
}

// heldBytes is how many bytes the filter keeps between writes: the line it decodes, and what it
// holds of tests and packages.
func (f *goEventsFilter) heldBytes() int { return cap(f.line) + f.held }

// heldText is text held until go test would print it, in chunks so that its oldest bytes go
// cheaply; dropped counts the bytes that went.
type heldText struct {
	chunks  [][]byte
	size    int
	dropped int
	midLine bool // what is kept starts in the middle of a line
}

// hold adds s to h, within the bounds: the oldest bytes of h, then of s, go first.
func (f *goEventsFilter) hold(h *heldText, s string) {
	over := max(h.size+len(s)-maxHeldPerUnit, f.held+len(s)-maxHeldInAll)
	if over > 0 {
		d := min(over, h.size)
		h.dropFront(d)
		f.held -= d
		if over -= d; over > 0 {
			h.dropped += over
			h.midLine = s[over-1] != '\n'
			s = s[over:]
		}
	}
	for len(s) > 0 {
		if n := len(h.chunks); n > 0 && len(h.chunks[n-1]) < cap(h.chunks[n-1]) {
			last := h.chunks[n-1]
			k := min(len(s), cap(last)-len(last))
			h.chunks[n-1] = append(last, s[:k]...)
			s, h.size, f.held = s[k:], h.size+k, f.held+k
			continue
		}
		h.chunks = append(h.chunks, make([]byte, 0, min(heldChunk, max(len(s), 256))))
	}
}

func (h *heldText) dropFront(n int) {
	h.dropped += n
	h.size -= n
	for n > 0 {
		c := h.chunks[0]
		if len(c) > n {
			h.midLine = c[n-1] != '\n'
			h.chunks[0] = c[n:]
			return
		}
		h.midLine = c[len(c)-1] != '\n'
		n -= len(c)
		h.chunks[0] = nil
		h.chunks = h.chunks[1:]
	}
}

func (f *goEventsFilter) release(h *heldText) {
	f.held -= h.size
	*h = heldText{}
}

// take1 empties h into the text go test prints: what it held, after a line (indented by indent)
// saying what was dropped, from the first whole line kept.
func (f *goEventsFilter) emptied(h *heldText, name, indent string) string {
	if h.size == 0 && h.dropped == 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(h.size + 128)
	for _, c := range h.chunks {
		b.Write(c)
	}
	text, dropped, midLine := b.String(), h.dropped, h.midLine
	f.release(h)
	if dropped == 0 {
		return text
	}
	if midLine {
		i := strings.IndexByte(text, '\n') + 1 // the rest of a line whose start was dropped
		dropped += i
		text = text[i:]
	}
	return fmt.Sprintf("%s[gauntlet dropped %d bytes of %s's output here: it keeps the last %d KiB of each test until it ends]\n%s",
		indent, dropped, name, maxHeldPerUnit>>10, text)
}

// indented is s with each line indented.
func indented(s, indent string) string {
	if indent == "" {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/16)
	for s != "" {
		line := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line = s[:i+1]
		}
		b.WriteString(indent)
		b.WriteString(line)
		s = s[len(line):]
	}
	return b.String()
}
