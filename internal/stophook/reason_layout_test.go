package stophook

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/redact"
)

// cobraLike is the failing run the reason used to get wrong: the failure at line 33, then 300
// lines of usage text the tests print, of which the tail keeps the last 40 (the runner keeps up to
// 80 lines or 8 KiB).
func cobraLike() gates.Result {
	var all []string
	all = append(all, "Error: unknown command \"nope\" for \"root\"", "Run 'root --help' for usage.")
	for i := range 30 {
		all = append(all, fmt.Sprintf("setup line %d", i))
	}
	all = append(all, "--- FAIL: TestNoArgsWithArgs (0.00s)", "    args_test.go:95: expected an error, got none")
	for i := range 300 {
		all = append(all, fmt.Sprintf("  -h, --help   help for root (usage line %d)", i))
	}
	all = append(all, "FAIL", "FAIL\tgithub.com/spf13/cobra\t0.412s", "FAIL")
	// As the runner keeps it: 8 lines before the failure, 40 after.
	ex := &gates.Excerpt{Start: 25, Match: 33, Lines: all[24:73]}
	return gates.Result{
		Name: "test", Status: gates.StatusFail, ExitCode: 1, Log: ".gauntlet/logs/r/test.log",
		Reason: "exit status 1", Tail: strings.Join(all[len(all)-40:], "\n") + "\n",
		Lines: len(all), Excerpt: ex,
	}
}

func TestBlockReasonShowsTheFirstFailureNotJustTheTail(t *testing.T) {
	r := cobraLike()
	got := BlockReason([]gates.Result{r}, 1, Attempt{N: 1, Max: 3}, nil)
	assertBounded(t, got)
	for _, want := range []string{
		"[... 24 earlier lines cut; see the log]\nsetup line 22",
		"--- FAIL: TestNoArgsWithArgs (0.00s)\n    args_test.go:95: expected an error, got none",
		"FAIL\tgithub.com/spf13/cobra\t0.412s\nFAIL",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	// Every line the gate printed is either shown or counted by a marker, once.
	shown := 0
	counted := 0
	for _, line := range strings.Split(got, "\n") {
		var n int
		switch {
		case strings.HasPrefix(line, "[... ") && strings.Contains(line, "lines cut"):
			fmt.Sscanf(strings.ReplaceAll(line, ",", ""), "[... %d", &n)
			counted += n
		case strings.HasPrefix(line, "setup line") || strings.Contains(line, "usage line") || strings.HasPrefix(line, "FAIL") ||
			strings.HasPrefix(line, "--- FAIL") || strings.Contains(line, "args_test.go") || strings.HasPrefix(line, "Error:") || strings.HasPrefix(line, "Run '"):
			shown++
		}
	}
	if shown+counted != r.Lines {
		t.Errorf("%d lines shown + %d counted as cut = %d, want the %d the gate printed\n%s", shown, counted, shown+counted, r.Lines, got)
	}
}

// A single failed gate may use most of the budget: the excerpt and the tail together.
func TestBlockReasonLetsOneGateUseTheRoom(t *testing.T) {
	r := cobraLike()
	var long []string
	for i := range 3000 {
		long = append(long, fmt.Sprintf("output line %d with enough text to make the budget matter", i))
	}
	r.Tail = strings.Join(long[len(long)-80:], "\n") // as much as the runner keeps
	r.Lines = 3000
	r.Excerpt = &gates.Excerpt{Start: 100, Match: 108, Lines: long[99:148]}
	got := BlockReason([]gates.Result{r}, 1, Attempt{}, nil)
	got = withoutNext(got)
	assertBounded(t, got)
	if len(got) < 6000 {
		t.Errorf("one failed gate used only %d of %d bytes", len(got), MaxReasonBytes)
	}
	if !strings.Contains(got, "output line 107 ") || !strings.HasSuffix(got, "output line 2999 with enough text to make the budget matter") {
		t.Errorf("the first error or the last line is missing:\n%s", got)
	}
}

func TestBlockReasonCountsHiddenLinesFromTheLog(t *testing.T) {
	var tail []string
	for i := 266; i <= 305; i++ {
		tail = append(tail, fmt.Sprintf("line %d", i))
	}
	r := gates.Result{Name: "t", Status: gates.StatusFail, ExitCode: 1, Tail: strings.Join(tail, "\n"), Lines: 305}
	got := BlockReason([]gates.Result{r}, 1, Attempt{}, nil)
	if !strings.Contains(got, "[... 265 earlier lines cut; see the log]\nline 266\n") {
		t.Errorf("the marker must count the 265 lines before the kept 40:\n%s", got)
	}
}

func TestBlockReasonFindingsThenCauseThenOutput(t *testing.T) {
	r := gates.Result{
		Name: "lint", Status: gates.StatusFail, ExitCode: -1, TimedOut: true,
		Reason: "timed out after 5m0s; environment: npm cannot reach its registry (fix: check the network)",
		Cause:  &gates.Cause{ID: "npm-registry-unreachable", Summary: "npm cannot reach its registry", Fix: "check the network"},
		Findings: []gates.Finding{
			{File: "src/a.ts", Line: 3, Column: 1, Severity: "warning", Message: "Unexpected console statement", Rule: "no-console"},
			{File: "src/b.ts", Line: 9, Column: 5, Severity: "error", Message: "'x' is defined but never used", Rule: "no-unused-vars"},
			{File: "src/a.ts", Line: 3, Column: 1, Severity: "warning", Message: "Unexpected console statement", Rule: "no-console"},
			{Severity: "error", Message: "TestParse failed", Rule: "TestParse"},
		},
		Tail: "last output line", Lines: 1,
	}
	got := BlockReason([]gates.Result{r}, 1, Attempt{}, nil)
	got = withoutNext(got)
	want := `lint: timed out after 5m0s
rerun: gauntlet run lint
findings (3):
- src/b.ts:9:5: error: 'x' is defined but never used [no-unused-vars]
- error: TestParse failed [TestParse]
- src/a.ts:3:1: warning: Unexpected console statement [no-console]
environment: npm cannot reach its registry (fix: check the network)
last output line`
	if _, section, _ := strings.Cut(got, "\n\n## "); section != want {
		t.Errorf("section:\n%s\nwant:\n%s", section, want)
	}
}

func TestBlockReasonCauseWithoutFindings(t *testing.T) {
	r := gates.Result{
		Name: "e2e", Status: gates.StatusError, ExitCode: -1, Reason: "environment: Playwright's browsers are not installed (fix: run npx playwright install)",
		Cause: &gates.Cause{Summary: "Playwright's browsers are not installed", Fix: "run npx playwright install"},
		Tail:  "Error: browserType.launch: Executable doesn't exist", Lines: 1,
	}
	got := BlockReason([]gates.Result{r}, 1, Attempt{}, nil)
	got = withoutNext(got)
	if strings.Count(got, "Playwright's browsers are not installed") != 1 {
		t.Errorf("the cause is repeated:\n%s", got)
	}
	if !strings.Contains(got, "rerun: gauntlet run e2e\nenvironment: Playwright's browsers are not installed (fix: run npx playwright install)\nError: browserType.launch") {
		t.Errorf("cause not between the gate's lines and its output:\n%s", got)
	}
}

func TestBlockReasonManyFindingsLeaveRoomForOutput(t *testing.T) {
	r := cobraLike()
	for i := range 2000 {
		// Distinct messages: repeats of one would be grouped into a single line.
		word := string([]byte{byte('a' + i%26), byte('a' + i/26%26), byte('a' + i/676)})
		r.Findings = append(r.Findings, gates.Finding{File: "a.go", Line: i + 1, Severity: "warning", Message: strings.Repeat("w", 60) + " " + word})
	}
	got := BlockReason([]gates.Result{r}, 1, Attempt{}, nil)
	assertBounded(t, got)
	if !strings.Contains(got, "--- FAIL: TestNoArgsWithArgs") || !strings.Contains(got, "more findings]") {
		t.Errorf("findings crowded out the output, or the rest is not counted:\n%s", got)
	}
	if n := strings.Count(got, "\n- a.go:"); n == 0 || n > maxFindings {
		t.Errorf("%d findings shown", n)
	}
}

func TestBlockReasonSharesRoomAmongExcerpts(t *testing.T) {
	var results []gates.Result
	for i := range 3 {
		r := cobraLike()
		r.Name = fmt.Sprintf("gate-%d", i)
		results = append(results, r)
	}
	got := BlockReason(results, 3, Attempt{}, nil)
	assertBounded(t, got)
	if n := strings.Count(got, "--- FAIL: TestNoArgsWithArgs"); n != 3 {
		t.Errorf("%d of 3 gates show their failure:\n%s", n, got)
	}
}

func TestBlockReasonRedactsExcerptsAndFindings(t *testing.T) {
	const secret = "hunter2-secret-value"
	secrets := redact.New(redact.Rules{}, []string{"DB_PASSWORD=" + secret})
	r := cobraLike()
	r.Excerpt.Lines[8] = "--- FAIL: TestLogin password=" + secret
	r.Findings = []gates.Finding{{File: "a.go", Line: 1, Severity: "error", Message: "uses " + secret}}
	got := BlockReason([]gates.Result{r}, 1, Attempt{}, secrets)
	if strings.Contains(got, secret) || !strings.Contains(got, "password=[REDACTED]") || !strings.Contains(got, "uses [REDACTED]") {
		t.Errorf("secret not redacted:\n%s", got)
	}
}

func TestBlockReasonLayoutGolden(t *testing.T) {
	r := cobraLike()
	r.Hint = "Run one test with `go test -run TestName`."
	r.Findings = []gates.Finding{{File: "args_test.go", Line: 95, Severity: "error", Message: "TestNoArgsWithArgs: expected an error, got none", Rule: "TestNoArgsWithArgs"}}
	got := BlockReason([]gates.Result{r}, 4, Attempt{N: 1, Max: 3}, nil)
	path := filepath.Join("testdata", "reason_layout.golden")
	if *updateReasonGolden {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update-reason-golden to create it)", err)
	}
	if got != string(want) {
		t.Errorf("BlockReason mismatch\n--- got\n%s\n--- want\n%s", got, want)
	}
}

// An excerpt that runs into the tail is shown once, as one stretch with the tail's rest.
func TestBlockReasonMergesAnExcerptOverlappingTheTail(t *testing.T) {
	var all []string
	for i := 1; i <= 70; i++ {
		all = append(all, fmt.Sprintf("line %d", i))
	}
	r := gates.Result{
		Name: "t", Status: gates.StatusFail, ExitCode: 1, Lines: 70,
		Tail:    strings.Join(all[30:], "\n"),                            // lines 31..70
		Excerpt: &gates.Excerpt{Start: 12, Match: 20, Lines: all[11:40]}, // lines 12..40
	}
	got := BlockReason([]gates.Result{r}, 1, Attempt{}, nil)
	got = withoutNext(got)
	_, body, _ := strings.Cut(got, "rerun: gauntlet run t\n")
	want := "[... 11 earlier lines cut; see the log]\n" + strings.Join(all[11:], "\n")
	if body != want {
		t.Errorf("output:\n%s\nwant:\n%s", body, want)
	}
}

// Whatever the results claim (line counts that disagree with the tail, excerpts past the end,
// findings without places), the reason is bounded, valid UTF-8 and never panics.
func TestBlockReasonInconsistentInputs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		return []string{"x", "--- FAIL: T", "é", "a long line of output text", "", "\x1b[31mred\x1b[0m", strings.Repeat("w", 700)}[rng.IntN(7)]
	}
	lines := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = word()
		}
		return out
	}
	for range 2000 {
		var results []gates.Result
		for range 1 + rng.IntN(4) {
			r := gates.Result{Name: "g", Status: gates.StatusFail, ExitCode: rng.IntN(3) - 1, TimedOut: rng.IntN(4) == 0}
			r.Tail = strings.Join(lines(rng.IntN(100)), "\n")
			r.Lines = rng.IntN(300) - 5
			if rng.IntN(2) == 0 {
				r.Excerpt = &gates.Excerpt{Start: rng.IntN(300) - 5, Match: rng.IntN(300), Lines: lines(rng.IntN(60))}
			}
			for range rng.IntN(80) {
				r.Findings = append(r.Findings, gates.Finding{File: word(), Line: rng.IntN(5), Severity: []string{"error", "warning", ""}[rng.IntN(3)], Message: word()})
			}
			if rng.IntN(3) == 0 {
				r.Cause = &gates.Cause{Summary: word(), Fix: word()}
			}
			results = append(results, r)
		}
		got := BlockReason(results, len(results), Attempt{N: 1, Max: 3}, nil)
		assertBounded(t, got)
		if strings.Contains(got, "\x1b") || strings.Contains(got, "[... -") || strings.Contains(got, "[... 0 ") {
			t.Fatalf("escape or a marker hiding no lines in %q", got)
		}
	}
}
