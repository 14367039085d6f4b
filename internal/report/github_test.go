package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
)

func TestEscapeWorkflowCommands(t *testing.T) {
	tests := []struct {
		in, data, property string
	}{
		{"plain", "plain", "plain"},
		{"100%", "100%25", "100%25"},
		{"a\r\nb", "a%0D%0Ab", "a%0D%0Ab"},
		{"gauntlet: a,b", "gauntlet: a,b", "gauntlet%3A a%2Cb"},
		{"%0A", "%250A", "%250A"},
	}
	for _, tt := range tests {
		if got := escapeData(tt.in); got != tt.data {
			t.Errorf("escapeData(%q) = %q, want %q", tt.in, got, tt.data)
		}
		if got := escapeProperty(tt.in); got != tt.property {
			t.Errorf("escapeProperty(%q) = %q, want %q", tt.in, got, tt.property)
		}
	}
}

func TestGitHubAnnotatesOnlyGatesNeedingAttention(t *testing.T) {
	var b bytes.Buffer
	if err := WriteGitHub(&b, fixtureReport()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"::group::gauntlet: test (fail)\n",
		// Gates with findings are annotated on their findings' lines, their hint kept in the group.
		"::error file=pkg/x_test.go,line=12,title=gauntlet%3A test (TestX)::got <nil> & want \"a|b\"%0Asecond line\n",
		"::warning file=dir with space/main.go,line=3,col=1,title=gauntlet%3A lint (revive%2C%25)::exported func Foo should have comment\n",
		"hint: Run `go test -run TestX ./pkg` to iterate.\nrerun: gauntlet run test\n",
		"::error title=gauntlet%3A typecheck::exit status 127: command not found\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, name := range []string{"vet", "review", "docs"} {
		if strings.Contains(out, "gauntlet: "+name) || strings.Contains(out, "gauntlet%3A "+name) {
			t.Errorf("gate %s needs no attention but is in the output", name)
		}
	}
	if got, want := strings.Count(out, "::group::"), strings.Count(out, "::endgroup::\n::"); got != want {
		t.Errorf("%d groups but %d closing endgroups", got, want)
	}
}

// TestGitHubTailCannotIssueCommands checks that gate output is fenced by stop-commands with a
// token it does not contain, so a "::endgroup::" or "::add-mask::" in it stays inert.
func TestGitHubTailCannotIssueCommands(t *testing.T) {
	tail := "::endgroup::\n::error::forged\n::add-mask::secret\n"
	r := New("id", time.Now(), time.Second, []gates.Result{{Name: "t", Status: gates.StatusFail, ExitCode: 1, Reason: "exit status 1", Tail: tail}})
	var b bytes.Buffer
	if err := WriteGitHub(&b, r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	m := regexp.MustCompile(`::stop-commands::(\S+)\n`).FindStringSubmatchIndex(out)
	if m == nil {
		t.Fatalf("no stop-commands line in:\n%s", out)
	}
	token := out[m[2]:m[3]]
	fenced, _, closed := strings.Cut(out[m[1]:], "::"+token+"::\n")
	if !closed {
		t.Fatalf("commands never resumed with token %q:\n%s", token, out)
	}
	if fenced != tail {
		t.Errorf("fenced part = %q, want exactly the tail %q", fenced, tail)
	}
	if !strings.Contains(out[m[1]+len(fenced):], "::endgroup::") {
		t.Errorf("no endgroup after the fence:\n%s", out)
	}
}

func TestGitHubEscapesMessages(t *testing.T) {
	r := New("id", time.Now(), time.Second, []gates.Result{{Name: "t", Status: gates.StatusError, ExitCode: 1, Reason: "100% broken\nsecond line"}})
	var b bytes.Buffer
	if err := WriteGitHub(&b, r); err != nil {
		t.Fatal(err)
	}
	if want := "::error title=gauntlet%3A t::100%25 broken second line\n"; !strings.Contains(b.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, b.String())
	}
}

func TestStepSummary(t *testing.T) {
	r := New("id", time.Now(), time.Second, []gates.Result{
		{Name: "t", Status: gates.StatusFail, ExitCode: 1, Reason: `a|b\|c <script>`, Tail: "```\n</details>\n"},
		{Name: "ok", Status: gates.StatusPass, ExitCode: 0, Reason: "exit status 0"},
	})
	var b bytes.Buffer
	if err := StepSummary(&b, r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.HasPrefix(out, "### gauntlet: fail\n") {
		t.Errorf("summary must start with the verdict:\n%s", out)
	}
	for _, want := range []string{
		"| gate | status | duration | reason |",
		`| t | fail | 0ms | a\|b\\\|c &lt;script&gt; |`,
		"| ok | pass | 0ms |  |",
		"````text\n```\n</details>\n````\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
}

func TestCodeFence(t *testing.T) {
	tests := map[string]string{"": "```", "a`b``c": "```", "````": "`````"}
	for in, want := range tests {
		if got := codeFence(in); got != want {
			t.Errorf("codeFence(%q) = %q, want %q", in, got, want)
		}
	}
}

// GitHub keeps 10 error and 10 warning annotations per step: every failing gate gets one before
// any gets a second, errors come before warnings, and what is left out is counted.
func TestGitHubAnnotationLimits(t *testing.T) {
	many := func(n int, sev, file string) []gates.Finding {
		var fs []gates.Finding
		for i := 1; i <= n; i++ {
			fs = append(fs, gates.Finding{File: file, Line: i, Severity: sev, Message: "m"})
		}
		return fs
	}
	results := []gates.Result{
		{Name: "big", Status: gates.StatusFail, Findings: append(many(30, "warning", "w.go"), many(15, "error", "e.go")...)},
		{Name: "small", Status: gates.StatusFail, Findings: many(1, "error", "s.go")},
		{Name: "bare", Status: gates.StatusFail, Reason: "exit status 1"},
	}
	var b bytes.Buffer
	if err := WriteGitHub(&b, New("id", time.Now(), 0, results)); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if n := strings.Count(out, "::error "); n != 10 {
		t.Errorf("%d error annotations, want 10:\n%s", n, out)
	}
	if n := strings.Count(out, "::warning "); n != 10 {
		t.Errorf("%d warning annotations, want 10", n)
	}
	for _, want := range []string{
		"::error title=gauntlet%3A bare::exit status 1\n",
		"::error file=s.go,line=1,title=gauntlet%3A small::m\n",
		"::error file=e.go,line=1,title=gauntlet%3A big::m\n",
		// 15 errors and 30 warnings, of which 8 errors and 10 warnings are annotated.
		"gauntlet: big: 27 more findings not annotated",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	var sum bytes.Buffer
	if err := StepSummary(&sum, New("id", time.Now(), 0, results)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sum.String(), "**big**: 15 errors, 30 warnings (27 not annotated") {
		t.Errorf("step summary lacks the count:\n%s", sum.String())
	}
}

func TestGitHubLeavesPassingGatesFindingsOut(t *testing.T) {
	results := []gates.Result{{Name: "eslint", Status: gates.StatusPass,
		Findings: []gates.Finding{{File: "a.js", Line: 1, Severity: "warning", Message: "console"}}}}
	var b bytes.Buffer
	if err := WriteGitHub(&b, New("id", time.Now(), 0, results)); err != nil {
		t.Fatal(err)
	}
	if b.Len() != 0 {
		t.Errorf("a passing gate is annotated:\n%s", b.String())
	}
}
