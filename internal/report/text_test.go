package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
)

func writeText(t *testing.T, r Report, opts TextOptions) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteText(&b, r, opts); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestTextColour(t *testing.T) {
	r := fixtureReport()
	plain := writeText(t, r, TextOptions{})
	if strings.Contains(plain, "\x1b") {
		t.Errorf("colourless text contains escape sequences:\n%q", plain)
	}
	coloured := writeText(t, r, TextOptions{Color: true})
	for _, want := range []string{"\x1b[32mpass", "\x1b[31mfail", "\x1b[33mwarn", "\x1b[35merror", "\x1b[2mskipped", "gauntlet: \x1b[31;1mfail\x1b[0"} {
		if !strings.Contains(coloured, want) {
			t.Errorf("coloured text lacks %q:\n%q", want, coloured)
		}
	}
	// A tail is plain text: escape sequences in it (say, from a report read back from a file)
	// never reach the terminal, where they could recolour or erase the summary.
	if !strings.Contains(coloured, "    FAIL\tgithub.com/x/pkg\t0.01s\n") {
		t.Errorf("escape sequences of the tail were not removed:\n%q", coloured)
	}
}

func TestTextFirstFailureComesFirst(t *testing.T) {
	r := fixtureReport()
	tests := []struct {
		first string
		order []string
	}{
		{"", []string{"=== test:", "=== lint:", "=== typecheck:"}},
		{"typecheck", []string{"=== typecheck:", "=== test:", "=== lint:"}},
		{"vet", []string{"=== test:", "=== lint:", "=== typecheck:"}}, // a pass has no block to move
	}
	for _, tt := range tests {
		out := writeText(t, r, TextOptions{FirstFailure: tt.first})
		last := -1
		for _, h := range tt.order {
			i := strings.Index(out, h)
			if i <= last {
				t.Errorf("first=%q: %q out of order in:\n%s", tt.first, h, out)
			}
			last = i
		}
		if got := strings.Count(out, "first failure"); tt.first != "" && tt.first != "vet" && got != 1 {
			t.Errorf("first=%q: %d first-failure notes, want 1", tt.first, got)
		}
	}
}

func TestTextTailLines(t *testing.T) {
	var lines []string
	for i := 1; i <= 30; i++ {
		lines = append(lines, fmt.Sprintf("line %02d", i))
	}
	r := New("id", time.Now(), time.Second, []gates.Result{
		{Name: "t", Status: gates.StatusFail, ExitCode: 1, Reason: "exit status 1", Log: "t.log", Tail: strings.Join(lines, "\n") + "\n"},
	})
	tests := []struct {
		tailLines       int
		first, notShown string
	}{
		{0, "line 11", "10 earlier lines not shown; full output in t.log"},
		{3, "line 28", "27 earlier lines not shown"},
		{50, "line 01", ""},
		{-1, "", ""},
	}
	for _, tt := range tests {
		out := writeText(t, r, TextOptions{TailLines: tt.tailLines})
		shown := strings.Count(out, "    line ")
		switch {
		case tt.first == "" && shown != 0:
			t.Errorf("TailLines=%d: %d tail lines shown, want none", tt.tailLines, shown)
		case tt.first != "" && !strings.Contains(out, "    "+tt.first+"\n"):
			t.Errorf("TailLines=%d: first shown line should be %q:\n%s", tt.tailLines, tt.first, out)
		}
		if tt.first != "" && !strings.Contains(out, "    line 30\n") {
			t.Errorf("TailLines=%d: last line missing", tt.tailLines)
		}
		if tt.notShown != "" && !strings.Contains(out, tt.notShown) {
			t.Errorf("TailLines=%d: lacks %q", tt.tailLines, tt.notShown)
		}
		if tt.notShown == "" && strings.Contains(out, "not shown") {
			t.Errorf("TailLines=%d: nothing was cut but a note says so", tt.tailLines)
		}
	}
}

// A note that would hide one line costs as much as the line: the line is shown instead. One line
// the tail did not keep is said in the singular.
func TestTextNeverHidesASingleLine(t *testing.T) {
	five := "line 1\nline 2\nline 3\nline 4\nline 5\n"
	r := New("id", time.Now(), time.Second, []gates.Result{
		{Name: "t", Status: gates.StatusFail, ExitCode: 1, Log: "t.log", Tail: five},
	})
	out := writeText(t, r, TextOptions{TailLines: 4})
	if strings.Contains(out, "not shown") || !strings.Contains(out, "    line 1\n    line 2\n") {
		t.Errorf("one line hidden behind a note:\n%s", out)
	}
	// The tail kept 5 of the 6 lines printed: the one before it is gone, said in the singular.
	r = New("id", time.Now(), time.Second, []gates.Result{
		{Name: "t", Status: gates.StatusFail, ExitCode: 1, Log: "t.log", Tail: five, Lines: 6},
	})
	out = writeText(t, r, TextOptions{TailLines: 5})
	if !strings.Contains(out, "    ... 1 earlier line not shown; full output in t.log\n    line 1\n") {
		t.Errorf("want 1 earlier line not shown:\n%s", out)
	}
}

// The note counts the lines the gate printed, not the lines the tail happened to keep: a 305-line
// log whose tail kept 40 has 285 lines not shown under a 20-line summary.
func TestTextHiddenLinesCountFromTheLog(t *testing.T) {
	var lines []string
	for i := 266; i <= 305; i++ {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	r := New("id", time.Now(), time.Second, []gates.Result{
		{Name: "t", Status: gates.StatusFail, ExitCode: 1, Log: "t.log", Tail: strings.Join(lines, "\n"), Lines: 305},
	})
	out := writeText(t, r, TextOptions{})
	if !strings.Contains(out, "    ... 285 earlier lines not shown; full output in t.log\n    line 286\n") {
		t.Errorf("want 285 earlier lines not shown:\n%s", out)
	}
	// Read back from the JSON report, as `gauntlet status` does, the count is the same.
	var buf strings.Builder
	if err := WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"output_lines": 305`) {
		t.Errorf("JSON report lacks output_lines:\n%s", buf.String())
	}
}

func TestJSONCarriesTheCause(t *testing.T) {
	cause := &gates.Cause{ID: "disk-full", Summary: "the disk is full", Fix: "free disk space", Line: "write: no space left on device"}
	r := New("id", time.Now(), time.Second, []gates.Result{
		{Name: "build", Status: gates.StatusError, ExitCode: 1, Cause: cause},
		{Name: "test", Status: gates.StatusPass, ExitCode: 0},
	})
	var buf strings.Builder
	if err := WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	want := `"cause": {
        "id": "disk-full",
        "summary": "the disk is full",
        "fix": "free disk space",
        "line": "write: no space left on device"
      }`
	if !strings.Contains(buf.String(), want) || strings.Count(buf.String(), `"cause"`) != 1 {
		t.Errorf("JSON report:\n%s", buf.String())
	}
}

func TestTextVerdictLine(t *testing.T) {
	tests := []struct {
		results []gates.Result
		want    string
	}{
		{nil, "gauntlet: pass — no gates ran (2.0s)\n"},
		{[]gates.Result{{Name: "a", Status: gates.StatusPass}, {Name: "b", Status: gates.StatusWarn, Reason: "exit status 1"}},
			"\ngauntlet: warn — 1 warning, 1 passed (2.0s)\n"},
		{[]gates.Result{{Name: "a", Status: gates.StatusError, ExitCode: 127}, {Name: "b", Status: gates.StatusSkipped}},
			"\ngauntlet: error — 1 error, 1 skipped (2.0s)\n"},
	}
	for _, tt := range tests {
		out := writeText(t, New("id", time.Now(), 2*time.Second, tt.results), TextOptions{})
		if !strings.HasSuffix(out, tt.want) {
			t.Errorf("text ends %q, want suffix %q", out, tt.want)
		}
	}
}

func TestTextNeutralisesHostileOutput(t *testing.T) {
	r := New("id", time.Now(), time.Second, []gates.Result{
		{Name: "t", Status: gates.StatusFail, ExitCode: 1, Reason: "exit\x1b[2J status 1\nnext", Tail: "\x1b[2J\x1b[Hcleared\x07\n"},
	})
	out := writeText(t, r, TextOptions{Color: true})
	if strings.Contains(out, "\x1b[2J") || strings.Contains(out, "\x1b[H") || strings.Contains(out, "\x07") {
		t.Errorf("screen-clearing output reached the summary: %q", out)
	}
	if !strings.Contains(out, "exit status 1 next") || !strings.Contains(out, "    cleared\n") {
		t.Errorf("text lost the readable part: %q", out)
	}
}

func TestTextInterruptedVerdict(t *testing.T) {
	r := New("id", time.Now(), 2*time.Second, []gates.Result{
		{Name: "a", Status: gates.StatusPass}, {Name: "b", Status: gates.StatusCancelled, Reason: "cancelled"},
	})
	out := writeText(t, r, TextOptions{Interrupted: true})
	if !strings.HasSuffix(out, "\ngauntlet: interrupted — 1 passed, 1 cancelled (2.0s)\n") {
		t.Errorf("text ends %q, want the interrupted verdict", out)
	}
	if strings.Contains(out, "gauntlet: error") {
		t.Errorf("an interrupted run reads as an error: %q", out)
	}
}

// The summary offers `gauntlet fix` only for what the fixer mends (formatting), beside the hint.
func TestTextOffersTheFixerOnlyForWhatItMends(t *testing.T) {
	r := New("r", time.Time{}, time.Second, []gates.Result{
		{Name: "lint", Status: gates.StatusFail, ExitCode: 1, Reason: "exit status 1", Command: "golangci-lint run", Fix: "golangci-lint run --fix",
			Hint: "read each finding", Findings: []gates.Finding{{File: "a.go", Line: 3, Severity: "error", Message: "ineffectual assignment to err", Rule: "ineffassign"}}},
		{Name: "fmt", Status: gates.StatusFail, ExitCode: 1, Reason: "exit status 1", Command: "gofmt -l .", Fix: "gofmt -w .",
			Hint: "format with gofmt", Findings: []gates.Finding{{File: "a.go", Severity: "error", Message: "not formatted", Rule: "format"}}},
	})
	got := writeText(t, r, TextOptions{})
	if strings.Contains(got, "gauntlet fix lint") || !strings.Contains(got, "fix: gauntlet fix fmt") {
		t.Errorf("want the fixer offered for fmt only:\n%s", got)
	}
	if !strings.Contains(got, "hint: read each finding") || !strings.Contains(got, "hint: format with gofmt") {
		t.Errorf("hints missing:\n%s", got)
	}
}

// A run that took every gate without being asked says why, in one line above the verdict; a
// scoped run says nothing of the kind.
func TestTextSaysWhyEveryGateRan(t *testing.T) {
	results := []gates.Result{{Name: "a", Status: gates.StatusPass}}
	r := New("id", time.Now(), 2*time.Second, results)
	r.AllGatesBecause = "nothing changed against\x1b[2J main"
	out := writeText(t, r, TextOptions{})
	if !strings.HasSuffix(out, "\ngauntlet: nothing changed against main: every gate ran\ngauntlet: pass — 1 passed (2.0s)\n") {
		t.Errorf("text does not end with the reason and the verdict: %q", out)
	}
	if out := writeText(t, New("id", time.Now(), 2*time.Second, results), TextOptions{}); strings.Contains(out, "every gate ran") {
		t.Errorf("a scoped run says every gate ran: %q", out)
	}
}

// A gate's environment cause is said once, in its block: its row in the table, and its line in
// the live view, keep what the timeout or the exit said and leave the cause out.
func TestBriefReasonLeavesTheCauseToTheBlock(t *testing.T) {
	cause := &gates.Cause{ID: "cold-build-timeout", Summary: "most likely a cold first build", Fix: "run it once with more time"}
	for _, tt := range []struct {
		status gates.Status
		reason string
		cause  *gates.Cause
		want   string
	}{
		{gates.StatusError, "timed out after 1s; " + gates.CauseReason(*cause), cause, "timed out after 1s"},
		{gates.StatusError, gates.CauseReason(*cause), cause, "environment problem, said below"},
		{gates.StatusWarn, gates.CouldNotRun + gates.CauseReason(*cause), cause, "could not run: environment problem, said below"},
		{gates.StatusFail, "exit status 1", nil, "exit status 1"},
		{gates.StatusPass, "exit status 0", nil, ""},
	} {
		if got := briefReason(tt.status, tt.reason, tt.cause, false); got != tt.want {
			t.Errorf("briefReason(%q) = %q, want %q", tt.reason, got, tt.want)
		}
	}
}

// A failure measured against the base says on its row when it is not the change's.
func TestTextMarksBlame(t *testing.T) {
	results := []gates.Result{
		{Name: "lint", Status: gates.StatusFail, Reason: "exit status 1", Blame: gates.BlamePreExisting},
		{Name: "test", Status: gates.StatusFail, Reason: "exit status 1", Blame: gates.BlameFlaky},
		{Name: "vet", Status: gates.StatusFail, Reason: "exit status 2", Blame: gates.BlameRegression},
	}
	out := writeText(t, New("id", time.Now(), time.Second, results), TextOptions{})
	for _, want := range []string{"[pre-existing] exit status 1", "[flaky] exit status 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "[regression]") || strings.Contains(out, "] exit status 2") {
		t.Errorf("a regression is marked:\n%s", out)
	}
}

// A plain view has printed each gate's finish line already: its summary is one line per status,
// then the details of the gates needing attention, never a table that repeats every gate.
func TestTextByStatusRepeatsNoGate(t *testing.T) {
	out := writeText(t, fixtureReport(), TextOptions{ByStatus: true})
	for _, want := range []string{
		"fail       test\n",
		"warn       lint\n",
		"error      typecheck\n",
		"pass       vet\n",
		"cancelled  review\n",
		"skipped    docs (no changed file matches paths)\n",
		"=== test: fail",
		"log: .gauntlet/logs/20261121T093000Z-4f2a/test.log\n",
		"rerun: gauntlet run test\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary by status lacks %q:\n%s", want, out)
		}
	}
	// The passing gate is named once, on its status's line; its log and time are its finish line's.
	if strings.Count(out, "vet") != 1 || strings.Contains(out, "vet.log") {
		t.Errorf("a passing gate is repeated in the summary by status:\n%s", out)
	}
	if !strings.HasSuffix(out, "gauntlet: fail — 1 failed, 1 error, 1 warning, 1 passed, 1 skipped, 1 cancelled (1m05s)\n") {
		t.Errorf("the verdict line is not last:\n%s", out)
	}
}

// The honest twin: the summaries printed without finish lines before them (a terminal's, fix's,
// status's) keep one row per gate.
func TestTextTableByDefault(t *testing.T) {
	out := writeText(t, fixtureReport(), TextOptions{})
	if !strings.Contains(out, "(log: .gauntlet/logs/20261121T093000Z-4f2a/vet.log)") {
		t.Errorf("the table lost the passing gate's row:\n%s", out)
	}
}

// A timeout's cause (where its limit came from, what the gate printed) is said once, in the
// gate's block: the gate's one line says that it timed out and after how long, and the block does
// not add "(no output)" to a reason that says it printed nothing.
func TestTextTimeoutCauseSaidOnce(t *testing.T) {
	res := gates.Result{Name: "slow", Status: gates.StatusFail, TimedOut: true, Duration: 2 * time.Second,
		Reason: "timed out after 2s (the limit from --timeout); it printed nothing"}
	for _, byStatus := range []bool{false, true} {
		out := writeText(t, New("id", time.Now(), time.Second, []gates.Result{res}), TextOptions{ByStatus: byStatus})
		if got := strings.Count(out, "the limit from --timeout"); got != 1 {
			t.Errorf("ByStatus=%v: the limit's origin is said %d times, want once:\n%s", byStatus, got, out)
		}
		if !strings.Contains(out, "=== slow: fail (timed out after 2s (the limit from --timeout); it printed nothing)\n") {
			t.Errorf("ByStatus=%v: the block does not say the whole reason:\n%s", byStatus, out)
		}
		if strings.Contains(out, "(no output)") {
			t.Errorf("ByStatus=%v: says it printed nothing twice:\n%s", byStatus, out)
		}
	}
	// The live view's and a plain run's line for the gate.
	var b syncBuffer
	p := NewProgress(&b, ProgressOptions{Heartbeat: time.Hour})
	p.Start(gateList("slow"))
	p.Finished(res)
	p.Stop()
	if !strings.HasSuffix(b.String(), "fail       slow  2.0s  timed out after 2s\n") {
		t.Errorf("finish line:\n%s", b.String())
	}
}
