package integrity

import (
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// A Go test binary reads its own flags (-test.run, -test.skip, ...) after every init() and in
// m.Run, and go test reads what it prints: code of the package that sets those flags, or writes
// them into os.Args, decides which tests run without any command changing; code that prints go
// test's framing lines (--- PASS, === RUN, the \x16 marker test2json keys on) reports a test that
// never ran. The census believes the runner's channel, so the code that writes into it is named.

var (
	// testFlagSet is flag.Set (or flag.CommandLine.Set) of a flag that selects the tests run.
	testFlagSet = lazy(`\bflag\.(?:CommandLine\.)?Set\(\s*"test\.(run|skip|short|list|count|bench)"`)
	// argsTestFlag is a write to os.Args holding such a flag.
	argsTestFlag = lazy(`\bos\.Args\s*(?:\[[^\]]*\]\s*)?=[^=].*"-{1,2}test\.(run|skip|short|list|count|bench)\b`)
	// framingPrint is a print to the standard output of a line go test writes itself.
	framingPrint = lazy(`(?:\bfmt\.Print(?:f|ln)?\(|\bos\.Stdout\.Write(?:String)?\(|\bfmt\.Fprint(?:f|ln)?\(\s*os\.Stdout\b|(?:^|[^.\w])print(?:ln)?\()` +
		`.*(?:\\x16|\\026|\x16|--- (?:PASS|FAIL|SKIP)\b|=== (?:RUN|PAUSE|CONT|NAME)\b|"ok  \\t)`)
)

// selfSteered reports the lines a Go file's change adds that steer or imitate the test binary it
// is built into.
func (j *judge) selfSteered(f File) {
	for _, a := range f.Added {
		if why, ok := steersTestBinary(a.Text); ok {
			j.add(gates.RuleTestNeutered, f.Path, a.N, "%s (%s): %s", why.what, excerpt(a.Text), why.so)
		}
	}
}

// steering says how a line steers the test binary, and what follows from it.
type steering struct{ what, so string }

// steersTestBinary says whether a line of Go sets the test binary's flags, writes them into
// os.Args, or prints go test's framing, and how.
func steersTestBinary(line string) (steering, bool) {
	code, _, _ := strings.Cut(line, "//")
	const chosen = "the tests it runs are chosen by the code, not by the gate's command"
	switch {
	case testFlagSet.MatchString(code):
		return steering{"the test binary sets its own flag test." + testFlagSet.FindStringSubmatch(code)[1], chosen}, true
	case argsTestFlag.MatchString(code):
		return steering{"the test binary writes -test." + argsTestFlag.FindStringSubmatch(code)[1] + " into os.Args", chosen}, true
	case framingPrint.MatchString(line):
		return steering{"the test binary prints go test's own framing", "a test result the runner did not report"}, true
	}
	return steering{}, false
}
