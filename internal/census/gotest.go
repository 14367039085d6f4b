package census

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

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
	b := newBuilder("go", opts)
	pkgs := map[string]*goPackage{}
	var order []string
	pkg := func(name string) *goPackage {
		p := pkgs[name]
		if p == nil {
			p = &goPackage{running: map[string]bool{}}
			pkgs[name] = p
			order = append(order, name)
		}
		return p
	}
	events := 0
	lr := boundedio.NewLineReader(r)
	for {
		line, ok := lr.Next()
		if !ok {
			break
		}
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) == 0 || trimmed[0] != '{' {
			if name, why, ok := goTextFailure(string(trimmed)); ok {
				pkg(name).reason = why
			}
			continue
		}
		if lr.Long {
			b.incomplete("a go test -json line longer than 64 KiB was cut")
			continue
		}
		if bytes.Contains(trimmed, outputOfATest[0]) && bytes.Contains(trimmed, outputOfATest[1]) {
			continue // a test's own output, most of the lines: nothing a census needs
		}
		var e goEvent
		if err := json.Unmarshal(trimmed, &e); err != nil {
			if bytes.Contains(trimmed, []byte(`"Action"`)) {
				b.incomplete("a go test -json event did not parse")
			}
			continue
		}
		events++
		if e.Action == "build-fail" && e.ImportPath != "" {
			// "example.com/x [example.com/x.test]": the package is the first word.
			name, _, _ := strings.Cut(e.ImportPath, " ")
			pkg(name).reason = "build failed"
			continue
		}
		if e.Package == "" {
			continue
		}
		p := pkg(e.Package)
		if e.Test == "" {
			goPackageEvent(b, e, p, trimmed)
			continue
		}
		switch e.Action {
		case "run":
			if len(p.running) < b.opts.MaxTests {
				p.running[e.Test] = true
			}
		case "pass", "fail", "skip":
			delete(p.running, e.Test)
			o := map[string]Outcome{"pass": Pass, "fail": Fail, "skip": Skip}[e.Action]
			if o == Fail {
				p.failedTest = true
			}
			b.add(Test{Suite: e.Package, Name: e.Test, Outcome: o})
		}
	}
	if lr.Err != nil {
		b.incomplete("reading go test -json: " + lr.Err.Error())
	}
	for _, name := range order {
		if p := pkgs[name]; !p.ended && (len(p.running) > 0 || p.summary == "" && p.reason == "") {
			b.incomplete(fmt.Sprintf("the output ended before %s finished", name))
		} else if !p.ended && p.reason != "" {
			// Before Go 1.24 a package that did not build may only be named in text.
			b.fail(name, p.reason)
		}
	}
	if events == 0 {
		b.incomplete("no go test -json events in the output")
	}
	return b.census()
}

func goPackageEvent(b *builder, e goEvent, p *goPackage, raw []byte) {
	switch e.Action {
	case "output":
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
	case "pass", "skip":
		p.ended = true
	case "fail":
		p.ended = true
		// Tests still running when the binary ended were cut off by it: a panic in another
		// goroutine, a timeout, os.Exit.
		running := make([]string, 0, len(p.running))
		for name := range p.running {
			running = append(running, name)
		}
		slices.Sort(running)
		for _, name := range running {
			b.add(Test{Suite: e.Package, Name: name, Outcome: Fail})
		}
		switch {
		case e.FailedBuild != "" || p.reason == "build failed":
			b.fail(e.Package, "build failed")
		case p.reason != "":
			b.fail(e.Package, p.reason)
		case p.summary == "":
			b.fail(e.Package, "the test binary ended before reporting every test (a panic, a timeout or os.Exit)")
		case !p.failedTest && len(running) == 0:
			b.fail(e.Package, "the test binary failed after its tests passed (TestMain or os.Exit)")
		}
		clear(p.running)
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
