package census

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/gauntlet-dev/gauntlet/internal/boundedio"
)

// goEvent is the part of a test2json event (go test -json, gotestsum --jsonfile) a census reads.
// Output is read only from package-level events: a test's own output is never decoded.
type goEvent struct {
	Action      string
	Package     string
	Test        string
	ImportPath  string // build-output and build-fail events (Go 1.24 and later)
	FailedBuild string // on a package's fail event when its test binary did not build
}

// outputOfATest marks an event that is a test's output: in an event's raw bytes these appear
// only as its own fields, since a quote inside a string is escaped.
var outputOfATest = [2][]byte{[]byte(`"Action":"output"`), []byte(`"Test":"`)}

// goPackage is what is known of a package while its events stream.
type goPackage struct {
	running    map[string]bool // tests started and not ended
	failedTest bool
	summary    string // the test binary's last word before it exits: "PASS" or "FAIL"
	reason     string // a build or setup failure said in the package's output
	ended      bool
}

// ReadGo reads the events of go test -json. Each test and subtest is a test of its package;
// a package that fails with no failing test of its own (a build failure, TestMain exiting
// non-zero, a panic or timeout that ends the binary) is a failed unit, and a test that was
// running when its binary died is failed. Lines that are not events are passed over: the go
// command writes build errors as text before Go 1.24.
func ReadGo(r io.Reader, opts Options) Census {
	gr := &goReader{b: newBuilder("go", opts), pkgs: map[string]*goPackage{}}
	lr := boundedio.NewLineReader(r)
	for {
		line, ok := lr.Next()
		if !ok {
			break
		}
		gr.line(bytes.TrimSpace(line), lr.Long)
	}
	if lr.Err != nil {
		gr.b.incomplete("reading go test -json: " + lr.Err.Error())
	}
	gr.end()
	return gr.b.census()
}

// goReader is ReadGo's state between lines: the packages in the order they were first named.
type goReader struct {
	b      *builder
	pkgs   map[string]*goPackage
	order  []string
	events int
}

func (gr *goReader) pkg(name string) *goPackage {
	p := gr.pkgs[name]
	if p == nil {
		p = &goPackage{running: map[string]bool{}}
		gr.pkgs[name] = p
		gr.order = append(gr.order, name)
	}
	return p
}

// line reads one line, trimmed; long says it was cut.
func (gr *goReader) line(trimmed []byte, long bool) {
	switch {
	case len(trimmed) == 0 || trimmed[0] != '{':
		if name, why, ok := goTextFailure(string(trimmed)); ok {
			gr.pkg(name).reason = why
		}
	case long:
		gr.b.incomplete("a go test -json line longer than 64 KiB was cut")
	case bytes.Contains(trimmed, outputOfATest[0]) && bytes.Contains(trimmed, outputOfATest[1]):
		// a test's own output, most of the lines: nothing a census needs
	default:
		gr.eventLine(trimmed)
	}
}

// eventLine reads a line that should be an event.
func (gr *goReader) eventLine(raw []byte) {
	var e goEvent
	if err := json.Unmarshal(raw, &e); err != nil {
		if bytes.Contains(raw, []byte(`"Action"`)) {
			gr.b.incomplete("a go test -json event did not parse")
		}
		return
	}
	gr.events++
	switch {
	case e.Action == "build-fail" && e.ImportPath != "":
		// "example.com/x [example.com/x.test]": the package is the first word.
		name, _, _ := strings.Cut(e.ImportPath, " ")
		gr.pkg(name).reason = "build failed"
	case e.Package == "":
	case e.Test == "":
		goPackageEvent(gr.b, e, gr.pkg(e.Package), raw)
	default:
		gr.testEvent(e, gr.pkg(e.Package))
	}
}

// goOutcomes are the actions that end a test, by the outcome they give it.
var goOutcomes = sync.OnceValue(func() map[string]Outcome {
	return map[string]Outcome{"pass": Pass, "fail": Fail, "skip": Skip}
})

// testEvent reads an event of a test of package p.
func (gr *goReader) testEvent(e goEvent, p *goPackage) {
	if e.Action == "run" {
		if len(p.running) < gr.b.opts.MaxTests {
			p.running[e.Test] = true
		}
		return
	}
	o, ends := goOutcomes()[e.Action]
	if !ends {
		return
	}
	delete(p.running, e.Test)
	if o == Fail {
		p.failedTest = true
	}
	gr.b.add(Test{Suite: e.Package, Name: e.Test, Outcome: o})
}

// cutOff says whether the output ended while the package was still being tested: it did not
// end, and a test was running or nothing says why it stopped.
func (p *goPackage) cutOff() bool {
	return !p.ended && (len(p.running) > 0 || p.summary == "" && p.reason == "")
}

// end judges the packages that did not end, and the output as a whole.
func (gr *goReader) end() {
	for _, name := range gr.order {
		if p := gr.pkgs[name]; p.cutOff() {
			gr.b.incomplete(fmt.Sprintf("the output ended before %s finished", name))
		} else if !p.ended && p.reason != "" {
			// Before Go 1.24 a package that did not build may only be named in text.
			gr.b.fail(name, p.reason)
		}
	}
	if gr.events == 0 {
		gr.b.incomplete("no go test -json events in the output")
	}
}

func goPackageEvent(b *builder, e goEvent, p *goPackage, raw []byte) {
	switch e.Action {
	case "output":
		goPackageOutput(p, raw)
	case "pass", "skip":
		p.ended = true
	case "fail":
		p.ended = true
		goPackageFailed(b, e.Package, e.FailedBuild != "", p)
		clear(p.running)
	}
}

// goPackageOutput reads a line a package's test binary or the go command printed for it.
func goPackageOutput(p *goPackage, raw []byte) {
	var o struct{ Output string }
	if json.Unmarshal(raw, &o) != nil {
		return
	}
	switch out := strings.TrimRight(o.Output, "\n"); {
	case out == "PASS" || out == "FAIL":
		p.summary = out
	case strings.HasSuffix(out, "[build failed]"):
		p.reason = "build failed"
	case strings.HasSuffix(out, "[setup failed]"):
		p.reason = "setup failed"
	}
}

// goPackageFailed judges a package's fail event; failedBuild says the event named a build.
func goPackageFailed(b *builder, pkg string, failedBuild bool, p *goPackage) {
	// Tests still running when the binary ended were cut off by it: a panic in another
	// goroutine, a timeout, os.Exit.
	running := slices.Sorted(maps.Keys(p.running))
	for _, name := range running {
		b.add(Test{Suite: pkg, Name: name, Outcome: Fail})
	}
	switch {
	case failedBuild || p.reason == "build failed":
		b.fail(pkg, "build failed")
	case p.reason != "":
		b.fail(pkg, p.reason)
	case p.summary == "":
		b.fail(pkg, "the test binary ended before reporting every test (a panic, a timeout or os.Exit)")
	case !p.failedTest && len(running) == 0:
		b.fail(pkg, "the test binary failed after its tests passed (TestMain or os.Exit)")
	}
}

// goTextFailure recognises the go command's own line for a package that did not build or set
// up, as printed in text: "FAIL	example.com/x [build failed]".
func goTextFailure(line string) (pkg, why string, ok bool) {
	rest, found := strings.CutPrefix(line, "FAIL")
	if !found {
		return "", "", false
	}
	rest = strings.TrimSpace(rest)
	for _, w := range []string{"build failed", "setup failed"} {
		if name, ok := strings.CutSuffix(rest, " ["+w+"]"); ok && name != "" && !strings.ContainsAny(name, " \t") {
			return name, w, true
		}
	}
	return "", "", false
}
