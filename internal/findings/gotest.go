package findings

import (
	"bufio"
	"bytes"
	"io"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// go test prints failures as
//
//	--- FAIL: TestArgs (0.00s)
//	    args_test.go:95: got 1 args, want 2
//	        (a continuation, indented deeper)
//	FAIL
//	FAIL	example.com/m/sub	0.01s
//
// with -v the test's lines come before its --- FAIL, after === RUN (or === CONT / === NAME).
// Files are named relative to the package, which is only known at the package's last line, so a
// package's findings wait there (boundedly) to be put under its directory.
type goTestParser struct {
	emit    emitFunc
	module  string // module path of the gate's go.mod, "" when unknown
	modDir  string // the module's directory relative to the gate's dir ("", or ".." for a gate in a subdirectory)
	current string // test the indented lines belong to
	failing bool   // current has printed --- FAIL (without -v the lines come after it)
	last    *gates.Finding
	indent  int
	early   []gates.Finding // -v: lines of the running test, before it is known to fail
	pkg     []gates.Finding // findings of the package being tested
	// from is the package of the lines being read when the runner tells it (Origin); pkgOf holds
	// it for each of pkg, "" where it was not told.
	from     string
	lastFrom string // from when last's line was read: its message ends at another's line
	pkgOf    []string
	failed   []failedTest
	panic    string // the panic being traced, "" when none
	sumPkg   string // gotestsum: import path of the failures being read
}

type failedTest struct {
	name    string
	located bool
}

// maxPending bounds what waits for a package's end or a test's verdict.
const maxPending = 500

var (
	goTestRun    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^=== (?:RUN|CONT|NAME|PAUSE)\s+(\S+)`) })
	goTestResult = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s*)--- (FAIL|PASS|SKIP): (\S+)`) })
	goTestLoc    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s+)([^\s:]+\.go):(\d+): ?(.*)$`) })
	goTestPkg    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:FAIL|ok)\s+(\S+)(?:\s|$)`) })
	// gotestsum lists each failure as "=== FAIL: sub TestDiv (0.00s)", the package relative to
	// the module ("." for its root), followed by the test's output.
	goTestSumFail = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^=== FAIL: (\S+) (\S+)(?: \(|$)`) })
	// A panicking test names no line of its own; the first frame in a _test.go file of its stack
	// trace is where it panicked.
	goTestFrame = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s+(\S+_test\.go):(\d+)(?: \+0x[0-9a-f]+)?$`) })
)

func newGoTestParser(emit emitFunc, opts Options) parser {
	p := &goTestParser{emit: emit}
	p.module, p.modDir = findModule(opts.Root, opts.Dir)
	return p
}

// goTestSteps read a line of go test's output: each in turn, the first that takes the line
// deciding what it is.
var goTestSteps = []func(p *goTestParser, s string) bool{
	(*goTestParser).gotestsumLine,
	(*goTestParser).plainOutput,
	(*goTestParser).runLine,
	(*goTestParser).resultLine,
	(*goTestParser).locationLine,
	(*goTestParser).continuationLine,
	(*goTestParser).messageEnds,
	(*goTestParser).panicLine,
	(*goTestParser).frameLine,
	(*goTestParser).packageLine,
	(*goTestParser).buildLine,
}

func (p *goTestParser) line(s string) {
	for _, step := range goTestSteps {
		if step(p, s) {
			return
		}
	}
}

// gotestsumLine reads the start of a failure in gotestsum's summary.
func (p *goTestParser) gotestsumLine(s string) bool {
	m := goTestSumFail().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	p.endMessage()
	p.gotestsumFailure(m[1], m[2])
	return true
}

// plainOutput takes a line of the tests' own printing, most of a test run's output: none of it
// can be a finding, and a few prefix checks say so without running the regexps.
func (p *goTestParser) plainOutput(s string) bool {
	if p.mayMatter(s) {
		return false
	}
	p.endMessage()
	return true
}

// mayMatter says whether a line may be one of go test's own, or continue a message.
func (p *goTestParser) mayMatter(s string) bool {
	trimmed := strings.TrimLeft(s, " \t")
	for _, prefix := range []string{"=== ", "--- "} {
		if strings.HasPrefix(trimmed, prefix) {
			return true
		}
	}
	for _, prefix := range []string{"FAIL", "ok ", "panic: "} {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return strings.Contains(s, ".go:") || p.last != nil && trimmed != s
}

// runLine reads "=== RUN TestX" (or CONT, NAME, PAUSE): the lines after it are TestX's.
func (p *goTestParser) runLine(s string) bool {
	m := goTestRun().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	p.endMessage()
	p.current, p.failing = m[1], false
	return true
}

// resultLine reads a test's verdict, "--- FAIL: TestX (0.00s)".
func (p *goTestParser) resultLine(s string) bool {
	m := goTestResult().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	p.endMessage()
	p.result(m[2], m[3])
	return true
}

// locationLine reads "    x_test.go:12: message" of the current test: a message starts.
func (p *goTestParser) locationLine(s string) bool {
	m := goTestLoc().FindStringSubmatch(s)
	if m == nil || p.current == "" {
		return false
	}
	p.endMessage()
	f := gates.Finding{File: m[2], Line: atoi(m[3]), Severity: SeverityError, Message: m[4], Rule: p.current}
	p.last, p.indent, p.lastFrom = &f, len(m[1]), p.from
	return true
}

// continuationLine reads a line indented deeper than the message being read: more of it.
func (p *goTestParser) continuationLine(s string) bool {
	if p.last == nil || indentOf(s) <= p.indent || strings.TrimSpace(s) == "" {
		return false
	}
	if len(p.last.Message) < MaxMessageBytes {
		p.last.Message += "\n" + strings.TrimSpace(s)
	}
	return true
}

// messageEnds ends the message being read: no line the steps after it take continues one.
func (p *goTestParser) messageEnds(string) bool {
	p.endMessage()
	return false
}

// panicLine reads the panic of a failing test, whose location its stack trace gives.
func (p *goTestParser) panicLine(s string) bool {
	rest, ok := strings.CutPrefix(s, "panic: ")
	if !ok || !p.failing {
		return false
	}
	p.panic = "panic: " + rest
	return true
}

// frameLine reads a frame of a panic's stack trace in a _test.go file: where it panicked.
func (p *goTestParser) frameLine(s string) bool {
	m := goTestFrame().FindStringSubmatch(s)
	if m == nil || p.panic == "" {
		return false
	}
	p.keep(gates.Finding{File: m[1], Line: atoi(m[2]), Severity: SeverityError, Message: p.panic, Rule: p.current})
	p.panic = ""
	return true
}

// packageLine reads a package's last line, "FAIL example.com/m/sub 0.01s" or "ok ...". A
// package that passed has no failure to claim: the findings waiting are another package's,
// whose lines go test printed around it (packages run in parallel), and wait for its FAIL line.
func (p *goTestParser) packageLine(s string) bool {
	m := goTestPkg().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	if !strings.HasPrefix(s, "ok") {
		p.endPackage(m[1])
	}
	return true
}

// buildLine reads a build or vet failure of the package, relative to the working directory
// already.
func (p *goTestParser) buildLine(s string) bool {
	f, ok := parseGoLine(s)
	if !ok || indentOf(s) != 0 {
		return false
	}
	p.emit(f)
	return true
}

// gotestsumFailure starts one failure block of gotestsum's summary. The package's findings wait
// until the next package's block (or the end), so that a parent test listed after its located
// subtest is still recognised as covered by it.
func (p *goTestParser) gotestsumFailure(pkg, name string) {
	importPath := pkg
	switch {
	case pkg == ".":
		importPath = p.module
	case p.module != "" && !strings.Contains(strings.SplitN(pkg, "/", 2)[0], "."):
		importPath = p.module + "/" + pkg
	}
	if p.sumPkg != "" && importPath != p.sumPkg {
		p.endPackage(p.sumPkg)
	}
	p.sumPkg = importPath
	p.result("FAIL", name)
}

// result handles a test's verdict line.
func (p *goTestParser) result(verdict, name string) {
	switch verdict {
	case "FAIL":
		if len(p.failed) < maxPending {
			p.failed = append(p.failed, failedTest{name: name})
		}
		for _, f := range p.early {
			if f.Rule == name {
				p.keep(f)
			}
		}
		p.early = dropRule(p.early, name)
		p.current, p.failing = name, true
	default:
		p.early = dropRule(p.early, name)
		p.current, p.failing = "", false
	}
}

// endMessage files the finding whose message was being read.
func (p *goTestParser) endMessage() {
	if p.last == nil {
		return
	}
	f := *p.last
	p.last = nil
	if p.failing && f.Rule == p.current {
		p.keepFrom(f, p.lastFrom)
	} else if len(p.early) < maxPending {
		p.early = append(p.early, f)
	}
}

func (p *goTestParser) keep(f gates.Finding) { p.keepFrom(f, p.from) }

// keepFrom keeps f, read from a line of the package from ("" when the runner did not say).
func (p *goTestParser) keepFrom(f gates.Finding, from string) {
	for i := range p.failed {
		if p.failed[i].name == f.Rule || strings.HasPrefix(f.Rule, p.failed[i].name+"/") {
			p.failed[i].located = true
		}
	}
	if len(p.pkg) < maxPending {
		p.pkg = append(p.pkg, f)
		p.pkgOf = append(p.pkgOf, from)
	}
}

// origin is told the import path of the package whose lines come next.
func (p *goTestParser) origin(importPath string) { p.from = importPath }

// endPackage puts the package's findings under its directory and emits them, then one finding
// per failing test that printed no location (a panic, a timeout), naming the test.
func (p *goTestParser) endPackage(importPath string) {
	dir := p.packageDir(importPath)
	for i, f := range p.pkg {
		if !path.IsAbs(f.File) && !strings.Contains(f.File, "/") {
			d := dir
			if from := p.pkgOf[i]; from != "" {
				d = p.packageDir(from) // the package the runner said the line was of
			}
			f.File = path.Join(p.modDir, d, f.File)
		}
		p.emit(f)
	}
	for _, t := range p.failed {
		if t.located || p.hasLocatedSubtest(t.name) {
			continue
		}
		p.emit(gates.Finding{Severity: SeverityError, Message: "--- FAIL: " + t.name, Rule: t.name})
	}
	p.pkg, p.pkgOf, p.failed, p.early = p.pkg[:0], p.pkgOf[:0], p.failed[:0], p.early[:0]
	p.current, p.failing, p.panic = "", false, ""
}

// packageDir is a package's directory relative to its module's; "" for one outside the module.
func (p *goTestParser) packageDir(importPath string) string {
	if p.module == "" || importPath != p.module && !strings.HasPrefix(importPath, p.module+"/") {
		return ""
	}
	return strings.TrimPrefix(strings.TrimPrefix(importPath, p.module), "/")
}

func (p *goTestParser) hasLocatedSubtest(name string) bool {
	for _, t := range p.failed {
		if t.located && strings.HasPrefix(t.name, name+"/") {
			return true
		}
	}
	return false
}

func (p *goTestParser) flush() {
	p.endMessage()
	if len(p.pkg) > 0 || len(p.failed) > 0 {
		p.endPackage(p.sumPkg)
	}
}

func dropRule(fs []gates.Finding, rule string) []gates.Finding {
	out := fs[:0]
	for _, f := range fs {
		if f.Rule != rule {
			out = append(out, f)
		}
	}
	return out
}

func indentOf(s string) int {
	return len(s) - len(strings.TrimLeft(s, " \t"))
}

// findModule finds the go.mod that governs the gate's dir, looking up to the project root: its
// module path, and its directory relative to the gate's dir. Package paths are relative to it.
func findModule(root, dir string) (module, modDir string) {
	rel := filepath.ToSlash(filepath.Clean(dir))
	if rel == "." {
		rel = ""
	}
	up := ""
	for {
		if m := modulePath(filepath.Join(root, filepath.FromSlash(rel))); m != "" {
			return m, up
		}
		if rel == "" {
			return "", ""
		}
		rel = path.Dir(rel)
		if rel == "." {
			rel = ""
		}
		up = path.Join(up, "..")
	}
}

// modulePath reads the module line of dir's go.mod, boundedly; "" when there is none.
//
// It runs as a gate starts, before any deadline of the gate's: a go.mod planted as a FIFO, or one
// whose read blocks, must not hold the run up, so it is opened without blocking, refused unless
// it is a regular file, and read for a second at most.
func modulePath(dir string) string {
	deadline := time.Now().Add(time.Second)
	f, _, err := safefile.Open(filepath.Join(dir, "go.mod"), deadline)
	if err != nil {
		return ""
	}
	defer f.Close()
	data, err := safefile.ReadAll(io.LimitReader(f, 64<<10), 64<<10, deadline)
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}
