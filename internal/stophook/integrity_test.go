package stophook

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

func TestIntegrityReasonSaysWhatToDoAndStaysWithinItsRoom(t *testing.T) {
	fs := []gates.IntegrityFinding{
		{Rule: gates.RuleTestSkipped, File: "a_test.go", Line: 12, Message: `skip added: t.Skip("flaky")`, Level: gates.IntegrityBlock},
		{Rule: gates.RuleSuppressionAdded, File: "a.go", Line: 3, Message: "suppression added: //nolint", Level: gates.IntegrityWarn},
	}
	got := IntegrityReason(fs, Attempt{N: 1, Max: 3}, MaxReasonBytes, nil)
	want := "gauntlet: The change weakens the gates rather than fixing the code (attempt 1 of 3). Restore what it weakened and fix the code instead; if the user asked for this change, keep it and say so plainly in your final message.\n" +
		"- a_test.go:12  [test-skipped] skip added: t.Skip(\"flaky\")"
	if got != want {
		t.Errorf("reason:\n%s\nwant (warnings are not part of a block):\n%s", got, want)
	}

	var many []gates.IntegrityFinding
	for i := range 500 {
		many = append(many, gates.IntegrityFinding{Rule: gates.RuleSuppressionAdded, File: fmt.Sprintf("f%d.go", i), Line: i + 1,
			Message: strings.Repeat("x", 300), Level: gates.IntegrityBlock})
	}
	got = IntegrityReason(many, Attempt{}, 2000, nil)
	if len(got) > 2000 || !strings.Contains(got, "more (gauntlet explain)") || !strings.HasPrefix(got, "gauntlet: The change weakens") {
		t.Errorf("%d bytes, want at most 2000 ending with how many more:\n%s", len(got), got)
	}
}

func TestWarnNoticeNamesIntegrityFindings(t *testing.T) {
	fs := []gates.IntegrityFinding{{Rule: gates.RuleTestSkipped, Level: gates.IntegrityWarn}, {Rule: gates.RuleTestSkipped, Level: gates.IntegrityWarn}}
	got := warnNotice(nil, fs)
	want := "gauntlet: passed, but the change weakens the gates (2 integrity findings: test-skipped); stop allowed"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Lines the change wrote that no test runs are a measurement of the change, not a way it weakens
// the gates: the notice says what they are.
func TestWarnNoticeNamesUncoveredLinesForWhatTheyAre(t *testing.T) {
	fs := []gates.IntegrityFinding{{Rule: gates.RuleChangeUncovered, Level: gates.IntegrityWarn}}
	got := warnNotice(nil, fs)
	want := "gauntlet: passed, but lines the change wrote are run by no test (1 finding: change-uncovered, gauntlet explain); stop allowed"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
