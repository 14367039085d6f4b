package runner

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

func windowOf(output string) *gates.Excerpt {
	var w errorWindow
	for line := range strings.SplitSeq(strings.TrimSuffix(output, "\n"), "\n") {
		w.line([]byte(line))
	}
	return w.excerpt()
}

// The shape of cobra's failing run: a test failure, then hundreds of lines of usage text that
// other tests print, some of them "Error:" lines of their own.
func noisyGoTest() string {
	var b strings.Builder
	b.WriteString("Error: unknown command \"nope\" for \"root\"\nRun 'root --help' for usage.\n")
	for i := range 30 {
		fmt.Fprintf(&b, "setup line %d\n", i)
	}
	b.WriteString("--- FAIL: TestNoArgsWithArgs (0.00s)\n    args_test.go:95: expected an error, got none\n")
	for i := range 300 {
		fmt.Fprintf(&b, "  -h, --help   help for root (usage line %d)\n", i)
	}
	b.WriteString("FAIL\nFAIL\tgithub.com/spf13/cobra\t0.412s\nFAIL\n")
	return b.String()
}

func TestErrorWindowPrefersAFailureOverAnEarlierErrorLine(t *testing.T) {
	ex := windowOf(noisyGoTest())
	if ex == nil {
		t.Fatal("no excerpt")
	}
	if ex.Match != 33 || ex.Start != 25 {
		t.Errorf("match line %d starting at %d, want 33 from 25", ex.Match, ex.Start)
	}
	if got := ex.Lines[ex.Match-ex.Start]; got != "--- FAIL: TestNoArgsWithArgs (0.00s)" {
		t.Errorf("matched line %q", got)
	}
	if got := ex.Lines[ex.Match-ex.Start+1]; got != "    args_test.go:95: expected an error, got none" {
		t.Errorf("line after the match %q", got)
	}
	if len(ex.Lines) != excerptBefore+1+excerptAfter {
		t.Errorf("%d lines kept, want %d", len(ex.Lines), excerptBefore+1+excerptAfter)
	}
}

func TestErrorWindowFallsBackToTheFirstErrorLine(t *testing.T) {
	out := "compiling\n# example.com/app\nvet: ./cobra.go:249:22: fmt.Sprintf format %d has arg of wrong type\nmore\n"
	ex := windowOf(out)
	if ex == nil || ex.Match != 3 || ex.Start != 1 || len(ex.Lines) != 4 {
		t.Fatalf("excerpt %+v", ex)
	}
}

func TestErrorWindowSeesVerboseGoTestContext(t *testing.T) {
	out := "=== RUN   TestParse\n    parse_test.go:42: got 3, want 4\n--- FAIL: TestParse (0.00s)\nFAIL\n"
	ex := windowOf(out)
	if ex == nil || ex.Start != 1 || ex.Match != 3 || ex.Lines[1] != "    parse_test.go:42: got 3, want 4" {
		t.Fatalf("excerpt %+v", ex)
	}
}

func TestErrorWindowNothingToFind(t *testing.T) {
	for _, out := range []string{"", "ok  \texample.com/app\t0.1s\n", strings.Repeat("   Compiling serde v1.0\n", 500), "level=warning msg=\"slow\"\n"} {
		if ex := windowOf(out); ex != nil {
			t.Errorf("excerpt of %q: %+v", out[:min(len(out), 40)], ex)
		}
	}
}

func TestErrorWindowRecognisesCommonTools(t *testing.T) {
	for _, line := range []string{
		"--- FAIL: TestX (0.00s)",
		"    --- FAIL: TestX/sub (0.00s)",
		"FAIL\texample.com/app\t0.1s",
		"FAIL src/app.test.ts > adds",
		"FAILED tests/test_a.py::test_add - assert 2 == 3",
		"E       assert 2 == 3",
		"_________________________________ test_add _________________________________",
		"panic: runtime error: index out of range [3] with length 3",
		"thread 'tests::adds' panicked at src/lib.rs:7:17:",
		"test tests::adds ... FAILED",
		" × adds 2ms",
		"  ✗ adds",
		"  ● Math › adds",
		"not ok 1 - adds",
		"  1) [chromium] › example.spec.ts:3:5 › has title ───",
		"AssertionError: 2 != 3",
		"Traceback (most recent call last):",
		"error[E0308]: mismatched types",
		"error: could not compile `app` (lib) due to 1 previous error",
		"Error: Cannot find module './x'",
		"TypeError: x is not a function",
		"src/app.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
		"main.c:3:5: error: expected ';'",
		"./main.go:5:2: undefined: x",
		"  3:1  error  'x' is defined but never used  no-unused-vars",
	} {
		if ex := windowOf(line); ex == nil {
			t.Errorf("%q not recognised", line)
		}
	}
	for _, line := range []string{
		"  3:1  warning  Unexpected console statement  no-console",
		"PASS src/app.test.ts",
		"ok  \texample.com/app\t0.1s",
		"=== RUN   TestX",
		"    x_test.go:12: debug value 3",
		"  -h, --help   help for error handling",
		"the errors package wraps",
	} {
		if ex := windowOf(line); ex != nil {
			t.Errorf("%q taken for an error", line)
		}
	}
}

func TestErrorWindowBoundsLongLines(t *testing.T) {
	long := strings.Repeat("é", 100_000)
	ex := windowOf(long + "\n--- FAIL: TestX " + long + "\n" + long + "\n")
	if ex == nil || len(ex.Lines) != 3 {
		t.Fatalf("excerpt %+v", ex)
	}
	for _, l := range ex.Lines {
		if len(l) > excerptLineBytes || !strings.HasSuffix(l, "…") {
			t.Errorf("line of %d bytes, suffix %q", len(l), l[max(0, len(l)-5):])
		}
	}
	// Many long lines after the failure: the excerpt stops at its byte cap.
	ex = windowOf("--- FAIL: TestX\n" + strings.Repeat(long+"\n", 100))
	size := 0
	for _, l := range ex.Lines {
		size += len(l) + 1
	}
	if size > excerptMaxBytes || len(ex.Lines) < 2 {
		t.Errorf("excerpt of %d lines, %d bytes; cap %d", len(ex.Lines), size, excerptMaxBytes)
	}
}

// Through a real gate: the result counts every line the gate printed (trailing blank lines
// aside) and carries the excerpt, whatever the tail kept.
func TestRunCountsLinesAndKeepsTheFirstFailure(t *testing.T) {
	opts := testOptions(t)
	script := `echo start; echo '--- FAIL: TestX (0.00s)'; echo '    x_test.go:9: boom'; i=0; while [ $i -lt 500 ]; do echo "noise $i"; i=$((i+1)); done; echo; echo; exit 1`
	res := Run(context.Background(), []gates.Gate{shellGate("t", script)}, opts)[0]
	if res.Lines != 503 {
		t.Errorf("Lines = %d, want 503", res.Lines)
	}
	if res.Excerpt == nil || res.Excerpt.Match != 2 || res.Excerpt.Lines[2] != "    x_test.go:9: boom" {
		t.Fatalf("excerpt %+v", res.Excerpt)
	}
	if strings.Contains(res.Tail, "FAIL") {
		t.Error("test premise: the tail should have lost the failure")
	}
}
