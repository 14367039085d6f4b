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
		"::error title=gauntlet%3A test::exit status 1%0Ahint: ",
		"::warning title=gauntlet%3A lint::exit status 1",
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
