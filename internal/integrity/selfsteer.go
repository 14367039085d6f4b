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
		code, _, _ := strings.Cut(a.Text, "//")
		switch {
		case testFlagSet.MatchString(code):
			flag := testFlagSet.FindStringSubmatch(code)[1]
			j.add(gates.RuleTestNeutered, f.Path, a.N, "the test binary sets its own flag test.%s (%s): the tests it runs are chosen by the code, not by the gate's command", flag, excerpt(a.Text))
		case argsTestFlag.MatchString(code):
			flag := argsTestFlag.FindStringSubmatch(code)[1]
			j.add(gates.RuleTestNeutered, f.Path, a.N, "the test binary writes -test.%s into os.Args (%s): the tests it runs are chosen by the code, not by the gate's command", flag, excerpt(a.Text))
		case framingPrint.MatchString(a.Text):
			j.add(gates.RuleTestNeutered, f.Path, a.N, "the test binary prints go test's own framing (%s): a test result the runner did not report", excerpt(a.Text))
		}
	}
}
