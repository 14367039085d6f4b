package stophook

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/redact"
)

var updateReasonGolden = flag.Bool("update-reason-golden", false, "rewrite testdata/*.golden from BlockReason")

func sampleFailures() []gates.Result {
	return []gates.Result{
		{
			Name: "test", Kind: gates.KindCheck, Status: gates.StatusFail, ExitCode: 1,
			Log:    ".gauntlet/logs/20261121T093000Z-4f2a/test.log",
			Reason: "exit status 1",
			Tail:   "=== RUN   TestParse\n    parse_test.go:42: got 3, want 4\n--- FAIL: TestParse (0.00s)\nFAIL\nFAIL\texample.com/parse\t0.012s\n",
		},
		{
			Name: "lint", Kind: gates.KindCheck, Status: gates.StatusFail, ExitCode: -1, TimedOut: true,
			Log:    ".gauntlet/logs/20261121T093000Z-4f2a/lint.log",
			Reason: "timed out after 5m0s",
			Hint:   "Run `golangci-lint run --fix` first.",
			Tail:   "\x1b[1;31mlevel=warning\x1b[0m msg=\"analysis slow\"\n",
		},
	}
}

func TestBlockReasonGolden(t *testing.T) {
	got := BlockReason(sampleFailures(), 5, Attempt{N: 2, Max: 3}, nil)
	path := filepath.Join("testdata", "reason_two_gates.golden")
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

func TestBlockReasonHeader(t *testing.T) {
	one := sampleFailures()[:1]
	tests := []struct {
		results []gates.Result
		total   int
		at      Attempt
		want    string
	}{
		{one, 1, Attempt{N: 1, Max: 3}, "gauntlet: 1 of 1 gate failed (attempt 1 of 3). Fix it, then stop again."},
		{one, 4, Attempt{N: 3}, "gauntlet: 1 of 4 gates failed (attempt 3). Fix it, then stop again."},
		{sampleFailures(), 0, Attempt{}, "gauntlet: 2 of 2 gates failed. Fix them, then stop again."},
	}
	for _, tc := range tests {
		got, _, _ := strings.Cut(BlockReason(tc.results, tc.total, tc.at, nil), "\n")
		if got != tc.want {
			t.Errorf("header = %q, want %q", got, tc.want)
		}
	}
}

func TestBlockReasonListsOnlyFailures(t *testing.T) {
	results := append(sampleFailures(), gates.Result{Name: "vet", Status: gates.StatusPass}, gates.Result{Name: "style", Status: gates.StatusWarn})
	got := BlockReason(results, 4, Attempt{N: 1, Max: 3}, nil)
	if strings.Contains(got, "## vet") || strings.Contains(got, "## style") {
		t.Errorf("passing or warning gates listed:\n%s", got)
	}
	if !strings.HasPrefix(got, "gauntlet: 2 of 4 gates failed") {
		t.Errorf("header counts the wrong gates:\n%s", got)
	}
}

func TestBlockReasonHugeTail(t *testing.T) {
	var tail strings.Builder
	for i := 1; i <= 100_000; i++ {
		fmt.Fprintf(&tail, "output line %d of a very chatty test run\n", i)
	}
	results := []gates.Result{{Name: "test", Status: gates.StatusFail, ExitCode: 2, Tail: tail.String(), Log: "t.log"}}
	got := BlockReason(results, 1, Attempt{N: 1, Max: 3}, nil)
	got = withoutNext(got)
	assertBounded(t, got)
	if !strings.HasSuffix(got, "output line 100000 of a very chatty test run") {
		t.Errorf("the last line is lost; reason ends with %q", got[max(0, len(got)-80):])
	}
	if !strings.Contains(got, "earlier lines cut; see the log]") {
		t.Errorf("no cut marker in\n%s", got)
	}
	for _, part := range []string{"## test: exit code 2", "rerun: gauntlet run test", "log: t.log"} {
		if !strings.Contains(got, part) {
			t.Errorf("missing %q", part)
		}
	}
}

func TestBlockReasonOneEndlessLine(t *testing.T) {
	tail := strings.Repeat("é", 50_000) + " the error is here"
	got := BlockReason([]gates.Result{{Name: "x", Status: gates.StatusFail, ExitCode: 1, Tail: tail}}, 1, Attempt{}, nil)
	got = withoutNext(got)
	assertBounded(t, got)
	if !strings.HasSuffix(got, "the error is here") || !strings.Contains(got, "start of this line cut") {
		t.Errorf("the end of the only line should be kept with a marker; got %q…", got[:200])
	}
}

func TestBlockReasonManyGates(t *testing.T) {
	results := make([]gates.Result, 300)
	for i := range results {
		results[i] = gates.Result{
			Name: fmt.Sprintf("gate-%03d", i), Status: gates.StatusFail, ExitCode: 1,
			Hint: strings.Repeat("a long hint ", 1000),
			Log:  fmt.Sprintf(".gauntlet/logs/run/gate-%03d.log", i),
			Tail: strings.Repeat("noise\n", 5000),
		}
	}
	got := BlockReason(results, 300, Attempt{N: 1, Max: 3}, nil)
	assertBounded(t, got)
	if !strings.HasPrefix(got, "gauntlet: 300 of 300 gates failed") {
		t.Errorf("header: %q", got[:80])
	}
	if !strings.Contains(got, "## gate-000: exit code 1") {
		t.Error("the first gate is not shown in full")
	}
	if !strings.Contains(got, "more failed gates: gate-") {
		t.Errorf("the gates that did not fit are not named:\n%s", got[len(got)-400:])
	}
}

func TestBlockReasonSharesRoomFairly(t *testing.T) {
	short := "short failure\n"
	long := strings.Repeat("long output line\n", 2000)
	results := []gates.Result{
		{Name: "a", Status: gates.StatusFail, ExitCode: 1, Tail: long + "A-END"},
		{Name: "b", Status: gates.StatusFail, ExitCode: 1, Tail: short},
		{Name: "c", Status: gates.StatusFail, ExitCode: 1, Tail: long + "C-END"},
	}
	got := BlockReason(results, 3, Attempt{}, nil)
	assertBounded(t, got)
	for _, want := range []string{"A-END", "short failure", "C-END"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q: every gate keeps the end of its output", want)
		}
	}
	sections := strings.Split(got, "\n## ")
	if len(sections) != 4 {
		t.Fatalf("want 3 sections, got %d", len(sections)-1)
	}
	if a, c := len(sections[1]), len(sections[3]); a < 1000 || c < 1000 {
		t.Errorf("long tails got %d and %d bytes of %d", a, c, MaxReasonBytes)
	}
}

func TestBlockReasonRedactsAndStrips(t *testing.T) {
	const secret = "s3cr3t-v4lue-xyz"
	secrets := redact.New(redact.Rules{}, []string{"API_TOKEN=" + secret})
	var tail strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&tail, "line %d token=%s \x1b[31mred\x1b[0m \x1b]0;title\x07done\n", i, secret)
	}
	results := []gates.Result{{
		Name: "deploy", Status: gates.StatusFail, ExitCode: 1,
		Hint: "use " + secret + " to log in", Tail: tail.String(),
		Reason: "exit status 1",
	}, {
		// One endless line: the cut falls inside it, wherever a secret happens to be.
		Name: "upload", Status: gates.StatusFail, ExitCode: 1,
		Tail: strings.Repeat("auth "+secret+"; ", 5000),
	}}
	got := BlockReason(results, 2, Attempt{N: 1, Max: 3}, secrets)
	assertBounded(t, got)
	// No piece of the secret may survive, not even one left at the point where output was cut.
	for _, piece := range []string{secret[:5], secret[5:11], secret[len(secret)-5:]} {
		if strings.Contains(got, piece) {
			t.Errorf("piece %q of the secret leaked:\n%s", piece, got)
		}
	}
	if !strings.Contains(got, "auth [REDACTED]; ") {
		t.Errorf("the endless line is not shown redacted:\n%s", got)
	}
	if !strings.Contains(got, "hint: use [REDACTED] to log in") || !strings.Contains(got, "token=[REDACTED] red done") {
		t.Errorf("redaction or ANSI stripping missing:\n%s", got[:400])
	}
	if strings.Contains(got, "\x1b") {
		t.Error("escape sequences left in the reason")
	}
}

func TestBlockReasonSurvivesHostileInput(t *testing.T) {
	results := []gates.Result{{
		Name:   "bad\x1b[2Jname\nx",
		Status: gates.StatusFail, ExitCode: -1,
		Reason: strings.Repeat("r", 10_000),
		Hint:   string([]byte{0xff, 0xfe, 'h', 'i', 0x00}),
		Log:    strings.Repeat("/very/long/path", 1000),
		Tail:   string([]byte{0xe2, 0x82}) + "\r\nprogress 10%\rprogress 100%\n\x00tail",
	}}
	got := BlockReason(results, 1, Attempt{}, nil)
	assertBounded(t, got)
	if strings.ContainsAny(got, "\x00\x1b\r") {
		t.Errorf("control characters left: %q", got)
	}
	if !strings.Contains(got, "\nprogress 100%\n") || strings.Contains(got, "progress 10%") {
		t.Errorf("a redrawn progress line should show its final state: %q", got)
	}
}

func TestBlockReasonWithoutFailures(t *testing.T) {
	got := BlockReason(nil, 0, Attempt{}, nil)
	assertBounded(t, got)
	if strings.TrimSpace(got) == "" {
		t.Error("empty reason")
	}
}

func assertBounded(t *testing.T, reason string) {
	t.Helper()
	if len(reason) > MaxReasonBytes {
		t.Errorf("reason has %d bytes, limit %d", len(reason), MaxReasonBytes)
	}
	if !utf8.ValidString(reason) {
		t.Error("reason is not valid UTF-8")
	}
}

func TestCutTail(t *testing.T) {
	lines := []string{"alpha alpha alpha alpha", "bravo bravo bravo bravo", "charlie charlie charlie", "delta delta delta delta"}
	whole := strings.Join(lines, "\n")
	tests := []struct {
		budget int
		want   string
	}{
		{1000, whole},
		{len(whole), whole},
		{len(whole) - 1, "[... 2 earlier lines cut; see the log]\ncharlie charlie charlie\ndelta delta delta delta"},
		{70, "[... 3 earlier lines cut; see the log]\ndelta delta delta delta"},
		{61, ""}, // not even the marker and a useful piece of the last line fit
		{0, ""},
	}
	for _, tc := range tests {
		got := cutTail(lines, tc.budget)
		if got != tc.want {
			t.Errorf("cutTail(budget %d) = %q, want %q", tc.budget, got, tc.want)
		}
		if len(got) > tc.budget {
			t.Errorf("cutTail(budget %d) returned %d bytes", tc.budget, len(got))
		}
	}
}

func TestCutTailKeepsAtMostMaxTailLines(t *testing.T) {
	lines := strings.Split(strings.Repeat("x\n", 200)+"last", "\n")
	got := cutTail(lines, MaxReasonBytes)
	if want := "[... 121 earlier lines cut; see the log]\n"; !strings.HasPrefix(got, want) {
		t.Errorf("cutTail starts %q, want %q", got[:50], want)
	}
	if n := strings.Count(got, "\n"); n != maxTailLines {
		t.Errorf("%d lines kept, want %d", n, maxTailLines)
	}
}

func TestGroupDigits(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 9950: "9,950", 1234567: "1,234,567"} {
		if got := groupDigits(n); got != want {
			t.Errorf("groupDigits(%d) = %q, want %q", n, got, want)
		}
	}
}

// Gates a failed need kept from running are named after the header, with why, and get no
// section of their own: they have no output to show and nothing to fix but their need.
func TestBlockReasonNamesGatesNotRunForANeed(t *testing.T) {
	results := append(sampleFailures()[:1],
		gates.Result{Name: "e2e", Status: gates.StatusSkipped, ExitCode: -1, Reason: "needs test, which failed", SkippedBecause: "test"},
		gates.Result{Name: "deploy", Status: gates.StatusSkipped, ExitCode: -1, Reason: "needs e2e, which did not run because test failed", SkippedBecause: "e2e"})
	got := BlockReason(results, 1, Attempt{N: 1, Max: 3}, nil)
	lines := strings.Split(got, "\n")
	if want := "Not run until what they need passes: e2e (needs test, which failed), deploy (needs e2e, which did not run because test failed)."; lines[1] != want {
		t.Errorf("second line %q, want %q", lines[1], want)
	}
	if !strings.HasPrefix(lines[0], "gauntlet: 1 of 1 gate failed") {
		t.Errorf("header %q counts the skipped gates", lines[0])
	}
	if strings.Contains(got, "## e2e") || strings.Contains(got, "## deploy") {
		t.Errorf("a skipped gate got a section:\n%s", got)
	}
}

// A short output that shows every finding on its own line is the findings: the reason does not
// list them again above it (the failing test's line was said three times: in the list of what
// the change broke, as a finding, and in the output).
func TestBlockReasonShortOutputIsItsOwnFindings(t *testing.T) {
	tail := "--- FAIL: TestSub (0.00s)\n    demo_test.go:13: Sub(3, 1) = 3, want 2\nFAIL\nFAIL\texample.com/demo\t0.023s\nFAIL\n"
	r := gates.Result{Name: "test", Kind: gates.KindCheck, Status: gates.StatusFail, ExitCode: 1, Reason: "exit status 1",
		Tail: tail, Lines: 5,
		Findings: []gates.Finding{{File: "demo_test.go", Line: 13, Severity: "error", Message: "Sub(3, 1) = 3, want 2", Rule: "TestSub"}}}
	got := BlockReason([]gates.Result{r}, 1, Attempt{N: 1, Max: 3}, nil)
	if strings.Contains(got, "findings (1):") || strings.Count(got, "Sub(3, 1) = 3, want 2") != 2 {
		t.Errorf("the finding is listed again above the output that shows it:\n%s", got)
	}
	// A finding the output does not show (cut, or never printed on a line of its own) is listed.
	r.Findings = append(r.Findings, gates.Finding{File: "other_test.go", Line: 7, Severity: "error", Message: "boom", Rule: "TestOther"})
	if got := BlockReason([]gates.Result{r}, 1, Attempt{N: 1, Max: 3}, nil); !strings.Contains(got, "findings (2):") {
		t.Errorf("a finding the output does not show is not listed:\n%s", got)
	}
}

// go vet's finding was said twice: once in the list of what the change broke, again as the
// whole output of the gate's section. An output that is nothing but the lines its listed
// findings came from (the run report's rule) is left out when the list names each finding on
// a line of its own; an output with any other line is shown whole, as before.
func TestBlockReasonFindingsOnlyOutputSaidOnce(t *testing.T) {
	msg := "fmt.Printf format %d has arg s of wrong type string"
	line := "main.go:7:14: " + msg
	vet := gates.Finding{File: "main.go", Line: 7, Column: 14, Severity: "error", Message: msg}
	r := gates.Result{Name: "vet", Kind: gates.KindCheck, Status: gates.StatusFail, ExitCode: 1, Reason: "exit status 1",
		Blame: gates.BlameRegression, Tail: line + "\n", Lines: 1, Findings: []gates.Finding{vet},
		Excerpt: &gates.Excerpt{Start: 1, Match: 1, Lines: []string{line}}}
	got := BlockReason([]gates.Result{r}, 2, Attempt{N: 1, Max: 3}, nil)
	if !strings.Contains(got, "Broken by this change:\n- vet: "+line+"\n") || strings.Count(got, msg) != 1 {
		t.Errorf("the finding is not said once, in the list of what the change broke:\n%s", got)
	}

	// Another line in the output keeps it whole.
	r.Tail, r.Lines = line+"\nvet: 1 more thing went wrong\n", 2
	got = BlockReason([]gates.Result{r}, 2, Attempt{N: 1, Max: 3}, nil)
	if !strings.Contains(got, "\n"+line+"\nvet: 1 more thing went wrong\n") {
		t.Errorf("an output with more than the findings is not shown whole:\n%s", got)
	}

	// Findings the list groups (one entry for two) are not named there one by one: the output
	// that is only their lines stays, and stands for them in the section.
	unreachable := []gates.Finding{
		{File: "main.go", Line: 7, Column: 2, Severity: "error", Message: "unreachable code"},
		{File: "util.go", Line: 3, Column: 2, Severity: "error", Message: "unreachable code"},
	}
	r.Tail, r.Lines = "main.go:7:2: unreachable code\nutil.go:3:2: unreachable code\n", 2
	r.Findings = unreachable
	got = BlockReason([]gates.Result{r}, 2, Attempt{N: 1, Max: 3}, nil)
	if !strings.Contains(got, "(2 findings) main.go:7:2: unreachable code") || !strings.Contains(got, "\nutil.go:3:2: unreachable code\n") ||
		strings.Count(got, "util.go:3:2") != 1 {
		t.Errorf("findings the list groups are not each said, once, by the output:\n%s", got)
	}
}
