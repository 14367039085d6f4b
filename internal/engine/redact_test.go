package engine

import (
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/redact"
)

// Every text field of a result is cleaned and redacted, findings and cause included; the caller's
// result is left as it was.
func TestSanitizeResult(t *testing.T) {
	const secret = "hunter2-secret"
	secrets := redact.New(redact.Rules{}, []string{"DB_PASSWORD=" + secret})
	dirty := "x " + secret + " \x1b[31mred\x1b[0m\a\u009b"
	in := gates.Result{
		Name: "db", Reason: dirty, Tail: dirty + "\nnext", Hint: dirty, Command: "psql -c 'select 1'\n" + dirty, Log: ".gauntlet/logs/r/db.log",
		Findings: []gates.Finding{{File: "a.sql", Line: 3, Severity: "error", Message: dirty, Rule: dirty}},
		Cause:    &gates.Cause{ID: "db-down", Summary: dirty, Fix: dirty, Line: dirty},
		Tests: &gates.TestCensus{Runner: "junit", Notes: []string{dirty}, FailedTests: []string{dirty}, SkippedTests: []string{dirty},
			FailedUnits: []string{dirty}},
		TestsUncounted: dirty,
		BlameDetail:    &gates.BlameDetail{Regressions: []string{dirty}, PreExisting: []string{dirty}, Flaky: []string{dirty}, Why: dirty},
	}
	got := sanitize([]gates.Result{in}, secrets)[0]
	texts := []string{got.Reason, got.Tail, got.Hint, got.Command, got.Log, got.Findings[0].Message, got.Findings[0].Rule,
		got.Cause.Summary, got.Cause.Fix, got.Cause.Line, got.Tests.Notes[0], got.Tests.FailedTests[0], got.Tests.SkippedTests[0],
		got.Tests.FailedUnits[0], got.TestsUncounted, got.BlameDetail.Regressions[0], got.BlameDetail.PreExisting[0],
		got.BlameDetail.Flaky[0], got.BlameDetail.Why}
	for _, s := range texts {
		if strings.Contains(s, secret) || strings.ContainsAny(s, "\x1b\a\u009b") {
			t.Errorf("not clean or not redacted: %q", s)
		}
		if !strings.Contains(s, "[REDACTED]") && s != got.Log {
			t.Errorf("no redaction mark in %q", s)
		}
	}
	if got.Tail != "x [REDACTED] red\nnext" || got.Command != "psql -c 'select 1'\nx [REDACTED] red" {
		t.Errorf("multi-line texts lost their lines: tail %q, command %q", got.Tail, got.Command)
	}
	if in.Findings[0].Message != dirty || in.Cause.Summary != dirty || in.Tests.FailedTests[0] != dirty || in.BlameDetail.Flaky[0] != dirty {
		t.Error("sanitize changed the caller's findings or cause")
	}
}
