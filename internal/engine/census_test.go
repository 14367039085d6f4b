package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/runner"
)

// goTestText is what `go test ./...` prints of fakeGo's run.
const goTestText = "--- FAIL: TestB (0.00s)\n    a_test.go:6: boom\nFAIL\nFAIL\texample.com/m\t0.007s\nFAIL\n"

// fakeGo stands for `go test`: asked for -json it prints test2json events, otherwise the text
// of the same run; it fails as go test does when a test fails.
const fakeGo = `#!/bin/sh
goTestText='` + goTestText + `'
for a in "$@"; do [ "$a" = -json ] && json=1; done
if [ -n "$json" ]; then
cat <<'END'
{"Action":"start","Package":"example.com/m"}
{"Action":"run","Package":"example.com/m","Test":"TestA"}
{"Action":"output","Package":"example.com/m","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"output","Package":"example.com/m","Test":"TestA","Output":"    a_test.go:3: hello from A\n"}
{"Action":"output","Package":"example.com/m","Test":"TestA","Output":"--- PASS: TestA (0.00s)\n"}
{"Action":"pass","Package":"example.com/m","Test":"TestA"}
{"Action":"run","Package":"example.com/m","Test":"TestB"}
{"Action":"output","Package":"example.com/m","Test":"TestB","Output":"=== RUN   TestB\n"}
{"Action":"output","Package":"example.com/m","Test":"TestB","Output":"    a_test.go:6: boom\n"}
{"Action":"output","Package":"example.com/m","Test":"TestB","Output":"--- FAIL: TestB (0.00s)\n"}
{"Action":"fail","Package":"example.com/m","Test":"TestB"}
{"Action":"run","Package":"example.com/m","Test":"TestC"}
{"Action":"output","Package":"example.com/m","Test":"TestC","Output":"=== RUN   TestC\n"}
{"Action":"output","Package":"example.com/m","Test":"TestC","Output":"--- SKIP: TestC (0.00s)\n"}
{"Action":"skip","Package":"example.com/m","Test":"TestC"}
{"Action":"output","Package":"example.com/m","Output":"FAIL\n"}
{"Action":"output","Package":"example.com/m","Output":"FAIL\texample.com/m\t0.007s\n"}
{"Action":"fail","Package":"example.com/m"}
END
else
printf -- '%s' "$goTestText"
fi
exit 1
`

// fakePytest writes a JUnit report where --junitxml says, and prints the line pytest prints.
const fakePytest = `#!/bin/sh
for a in "$@"; do case "$a" in --junitxml=*) out="${a#--junitxml=}";; esac; done
[ -n "$out" ] && printf '<testsuite><testcase classname="tests.test_a" name="test_ok"/><testcase classname="tests.test_a" name="test_bad"><failure message="x"/></testcase></testsuite>' > "$out"
echo "1 passed, 1 failed"
[ -n "$out" ] && echo "- generated xml file: $out -"
exit 1
`

const junitFixture = `<testsuites><testsuite name="e2e"><testcase classname="e2e.Login" name="works"/><testcase classname="e2e.Login" name="later"><skipped/></testcase></testsuite></testsuites>`

// censusRun runs gates through the census stage as Execute does, with fake runners first on
// PATH.
type censusRun struct {
	root    string
	bin     string
	sd      *state.Dir
	results map[string]gates.Result
	run     *Run
	logs    string
}

const censusRunID = "20260101T000000Z-test"

func newCensusRun(t *testing.T) *censusRun {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(root, ".bin")
	writeFile(t, filepath.Join(bin, "go"), fakeGo, 0o755)
	writeFile(t, filepath.Join(bin, "pytest"), fakePytest, 0o755)
	sd, err := state.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sd.Close() })
	return &censusRun{root: root, bin: bin, sd: sd}
}

func writeFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

func (c *censusRun) execute(t *testing.T, gs ...gates.Gate) {
	t.Helper()
	env := append(os.Environ(), "PATH="+c.bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	c.logs = filepath.Join(c.root, ".gauntlet", "logs", "r")
	if err := os.MkdirAll(c.logs, 0o755); err != nil {
		t.Fatal(err)
	}
	logs, err := os.OpenRoot(c.logs)
	if err != nil {
		t.Fatal(err)
	}
	defer logs.Close()
	for i := range gs {
		gs[i].Kind, gs[i].Enabled, gs[i].Severity, gs[i].OnTimeout = gates.KindCheck, true, gates.SeverityError, gates.StatusFail
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	stage := newCensusStage(ctx, c.root, c.sd, censusRunID, env, nil, gs)
	ran := runner.Run(ctx, gs, runner.Options{
		RunID: "r", Root: c.root, Logs: logs, LogPrefix: ".gauntlet/logs/r", Jobs: 2, Env: env,
		Readers: stage.readers, Invocations: stage.invocations,
	})
	ran = stage.attach(ran)
	c.run = &Run{censuses: stage.censuses()}
	stage.close()
	c.results = map[string]gates.Result{}
	for _, r := range ran {
		c.results[r.Name] = r
	}
}

func (c *censusRun) log(t *testing.T, gate string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(c.logs, gate+".log"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// go test asked for -json: the census counts its tests, while the log, the tail and the verdict
// are those of the go test the gate declares.
func TestCensusOfGoTestReadsEventsAndShowsText(t *testing.T) {
	c := newCensusRun(t)
	c.execute(t, gates.Gate{Name: "unit", Run: "go test ./..."})
	res := c.results["unit"]
	if res.Status != gates.StatusFail || res.ExitCode != 1 || res.Command != "go test ./..." {
		t.Errorf("the gate is judged and shown as declared: %s exit %d command %q", res.Status, res.ExitCode, res.Command)
	}
	if log := c.log(t, "unit"); log != goTestText {
		t.Errorf("the log must read as go test's text:\n%s\nwant\n%s", log, goTestText)
	}
	if strings.Contains(res.Tail, `"Action"`) || !strings.Contains(res.Tail, "--- FAIL: TestB") {
		t.Errorf("tail %q", res.Tail)
	}
	want := gates.TestCensus{Runner: "go", Source: gates.CensusFromOutput, Passed: 1, Failed: 1, Skipped: 1, Complete: true,
		FailedTests: []string{"example.com/m::TestB"}, SkippedTests: []string{"example.com/m::TestC"}}
	if res.Tests == nil || !equalCensus(*res.Tests, want) {
		t.Errorf("census = %+v, want %+v", res.Tests, want)
	}
	if whole, ok := c.run.Census("unit"); !ok || len(whole.Tests) != 3 {
		t.Errorf("the whole census is kept for the comparison with the base: %+v %v", whole, ok)
	}
}

// A gate's tests: reports are read once it has ended, but only those it wrote during its run.
func TestCensusOfTestsReadsTheReportsTheGateWrote(t *testing.T) {
	c := newCensusRun(t)
	writeFile(t, filepath.Join(c.root, "fixture.xml"), junitFixture, 0o644)
	writeFile(t, filepath.Join(c.root, "stale", "old.xml"), junitFixture, 0o644)
	c.execute(t,
		gates.Gate{Name: "e2e", Run: "mkdir -p out/reports && cat fixture.xml > out/reports/TEST-e2e.xml", Tests: "out/**/*.xml"},
		gates.Gate{Name: "old", Run: "echo did not write", Tests: "stale/*.xml"},
		gates.Gate{Name: "none", Run: "true", Tests: "never/*.xml"},
	)
	got := c.results["e2e"].Tests
	want := gates.TestCensus{Runner: "junit", Source: gates.CensusFromTests, Passed: 1, Skipped: 1, Complete: true, SkippedTests: []string{"e2e.Login::later"}}
	if got == nil || !equalCensus(*got, want) {
		t.Errorf("e2e census = %+v, want %+v", got, want)
	}
	for gate, note := range map[string]string{"old": "stale/old.xml was not written during the gate's run", "none": "no report was written"} {
		got := c.results[gate].Tests
		if got == nil || got.Complete || got.Passed != 0 || !strings.Contains(strings.Join(got.Notes, "; "), note) {
			t.Errorf("%s census = %+v, want an incomplete one saying %q", gate, got, note)
		}
	}
}

// pytest writes its report to a file of the run, which the run removes.
func TestCensusOfPytestReadsTheReportItWasAskedFor(t *testing.T) {
	c := newCensusRun(t)
	c.execute(t, gates.Gate{Name: "py", Argv: []string{"pytest", "-q"}})
	res := c.results["py"]
	want := gates.TestCensus{Runner: "junit", Source: gates.CensusFromReport, Passed: 1, Failed: 1, Complete: true, FailedTests: []string{"tests.test_a::test_bad"}}
	if res.Tests == nil || !equalCensus(*res.Tests, want) {
		t.Errorf("census = %+v, want %+v", res.Tests, want)
	}
	if res.Command != "pytest -q" || res.Status != gates.StatusFail {
		t.Errorf("result %s %q", res.Status, res.Command)
	}
	if _, err := os.Stat(filepath.Join(c.root, ".gauntlet", "tmp", censusRunID)); !os.IsNotExist(err) {
		t.Errorf("the run's reports are not removed: %v", err)
	}
}

// A test gate whose tests cannot be counted runs as declared and says why.
func TestCensusOfAnUncountedGateSaysWhy(t *testing.T) {
	c := newCensusRun(t)
	c.execute(t, gates.Gate{Name: "test", Run: "echo ran"}, gates.Gate{Name: "lint", Run: "echo lint"})
	if got := c.results["test"]; got.Tests != nil || !strings.Contains(got.TestsUncounted, "no test runner gauntlet recognises") {
		t.Errorf("test: %+v %q", got.Tests, got.TestsUncounted)
	}
	if got := c.results["lint"]; got.Tests != nil || got.TestsUncounted != "" {
		t.Errorf("a gate that is not a test gate has a census: %+v %q", got.Tests, got.TestsUncounted)
	}
	if _, ok := c.run.Census("test"); ok {
		t.Error("an uncounted gate has a census")
	}
}

// node --test without a reporter is asked for its default by name: the one its version uses.
func TestCensusOfNodeKeepsItsDefaultReporter(t *testing.T) {
	for version, reporter := range map[string]string{"v20.20.2": "tap", "v23.1.0": "spec"} {
		c := newCensusRun(t)
		writeFile(t, filepath.Join(c.bin, "node"), `#!/bin/sh
[ "$1" = --version ] && { echo `+version+`; exit 0; }
echo "$@" > args.txt
for a in "$@"; do case "$a" in --test-reporter-destination=/*) out="${a#--test-reporter-destination=}";; esac; done
printf '<testsuites><testcase name="adds" classname="test"/></testsuites>' > "$out"
`, 0o755)
		c.execute(t, gates.Gate{Name: "js", Run: "node --test"})
		args, err := os.ReadFile(filepath.Join(c.root, "args.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(args), "--test-reporter="+reporter+" --test-reporter-destination=stdout --test-reporter=junit") {
			t.Errorf("node %s ran with %q, want its default %s named first", version, args, reporter)
		}
		if got := c.results["js"].Tests; got == nil || got.Passed != 1 {
			t.Errorf("node %s: census %+v", version, got)
		}
	}
}

func equalCensus(a, b gates.TestCensus) bool {
	return a.Runner == b.Runner && a.Source == b.Source && a.Passed == b.Passed && a.Failed == b.Failed && a.Skipped == b.Skipped &&
		a.Complete == b.Complete && strings.Join(a.FailedTests, ",") == strings.Join(b.FailedTests, ",") &&
		strings.Join(a.SkippedTests, ",") == strings.Join(b.SkippedTests, ",")
}
