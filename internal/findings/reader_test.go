package findings

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/baseline"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

func feed(t *testing.T, spec Spec, opts Options, lines ...string) (*Reader, gates.Outcome) {
	t.Helper()
	r := NewReader(spec, opts)
	for _, l := range lines {
		r.Line([]byte(l))
	}
	var o gates.Outcome
	r.Finish(&o)
	return r, o
}

func mustParse(t *testing.T, format ...string) Spec {
	t.Helper()
	s, err := Parse(format)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Past the cap, an error still displaces a warning, and the findings stay in printed order.
func TestCapKeepsErrorsOverWarnings(t *testing.T) {
	var lines []string
	for i := 1; i <= 50; i++ {
		lines = append(lines, fmt.Sprintf("a.c:%d:1: warning: w%d", i, i))
	}
	lines = append(lines, "a.c:99:1: error: the one that matters")
	r, o := feed(t, mustParse(t, "gcc"), Options{Max: 10}, lines...)
	if len(o.Findings) != 10 {
		t.Fatalf("kept %d findings, want 10", len(o.Findings))
	}
	last := o.Findings[9]
	if last.Severity != "error" || last.Line != 99 {
		t.Errorf("last kept = %+v, want the error on line 99", last)
	}
	if o.Findings[0].Line != 1 || r.Dropped() != 41 {
		t.Errorf("first = %+v, dropped = %d; want line 1 first and 41 dropped", o.Findings[0], r.Dropped())
	}
}

func TestMessagesAndLinesAreBounded(t *testing.T) {
	long := strings.Repeat("x", 100<<10)
	_, o := feed(t, mustParse(t, "generic"), Options{}, "a.txt:1: "+long, "b.txt:2: "+strings.Repeat("y", 5000))
	if len(o.Findings) != 1 {
		// The first line is cut to maxLineBytes before parsing, which still leaves a finding;
		// both must be present and capped.
		t.Logf("findings: %d", len(o.Findings))
	}
	for _, f := range o.Findings {
		if len(f.Message) > MaxMessageBytes {
			t.Errorf("message of %d bytes, want at most %d", len(f.Message), MaxMessageBytes)
		}
	}
}

func TestRepeatsAreKeptOnce(t *testing.T) {
	// go vet inside go test, read by both the go and gotest parsers.
	_, o := feed(t, Detect([]string{"go", "vet", "&&", "go", "test"}), Options{}, "x.go:3:2: undefined: y")
	if len(o.Findings) != 1 {
		t.Errorf("findings = %+v, want one", o.Findings)
	}
}

func TestPathsRelativeToTheRoot(t *testing.T) {
	_, o := feed(t, mustParse(t, "generic"), Options{Root: "/repo", Dir: "web"},
		"src/a.ts:1:2: e1", "/repo/web/src/b.ts:3:4: e2", "/elsewhere/c.ts:5: e3", "./d.ts:6: e4", "../up.ts:7: e5")
	var got []string
	for _, f := range o.Findings {
		got = append(got, f.File)
	}
	want := []string{"web/src/a.ts", "web/src/b.ts", "/elsewhere/c.ts", "web/d.ts", "up.ts"}
	if !slices.Equal(got, want) {
		t.Errorf("files = %q, want %q", got, want)
	}
}

// settled feeds lines to a new_only reader and settles it as the runner would, for a gate that
// exited 1.
func settled(t *testing.T, spec Spec, opts Options, lines ...string) gates.Outcome {
	t.Helper()
	r, o := feed(t, spec, opts, lines...)
	o.ExitCode = 1
	r.Settle(context.Background(), &o)
	return o
}

func TestNewOnly(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"web/a.go", "web/b.go"} {
		if err := os.MkdirAll(filepath.Join(root, "web"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), []byte("package web\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	patch := []byte("diff --git a/web/a.go b/web/a.go\n--- a/web/a.go\n+++ b/web/a.go\n@@ -4,0 +5,2 @@\n+x\n+y\n")
	change := snapshot.ParsePatch(patch)
	added, lines := change.Added(), change.LineMap()
	// The base (its own root) failed with "old problem" on a.go:7, now line 9, and b.go:1.
	base := func(failed bool) func(context.Context) (*baseline.Set, error) {
		return func(context.Context) (*baseline.Set, error) {
			set := baseline.NewSet("the merge-base 0123", failed)
			set.Add(gates.Finding{File: "web/a.go", Line: 7, Message: "old problem"}, "/base")
			set.Add(gates.Finding{File: "web/b.go", Line: 1, Message: "untouched file"}, "/base")
			set.Add(gates.Finding{File: "web/a.go", Message: "not formatted", Rule: "format"}, "/base")
			set.Lines, set.Root = lines, root
			return set, nil
		}
	}
	opts := Options{Root: root, Dir: "web", Added: added, Base: base(true)}
	o := settled(t, mustParse(t, "go"), opts,
		"a.go:5:1: new problem", "a.go:9:1: old problem", "b.go:1:1: untouched file", "b.go:2:1: new in an untouched line")
	if len(o.Findings) != 2 || o.Findings[0].Line != 5 || o.Findings[1].Line != 2 || o.IgnoredFindings != 2 ||
		o.NewOnlyBase != "the merge-base 0123" {
		t.Errorf("findings = %+v, ignored = %d; want lines 5 and b.go:2, and 2 ignored", o.Findings, o.IgnoredFindings)
	}
	// Until settled, the findings outside the change are not findings, nor ignored: they wait.
	_, o = feed(t, mustParse(t, "go"), opts, "a.go:9:1: old problem")
	if len(o.Findings) != 0 || o.IgnoredFindings != 0 {
		t.Errorf("before Settle: %+v, ignored %d", o.Findings, o.IgnoredFindings)
	}
	// The base passed: nothing is excused, and the reason says why.
	o = settled(t, mustParse(t, "go"), Options{Root: root, Dir: "web", Added: added, Base: base(false)}, "a.go:9:1: old problem")
	if len(o.Findings) != 1 || o.IgnoredFindings != 0 || !strings.Contains(o.NewOnlyNote, "passes at the merge-base 0123") {
		t.Errorf("a base that passed: %+v, ignored %d, note %q", o.Findings, o.IgnoredFindings, o.NewOnlyNote)
	}
	// No base to ask, or the base could not be judged: every finding counts.
	o = settled(t, mustParse(t, "go"), Options{Root: root, Dir: "web", Added: added}, "a.go:9:1: old problem")
	if len(o.Findings) != 1 || o.IgnoredFindings != 0 {
		t.Errorf("no base: %+v", o.Findings)
	}
	o = settled(t, mustParse(t, "go"), Options{Root: root, Dir: "web", Added: added,
		Base: func(context.Context) (*baseline.Set, error) { return nil, errors.New("the base timed out") }}, "a.go:9:1: old problem")
	if len(o.Findings) != 1 || !strings.Contains(o.NewOnlyNote, "the base timed out") {
		t.Errorf("base error: %+v %q", o.Findings, o.NewOnlyNote)
	}
	// A gate that passed is not compared: its findings are reported as they are.
	r, o := feed(t, mustParse(t, "go"), opts, "a.go:9:1: old problem")
	r.Settle(context.Background(), &o)
	if len(o.Findings) != 1 || o.IgnoredFindings != 0 {
		t.Errorf("a pass: %+v", o.Findings)
	}
	// A file-level finding of the base matches the same file-level finding now.
	o = settled(t, Detect([]string{"gofmt", "-l", "."}), opts, "a.go", "b.go")
	if len(o.Findings) != 1 || o.Findings[0].File != "web/b.go" || o.IgnoredFindings != 1 {
		t.Errorf("gofmt findings = %+v, ignored = %d", o.Findings, o.IgnoredFindings)
	}
	// A failing test the base does not have counts, with or without a location.
	o = settled(t, mustParse(t, "gotest"), opts, "--- FAIL: TestX (0.00s)", "FAIL")
	if len(o.Findings) != 1 || o.IgnoredFindings != 0 {
		t.Errorf("a failing test without a location must stay: %+v", o.Findings)
	}
	// A "file" that is not in the project cannot be attributed to the change: it is compared too.
	o = settled(t, mustParse(t, "generic"), opts, "vendor/x.go:3: not ours", "b.go:1: untouched file")
	if len(o.Findings) != 1 || o.Findings[0].File != "web/vendor/x.go" || o.IgnoredFindings != 1 {
		t.Errorf("findings = %+v, ignored = %d; want the missing file kept", o.Findings, o.IgnoredFindings)
	}
}

func TestGenericTellsPathsFromHosts(t *testing.T) {
	_, o := feed(t, mustParse(t, "generic"), Options{},
		"10.0.0.1:8080: connection refused", "v1.2:3: nope", "Makefile.am:4: x", "src/x:5: y")
	var got []string
	for _, f := range o.Findings {
		got = append(got, f.File)
	}
	if want := []string{"Makefile.am", "src/x"}; !slices.Equal(got, want) {
		t.Errorf("files = %q, want %q", got, want)
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		command string
		want    []string
	}{
		{"go vet ./...", []string{"go"}},
		{"go test -race ./...", []string{"gotest"}},
		{"go vet ./... && go test ./...", []string{"go", "gotest"}},
		{"gotestsum --format pkgname -- ./...", []string{"gotest"}},
		{"gofmt -l .", []string{"gofmt"}},
		{"gofmt -d .", []string{"generic"}},
		{"golangci-lint run", []string{"go"}},
		{"npx eslint .", []string{"eslint"}},
		{"pnpm exec tsc --noEmit", []string{"tsc"}},
		{"npx vitest run", []string{"vitest"}},
		{"./node_modules/.bin/jest", []string{"jest"}},
		{"ruff check . && mypy src", []string{"ruff", "mypy"}},
		{"python -m pytest -q", []string{"pytest"}},
		{"cargo clippy -- -D warnings", []string{"rust"}},
		{"shellcheck -f gcc *.sh", []string{"shellcheck"}},
		{"make lint", []string{"generic"}},
	}
	for _, tt := range tests {
		got := Detect(commandWords(gates.Gate{Run: tt.command})).Names()
		if !slices.Equal(got, tt.want) {
			t.Errorf("Detect(%q) = %q, want %q", tt.command, got, tt.want)
		}
	}
	if got := For(gates.Gate{Argv: []string{"/usr/bin/pytest", "-x"}}).Names(); !slices.Equal(got, []string{"pytest"}) {
		t.Errorf("argv detection = %q", got)
	}
	if r := NewReader(For(gates.Gate{Run: "go test", Format: []string{"none"}}), Options{}); r != nil {
		t.Errorf("format none must read nothing")
	}
}

func TestParse(t *testing.T) {
	for _, ok := range [][]string{{"go"}, {"clippy"}, {"flake8"}, {"%f:%l: %m"}, {"%E%f:%l: %m", "%C%m", "%Z"}} {
		if _, err := Parse(ok); err != nil {
			t.Errorf("Parse(%q): %v", ok, err)
		}
	}
	for _, bad := range [][]string{{"nosuchtool"}, {"%f:%l:%[: %m"}, {}} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) succeeded", bad)
		}
	}
}

// A multi-line errorformat: %E starts, %C continues, %Z ends; %P/%Q push and pop the file.
func TestErrorformatMultiline(t *testing.T) {
	_, o := feed(t, mustParse(t, `%E%f:%l: error: %m`, `%C  %m`, `%Z--`, `%-G%.%#`), Options{},
		"a.py:3: error: first line", "  second line", "--", "noise", "b.py:4: error: alone")
	want := []gates.Finding{
		{File: "a.py", Line: 3, Severity: "error", Message: "first line\nsecond line"},
		{File: "b.py", Line: 4, Severity: "error", Message: "alone"},
	}
	if !slices.Equal(o.Findings, want) {
		t.Errorf("findings = %+v\nwant %+v", o.Findings, want)
	}
	_, o = feed(t, mustParse(t, "eslint-compact"), Options{}, "x.js: line 1, col 2, Warning - careful")
	if len(o.Findings) != 1 || o.Findings[0].Severity != "warning" {
		t.Errorf("catalogue format findings = %+v", o.Findings)
	}
}

// go test prints a package's files by base name; the package's place in the module, and the
// module's place relative to the gate's dir, make them root-relative.
func TestGoTestPackageDirs(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "cmd", "tool"), 0o755); err != nil {
		t.Fatal(err)
	}
	out := []string{"--- FAIL: TestA (0.00s)", "    a_test.go:3: bad", "FAIL", "FAIL\texample.com/m/cmd/tool\t0.01s"}
	for _, dir := range []string{"", "cmd", "cmd/tool"} {
		_, o := feed(t, mustParse(t, "gotest"), Options{Root: root, Dir: dir}, out...)
		if len(o.Findings) != 1 || o.Findings[0].File != "cmd/tool/a_test.go" {
			t.Errorf("dir %q: findings %+v, want cmd/tool/a_test.go", dir, o.Findings)
		}
	}
}

type panicky struct{ n int }

func (p *panicky) line(s string) {
	p.n++
	if p.n == 2 {
		panic("parser bug")
	}
}
func (p *panicky) flush() { panic("flush bug") }

// A parser bug must not take gauntlet down from the goroutine draining a gate's output.
func TestParserPanicIsContained(t *testing.T) {
	spec := Spec{parsers: []makeParser{
		newGoParser,
		func(emit emitFunc, _ Options) parser { return &panicky{} },
	}}
	_, o := feed(t, spec, Options{}, "a.go:1:1: kept", "a.go:2:1: panics here", "a.go:3:1: not read")
	if len(o.Findings) != 2 || o.Findings[0].Line != 1 {
		t.Errorf("findings = %+v, want the ones read before the panic", o.Findings)
	}
}

// Four failing tests that share one assertion line (a table-driven helper) are four findings,
// one per test, even when two print the same message: the agent must fix every one of them.
func TestOneFindingPerFailingTest(t *testing.T) {
	_, o := feed(t, Detect([]string{"go", "test", "./..."}), Options{},
		"--- FAIL: TestA (0.00s)",
		"    util_test.go:12: got 1, want 2",
		"--- FAIL: TestB (0.00s)",
		"    util_test.go:12: got 1, want 2",
		"--- FAIL: TestC (0.00s)",
		"    util_test.go:12: got 3, want 2",
		"--- FAIL: TestD (0.00s)",
		"    util_test.go:12: got 1, want 2",
		"FAIL",
		"FAIL\texample.com/m\t0.01s",
	)
	var rules []string
	for _, f := range o.Findings {
		rules = append(rules, f.Rule)
	}
	if !slices.Equal(rules, []string{"TestA", "TestB", "TestC", "TestD"}) {
		t.Errorf("findings = %+v, want one per test", o.Findings)
	}
}

// A cause never hides failures it does not explain: they are compared with the base run under the
// same environment, and those the base does not have take the cause away.
func TestCauseExplainsOnlyTheBasesFailures(t *testing.T) {
	root := t.TempDir()
	cause := &gates.Cause{ID: "playwright-browsers-missing", Summary: "Playwright's browsers are not installed"}
	base := func(causeID string, failed bool, err error) func(context.Context, string) (*baseline.Set, error) {
		return func(_ context.Context, asked string) (*baseline.Set, error) {
			if asked != cause.ID {
				t.Errorf("asked for the base under %q, want %q", asked, cause.ID)
			}
			if err != nil {
				return nil, err
			}
			set := baseline.NewSet("the merge-base 0123", failed)
			set.Cause = causeID
			set.Add(gates.Finding{File: "browser_test.go", Line: 5, Rule: "TestBrowser", Message: "launch failed", Severity: SeverityError}, "/base")
			set.Root = root
			return set, nil
		}
	}
	lines := []string{"--- FAIL: TestBrowser (0.00s)", "    browser_test.go:5: launch failed"}
	broken := append(slices.Clone(lines), "--- FAIL: TestF (0.00s)", "    lib_test.go:6: F() = 2, want 1")
	run := func(opts Options, out ...string) gates.Outcome {
		t.Helper()
		r, o := feed(t, mustParse(t, "gotest"), opts, out...)
		o.ExitCode, o.Cause = 1, cause
		r.Settle(context.Background(), &o)
		return o
	}
	for _, tc := range []struct {
		name     string
		set      func(context.Context, string) (*baseline.Set, error)
		out      []string
		stands   bool
		rejected string
	}{
		{"the base fails the same way", base(cause.ID, true, nil), lines, true, ""},
		{"one failure more than the base", base(cause.ID, true, nil), broken, false, "1 of 2 failures did not happen at the merge-base 0123"},
		{"the base passes", base("", false, nil), lines, false, "the gate passes at the merge-base 0123 under the same environment"},
		{"the base fails by its exit code", base("", true, nil), lines, false, "fails by its exit code at the merge-base 0123"},
		{"the base could not be judged here", base("", false, errors.New("another cause")), broken, true, ""},
		{"no failures to compare", base("", false, nil), []string{"some output"}, true, ""},
	} {
		o := run(Options{Root: root, Gate: gates.Gate{Name: "e2e"}, SameEnvironment: tc.set}, tc.out...)
		if got := o.Cause != nil; got != tc.stands {
			t.Errorf("%s: cause stands = %v, want %v (rejected: %q)", tc.name, got, tc.stands, o.CauseRejected)
		}
		if !strings.Contains(o.CauseRejected, tc.rejected) || (tc.rejected == "") != (o.CauseRejected == "") {
			t.Errorf("%s: rejected = %q, want it to say %q", tc.name, o.CauseRejected, tc.rejected)
		}
	}
	// Without the comparison, the cause stands whatever the failures.
	if o := run(Options{Root: root}, broken...); o.Cause == nil {
		t.Error("no base to ask: the cause must stand")
	}
}

// What a tool reports in gauntlet's own state directory (a log of an earlier run, the last
// report) is not the project's: never a finding; and a failure with nothing else to show is the
// cause's, not the code's. From a gate run from a subdirectory too, and only where causes apply.
func TestOwnStateIsNotTheProjects(t *testing.T) {
	read := func(opts Options, lines ...string) gates.Outcome {
		r := NewReader(mustParse(t, "generic"), opts)
		for _, l := range lines {
			r.Line([]byte(l))
		}
		o := gates.Outcome{ExitCode: 65}
		r.Finish(&o)
		return o
	}
	withCauses := Options{Root: "/repo", Gate: gates.Gate{Causes: true}}
	o := read(withCauses, "./.gauntlet/logs/20261126T135133Z-5773/spelling.log:1: teh ==> the",
		"./.gauntlet/last-run.json:17: teh ==> the", "./notes.txt:1: teh ==> the")
	if len(o.Findings) != 1 || o.Findings[0].File != "notes.txt" || o.Cause != nil {
		t.Errorf("findings = %+v, cause = %+v; want notes.txt alone, no cause", o.Findings, o.Cause)
	}
	o = read(Options{Root: "/repo", Dir: "docs", Gate: gates.Gate{Causes: true}}, "../.gauntlet/last-run.json:17: teh ==> the")
	if len(o.Findings) != 0 || o.Cause == nil || o.Cause.ID != CauseOwnState || o.Cause.Line != ".gauntlet/last-run.json:17: teh ==> the" {
		t.Errorf("findings = %+v, cause = %+v; want none, and the cause %s", o.Findings, o.Cause, CauseOwnState)
	}
	if o = read(Options{Root: "/repo"}, "./.gauntlet/last-run.json:17: teh ==> the"); len(o.Findings) != 0 || o.Cause != nil {
		t.Errorf("causes off: findings = %+v, cause = %+v; want neither", o.Findings, o.Cause)
	}
	if o = read(withCauses, "./.gauntlet-notes/a.txt:1: teh ==> the"); len(o.Findings) != 1 || o.Cause != nil {
		t.Errorf("a directory that only starts like it: findings = %+v, cause = %+v", o.Findings, o.Cause)
	}
}
