package review

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Claude Code prints its result as one long line, with `result` near its end: the line is cut in
// the log's tail, so the reason and the lines must say what the model answered.
func TestNoVerdictKeepsClaudesAnswer(t *testing.T) {
	usage := `"usage":{"input_tokens":3,"cache_creation_input_tokens":12000,"output_tokens":40,"server_tool_use":{"web_search_requests":0},"service_tier":"standard"},` +
		strings.Repeat(`"modelUsage_padding":"`+strings.Repeat("x", 90)+`",`, 14)
	line := `{"type":"result","subtype":"success","is_error":false,"duration_ms":5100,"num_turns":2,` + usage +
		`"result":"Looks good to me! The change is small and correct.","session_id":"0e6a","total_cost_usd":0.02}`
	if !(len(line) > 1500) {
		t.Fatalf("the line is not as long as Claude's: %d", len(line))
	}
	j := newJob(claudeCLI{}).Judge(0, []byte(line+"\n"))
	want := `no verdict from claude: no parseable verdict in its answer: "Looks good to me! The change is small and correct."`
	if j.Status != "error" || j.Reason != want {
		t.Errorf("reason %q, want %q", j.Reason, want)
	}
	if !containsLine(j.Lines, "  Looks good to me! The change is small and correct.") {
		t.Errorf("lines do not keep the answer: %q", j.Lines)
	}

	empty := `{"type":"result","subtype":"success","is_error":false,"duration_ms":900,"num_turns":1,"result":"","session_id":"0e6a"}`
	if j := newJob(claudeCLI{}).Judge(0, []byte(empty)); j.Reason != "no verdict from claude: its answer was empty" {
		t.Errorf("empty answer: %q", j.Reason)
	}
}

// Gemini CLI prints many lines of JSON with `response` near the top.
func TestNoVerdictKeepsGeminisAnswer(t *testing.T) {
	out := "{\n  \"session_id\": \"x\",\n  \"response\": \"The change looks fine overall.\\nNothing to add.\",\n  \"stats\": {\n" +
		strings.Repeat("    \"k\": 1,\n", 90) + "    \"end\": 0\n  }\n}\n"
	j := newJob(geminiCLI{}).Judge(0, []byte(out))
	want := `no verdict from gemini: no parseable verdict in its answer: "The change looks fine overall. Nothing to add."`
	if j.Reason != want {
		t.Errorf("reason %q, want %q", j.Reason, want)
	}
	if !containsLine(j.Lines, "  Nothing to add.") {
		t.Errorf("lines do not keep the answer: %q", j.Lines)
	}
}

// Codex with an empty answer says so in a warning, and ends with its token footer.
func TestNoVerdictNamesCodexsWarning(t *testing.T) {
	dir := t.TempDir()
	last := filepath.Join(dir, "last.txt")
	os.WriteFile(last, nil, 0o600)
	out := "OpenAI Codex v0.169.0\n--------\nuser\nReview the code change\n\n<stdin>\n+func Added() error\n</stdin>\n" +
		"Warning: no last agent message; wrote empty content to " + last + "\ntokens used\n15\n"
	j := newJob(codexCLI{lastMessage: last}).Judge(0, []byte(out))
	want := "no verdict from codex: no final message: Warning: no last agent message; wrote empty content to " + last
	if j.Reason != want {
		t.Errorf("reason %q, want %q", j.Reason, want)
	}
	os.WriteFile(last, []byte("I could not find anything wrong."), 0o600)
	j = newJob(codexCLI{lastMessage: last}).Judge(0, []byte("tokens used\n15\n"))
	if want := `no verdict from codex: no parseable verdict in its answer: "I could not find anything wrong."`; j.Reason != want {
		t.Errorf("reason %q, want %q", j.Reason, want)
	}
}

// The answer kept is bounded and redacted.
func TestNoVerdictAnswerIsBoundedAndRedacted(t *testing.T) {
	long := strings.Repeat("word ", 20000) + "sk-live-secret-value"
	j := newJob(geminiCLI{}).withRedact(func(s string) string { return strings.ReplaceAll(s, "sk-live-secret-value", "[REDACTED]") }).
		Judge(0, []byte(`{"response": "`+long+`\nlast line sk-live-secret-value"}`))
	total := 0
	for _, l := range j.Lines {
		total += len(l)
		if strings.Contains(l, "sk-live-secret-value") {
			t.Errorf("secret kept: %.80q", l)
		}
	}
	if total > 3*maxAnswerBytes {
		t.Errorf("kept %d bytes of the answer", total)
	}
	if strings.Contains(j.Reason, "sk-live-secret-value") || len(j.Reason) > 600 {
		t.Errorf("reason: %.200q", j.Reason)
	}
}

func newJob(r reviewer) *Job { return &Job{rev: r} }

func containsLine(lines []string, want string) bool {
	for _, l := range lines {
		if l == want {
			return true
		}
	}
	return false
}

// A reviewer CLI that is not installed is named with the command that installs it; a custom
// reviewer gauntlet does not know is only said to be missing.
func TestMissingReviewerNamesItsInstall(t *testing.T) {
	notFound := &exec.Error{Name: "x", Err: exec.ErrNotFound}
	for _, tt := range []struct {
		job  *Job
		want string
	}{
		{&Job{rev: claudeCLI{}, Argv: []string{"claude"}}, "no verdict from claude: claude is not installed (not found on PATH); install it: npm install -g @anthropic-ai/claude-code"},
		{&Job{rev: codexCLI{}, Argv: []string{"codex"}}, "no verdict from codex: codex is not installed (not found on PATH); install it: npm install -g @openai/codex"},
		{&Job{rev: geminiCLI{}, Argv: []string{"gemini"}}, "no verdict from gemini: gemini is not installed (not found on PATH); install it: npm install -g @google/gemini-cli"},
		{&Job{rev: customCLI{command: "my-reviewer"}, Argv: []string{"sh", "-c", "my-reviewer"}}, "no verdict from the custom reviewer: sh is not installed (not found on PATH)"},
	} {
		if got := tt.job.StartFailed(notFound); got.Reason != tt.want {
			t.Errorf("reason %q, want %q", got.Reason, tt.want)
		}
	}
}
