package engine

import (
	"runtime"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/census"
	"github.com/gauntlet-dev/gauntlet/internal/oscmd"
)

// CensusPlan says how a gate's tests are counted (docs/census.md): read from the JUnit reports
// its tests: names, asked of the test runners its command runs, or not at all, and why.
type CensusPlan struct {
	// TestGate: the command runs a test runner gauntlet recognises, the gate names its reports
	// in tests:, or its name says it tests (test, tests, *-test).
	TestGate bool
	// Tests is the gate's tests: glob; the command then runs as declared.
	Tests string
	// Requests are what the runners in the command are asked for (census.Detect), to be put in
	// the command with census.Apply; none when the census comes from Tests or cannot be read.
	Requests []census.Request
	// Uncounted says why a test gate's tests cannot be counted; "" when they can.
	Uncounted string
}

// Counted says whether a census is read for the gate.
func (p CensusPlan) Counted() bool { return p.Tests != "" || len(p.Requests) > 0 }

// UncountedFix is what to do about a test gate whose tests cannot be counted.
const UncountedFix = "name the JUnit XML report it writes in `tests: PATH`, or run a test runner gauntlet recognises " +
	"(go test, gotestsum, pytest, node --test, vitest, jest, cargo test) in its command"

// PlanCensus decides how a gate's tests are counted. It reads only the gate, so that doctor says
// of a gate what a run does with it.
func PlanCensus(g gates.Gate) CensusPlan {
	if !isCheck(g) || g.Setup || g.Tests == gates.Off {
		return CensusPlan{}
	}
	if g.Tests != "" {
		return CensusPlan{TestGate: true, Tests: g.Tests}
	}
	reqs := census.Detect(commandOf(g))
	plan := CensusPlan{TestGate: len(reqs) > 0 || testName(g.Name) || g.Coverage != ""}
	if !plan.TestGate {
		return plan
	}
	if why := uncountable(g, reqs); why != "" {
		plan.Uncounted = why
		return plan
	}
	plan.Requests = reqs
	return plan
}

// testName says a gate's name is a test gate's: test, tests, or ending in -test.
func testName(name string) bool {
	return name == "test" || name == "tests" || strings.HasSuffix(name, "-test")
}

// uncountable says why the runners of a gate's command cannot be asked for their census without
// changing what the gate checks or what its user sees; "" when they can.
func uncountable(g gates.Gate, reqs []census.Request) string {
	if len(reqs) == 0 {
		return "its command runs no test runner gauntlet recognises (a script or a task runner hides it)"
	}
	for _, r := range reqs {
		if r.Problem != "" {
			return r.Runner + ": " + r.Problem
		}
	}
	if g.Run == "" {
		return "" // an argv: each argument is one word, whatever it holds
	}
	for _, r := range reqs {
		if !safeWhenOutputLeaves[r.Display] && outputLeaves(g.Run) {
			return "its output goes through a pipe or to a file, where " + r.Runner + "'s census arguments would change what is read"
		}
		if fileArg(r) && !posixShell(g.Shell) {
			return "gauntlet adds a report file to " + r.Runner + " only in a POSIX shell, not in " + shellName(g.Shell)
		}
	}
	return ""
}

// safeWhenOutputLeaves says, for each change a request makes to what the runner prints, whether
// it may be made when the output goes to another command or a file: someone else reads it there,
// and must read what it read before.
var safeWhenOutputLeaves = map[census.Display]bool{
	census.DisplaySame:      true,
	census.DisplayGoEvents:  false, // the pipe would get test2json events
	census.DisplayNodeTAP:   false, // node 23 and later would print TAP instead of spec
	census.DisplayExtraLine: false, // one more line, which a count or a grep would see
}

// fileArg says a request names the caller's file, a path that needs quoting in a shell string.
func fileArg(r census.Request) bool {
	return slices.ContainsFunc(r.Args, func(a string) bool { return strings.Contains(a, census.FilePlaceholder) })
}

// posixShell says the shell of a run: string quotes as sh does. The default is cmd on a Windows
// without Git's sh, which cannot be known here.
func posixShell(shell string) bool {
	switch shell {
	case oscmd.ShellSh, oscmd.ShellBash:
		return true
	case oscmd.ShellDefault:
		return runtime.GOOS != "windows"
	}
	return false
}

func shellName(shell string) string {
	if shell == oscmd.ShellDefault {
		return "the default shell on Windows"
	}
	return shell
}

// outputLeaves says whether a shell string sends output anywhere but the gate's own output: a
// pipe, a redirection to a file, a command substitution. It looks at the whole string, quotes
// respected, and errs towards yes: a command it says yes of is only left as declared.
func outputLeaves(s string) bool {
	if strings.Contains(s, "`") || strings.Contains(s, "$(") {
		return true // a substitution captures output, even inside double quotes
	}
	var quote byte
	for i := 0; i < len(s); i++ {
		if quote != 0 {
			quote, i = inQuote(s, i, quote)
			continue
		}
		var leaves bool
		leaves, quote, i = outsideQuotes(s, i)
		if leaves {
			return true
		}
	}
	return false
}

// inQuote steps over s[i] inside quote: the quote still open after it (0 when it closes it), and
// the index to go on from.
func inQuote(s string, i int, quote byte) (byte, int) {
	switch {
	case s[i] == quote:
		return 0, i
	case s[i] == '\\' && quote == '"':
		return quote, i + 1
	}
	return quote, i
}

// outsideQuotes judges s[i] outside quotes: whether output leaves there, the quote it opens, and
// the index to go on from.
func outsideQuotes(s string, i int) (leaves bool, quote byte, next int) {
	switch c := s[i]; {
	case c == '\\':
		return false, 0, i + 1
	case c == '\'' || c == '"':
		return false, c, i
	case c == '|':
		if i+1 < len(s) && s[i+1] == '|' {
			return false, 0, i + 1 // ||: an alternative, not a pipe
		}
		return true, 0, i
	case c == '>':
		return redirectAt(s, i)
	}
	return false, 0, i
}

// redirectAt judges the '>' at i: output leaves unless it is the standard error's, or a copy of a
// descriptor.
func redirectAt(s string, i int) (leaves bool, quote byte, next int) {
	if !redirectsErrors(s, i) {
		return !duplicatesOutput(s[i+1:]), 0, i
	}
	if i+1 < len(s) && s[i+1] == '>' {
		return false, 0, i + 1 // 2>>file
	}
	return false, 0, i
}

// redirectsErrors says the '>' at i sends only the standard error elsewhere (2>file): the output
// a runner is asked to change is its standard output.
func redirectsErrors(s string, i int) bool {
	return i > 0 && s[i-1] == '2' && (i == 1 || strings.IndexByte(" \t;&|(\n", s[i-2]) >= 0)
}

// duplicatesOutput says the text after a '>' makes it a descriptor's copy (2>&1, >&2): the
// output still reaches the gate's.
func duplicatesOutput(rest string) bool {
	target, ok := strings.CutPrefix(rest, "&")
	if !ok || target == "" {
		return false
	}
	end := strings.IndexFunc(target, func(r rune) bool { return r < '0' || r > '9' })
	if end == 0 {
		return target[0] == '-'
	}
	return true
}
