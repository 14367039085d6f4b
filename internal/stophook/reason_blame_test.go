package stophook

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
)

// defaultReason is the reason as the stop hook writes it without stop_hook.reason_limit.
func defaultReason(results []gates.Result, total int) string {
	return blockReason(results, total, Attempt{N: 1, Max: 3}, nil, config.DefaultReasonLimit)
}

func testFinding(test, file string, line int, msg string) gates.Finding {
	return gates.Finding{File: file, Line: line, Severity: "error", Message: msg, Rule: test}
}

// goTestGate is a failed go test gate with the output a real run ends with.
func goTestGate(fs ...gates.Finding) gates.Result {
	return gates.Result{
		Name: "test", Status: gates.StatusFail, ExitCode: 1, Log: ".gauntlet/logs/r/test.log",
		Reason: "exit status 1", Findings: fs, Lines: 3, Tail: "--- FAIL: TestAdd (0.00s)\nFAIL\nFAIL\texample.com/calc\t0.01s",
	}
}

// One test's 38 findings are one entry with a count, and the second failing test is named
// before any of the gate's detail: it used to show only in the tail.
func TestBlockReasonGroupsATestsFindingsIntoOneEntry(t *testing.T) {
	var fs []gates.Finding
	for i := range 38 {
		fs = append(fs, testFinding("TestAdd", "calc_test.go", 17+i, fmt.Sprintf("want %d, got %d\nmore detail", i+5, i+4)))
	}
	fs = append(fs, testFinding("TestSub", "calc_test.go", 90, "want 1, got 2"))
	got := defaultReason([]gates.Result{goTestGate(fs...)}, 3)
	if len(got) > config.DefaultReasonLimit {
		t.Errorf("%d bytes, over the default limit of %d", len(got), config.DefaultReasonLimit)
	}
	first := "- test: TestAdd (38 findings) calc_test.go:17: want 5, got 4\n"
	second := "- test: TestSub calc_test.go:90: want 1, got 2\n"
	detail := strings.Index(got, "## test")
	for _, want := range []string{first, second} {
		if i := strings.Index(got, want); i < 0 || i > detail {
			t.Errorf("%q not listed before the detail (at %d, detail at %d):\n%s", want, i, detail, got)
		}
	}
}

// A pre-existing gate with 54 findings beside a regression: the regression is named in the
// first 500 characters, the pre-existing findings are counted after it, never listed.
func TestBlockReasonNamesTheRegressionBeforeWhatTheBaseFails(t *testing.T) {
	lint := gates.Result{
		Name: "lint", Status: gates.StatusFail, ExitCode: 1, Log: ".gauntlet/logs/r/lint.log", Reason: "exit status 1",
		Blame: gates.BlamePreExisting, BlameDetail: &gates.BlameDetail{PreExistingFindings: 54, Why: "the base has the same findings"},
	}
	for i := range 54 {
		lint.Findings = append(lint.Findings, gates.Finding{File: fmt.Sprintf("old%d.go", i), Line: i + 1, Severity: "error",
			Message: fmt.Sprintf("old problem number %d that a newer linter reports", i), Rule: fmt.Sprintf("rule%d", i), PreExisting: true})
	}
	test := goTestGate(testFinding("TestNew", "new_test.go", 12, "got 3, want 4"))
	test.Blame = gates.BlameRegression
	got := defaultReason([]gates.Result{lint, test}, 2)
	if !strings.Contains(got[:min(500, len(got))], "TestNew") {
		t.Errorf("the regression is not in the first 500 characters:\n%s", got)
	}
	if !strings.HasPrefix(got, "gauntlet: 1 of 2 gates failed") {
		t.Errorf("the header counts the pre-existing gate as the change's:\n%s", got)
	}
	if strings.Contains(got, "old problem number") || strings.Contains(got, "## lint") {
		t.Errorf("pre-existing findings listed rather than counted:\n%s", got)
	}
	pre := strings.Index(got, "Failing before this change (not blocking):\n- lint: 54 findings")
	if pre < 0 || pre < strings.Index(got, "TestNew") {
		t.Errorf("the pre-existing gate is not counted after the regression:\n%s", got)
	}
	if strings.Contains(got, "gauntlet run test lint") || !strings.Contains(got, "`gauntlet run test`") {
		t.Errorf("Next: asks to check the pre-existing gate too:\n%s", got)
	}
}

// The order is the regressions, then the flaky tests, then what failed before the change; a
// regression gate's pre-existing test and findings are only named and counted at the end.
func TestBlockReasonRegressionsThenFlakyThenPreExisting(t *testing.T) {
	test := goTestGate(
		gates.Finding{File: "old_test.go", Line: 3, Severity: "error", Message: "old breakage", Rule: "TestOld", PreExisting: true},
		testFinding("TestOld", "old_test.go", 4, "second old breakage"),
		testFinding("TestNew", "new_test.go", 12, "got 3, want 4"),
	)
	test.Blame = gates.BlameRegression
	test.BlameDetail = &gates.BlameDetail{Regressions: []string{"example.com/calc::TestNew"}, PreExisting: []string{"example.com/calc::TestOld"}, PreExistingFindings: 1}
	e2e := gates.Result{Name: "e2e", Status: gates.StatusFail, ExitCode: 1, Reason: "exit status 1", Tail: "flaky output line",
		Blame: gates.BlameFlaky, BlameDetail: &gates.BlameDetail{Flaky: []string{"web::TestNet"}}}
	got := defaultReason([]gates.Result{e2e, test}, 2)
	order := []string{
		"- test: TestNew new_test.go:12: got 3, want 4",
		"## test",
		"Flaky (failed, then passed when run again alone; not blocking):\n- e2e: TestNet",
		"Failing before this change (not blocking):\n- test: TestOld",
		"Next: ",
	}
	at := -1
	for _, want := range order {
		i := strings.Index(got, want)
		if i <= at {
			t.Fatalf("%q missing or out of order (at %d, after %d):\n%s", want, i, at, got)
		}
		at = i
	}
	if strings.Contains(got, "old breakage") || strings.Contains(got, "flaky output line") {
		t.Errorf("a pre-existing finding or the flaky gate's output is shown:\n%s", got)
	}
	if !strings.HasPrefix(got, "gauntlet: 1 of 2 gates failed") {
		t.Errorf("header:\n%s", got)
	}
}

// A failing test the census names but no finding does is still named first.
func TestBlockReasonNamesRegressionsWithoutFindings(t *testing.T) {
	test := goTestGate()
	test.Blame = gates.BlameRegression
	test.BlameDetail = &gates.BlameDetail{Regressions: []string{"example.com/calc::TestTwo"}}
	other := gates.Result{Name: "lint", Status: gates.StatusFail, ExitCode: 2, Reason: "exit status 2", Tail: "boom"}
	got := defaultReason([]gates.Result{test, other}, 2)
	for _, want := range []string{"- test: TestTwo", "- lint: exit code 2"} {
		if i := strings.Index(got, want); i < 0 || i > strings.Index(got, "## test") {
			t.Errorf("%q not listed before the detail:\n%s", want, got)
		}
	}
}

// More failing tests than the limit holds: the list ends by counting the rest and pointing at
// the log, and the reason stays within the configured limit.
func TestBlockReasonListBoundedByTheLimit(t *testing.T) {
	var fs []gates.Finding
	for i := range 80 {
		fs = append(fs, testFinding(fmt.Sprintf("TestCase%02d", i), "calc_test.go", i+1, "want something quite long here, got something else entirely"))
	}
	for _, limit := range []int{1000, config.DefaultReasonLimit, MaxReasonBytes} {
		got := blockReason([]gates.Result{goTestGate(fs...)}, 1, Attempt{}, nil, limit)
		if len(got) > limit {
			t.Errorf("limit %d: %d bytes", limit, len(got))
		}
		if !strings.Contains(got, "- test: TestCase00 ") || !strings.Contains(got, "more, see .gauntlet/logs/r/test.log") {
			t.Errorf("limit %d: the first test or the count of the rest is missing:\n%s", limit, got)
		}
		if !strings.Contains(got, "\nNext: ") {
			t.Errorf("limit %d: no Next line:\n%s", limit, got)
		}
	}
}

// The honest twin of the order: when stop_hook.pre_existing: block makes only pre-existing
// failures block, they are the reason's subject, shown in full, not a footnote.
func TestBlockReasonPreExistingThatBlocksIsShown(t *testing.T) {
	test := goTestGate(gates.Finding{File: "old_test.go", Line: 3, Severity: "error", Message: "old breakage", Rule: "TestOld", PreExisting: true})
	test.Blame = gates.BlamePreExisting
	test.BlameDetail = &gates.BlameDetail{PreExisting: []string{"example.com/calc::TestOld"}, PreExistingFindings: 1}
	got := defaultReason([]gates.Result{test}, 1)
	if !strings.HasPrefix(got, "gauntlet: 1 of 1 gate failed") || !strings.Contains(got, "## test") || !strings.Contains(got, "old breakage") {
		t.Errorf("a blocking pre-existing failure is not shown:\n%s", got)
	}
	if strings.Contains(got, "not blocking") {
		t.Errorf("a blocking failure is called not blocking:\n%s", got)
	}
}
