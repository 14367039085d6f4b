package census

import (
	"bytes"
	"fmt"
	"io"
	"path"
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
	b := newBuilder("libtest", opts)
	var (
		suite    string
		open     bool // "running N tests" seen, its summary not yet
		read     int  // results read in the open target
		pending  string
		crash    *Unit // a target that ended before its summary, its reason still to be read
		stopped  bool  // cargo said a target failed: without --no-fail-fast it stops there
		finished bool  // cargo's "error: N targets failed" after running them all
		seen     bool
	)
	commitCrash := func() {
		if crash != nil {
			b.fail(crash.Suite, crash.Reason)
			crash = nil
		}
	}
	result := func(name, verdict string) {
		name = strings.TrimSuffix(name, " - should panic")
		name = docTestLine().ReplaceAllString(name, "")
		o := Pass
		switch {
		case verdict == "FAILED":
			o = Fail
		case strings.HasPrefix(verdict, "ignored"):
			o = Skip
		}
		b.add(Test{Suite: suite, Name: name, Outcome: o})
		read++
	}
	lr := boundedio.NewLineReader(r)
	for {
		raw, ok := lr.Next()
		if !ok {
			break
		}
		raw = bytes.TrimRight(raw, " \t")
		if pending != "" {
			switch v := bytes.TrimSpace(raw); {
			case string(v) == "ok" || string(v) == "FAILED" || bytes.HasPrefix(v, []byte("ignored")):
				result(pending, string(v))
				pending = ""
				continue
			}
		}
		if !libtestMay(raw) {
			continue
		}
		line := string(raw)
		switch {
		case cargoRunning().MatchString(line) || cargoDocTests().MatchString(line):
			commitCrash()
			if open {
				b.fail(suite, "the test binary ended before reporting every test")
			}
			open, stopped, seen = false, false, true
			if m := cargoDocTests().FindStringSubmatch(line); m != nil {
				suite = "Doc-tests " + m[1]
			} else {
				suite = cargoSuite(cargoRunning().FindStringSubmatch(line)[1])
			}
		case libtestStart().MatchString(line):
			open, read, seen = true, 0, true
		case libtestResult().MatchString(line):
			m := libtestResult().FindStringSubmatch(line)
			result(m[1], m[2])
		case libtestOpen().MatchString(line):
			pending = libtestOpen().FindStringSubmatch(line)[1]
		case libtestTerse().MatchString(line) && open:
			result(libtestTerse().FindStringSubmatch(line)[1], "FAILED")
		case libtestSum().MatchString(line):
			m := libtestSum().FindStringSubmatch(line)
			total := 0
			for _, n := range m[1:] {
				v, _ := strconv.Atoi(n)
				total += v
			}
			if read < total {
				b.incomplete(fmt.Sprintf("libtest's summary of %s counts %d tests, %d were named (terse output, as cargo test -q prints it, names only failures)",
					orWhole(suite), total, read))
			}
			open = false
		case cargoNoBuild().MatchString(line):
			seen = true
			reason := strings.TrimPrefix(line, "error: ")
			if i := strings.Index(reason, " due to"); i > 0 {
				reason = reason[:i]
			}
			b.fail("", reason)
		case strings.HasPrefix(line, "error: test failed, to rerun pass") || strings.HasPrefix(line, "error: doctest failed, to rerun pass"):
			if open {
				crash = &Unit{Suite: suite, Reason: "the test binary ended before reporting every test"}
				open = false
			}
			stopped = true
		case crash != nil && cargoCrash().MatchString(line):
			crash.Reason = "the test binary ended before reporting every test (" + cargoCrash().FindStringSubmatch(line)[1] + ")"
		case strings.HasPrefix(line, "error: ") && strings.Contains(line, " failed:") && strings.Contains(line, "target"):
			finished = true
		}
	}
	commitCrash()
	switch {
	case lr.Err != nil:
		b.incomplete("reading cargo test's output: " + lr.Err.Error())
	case !seen:
		b.incomplete("no cargo test output")
	case open:
		b.incomplete("the output ended inside " + orWhole(suite))
	case stopped && !finished:
		b.fail("", "cargo stopped at the first target that failed: the targets after it did not run (no --no-fail-fast)")
	}
	return b.census()
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
