package main

import (
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/stophook"
)

// A stop allowed with lines the change wrote that no test runs is not said to weaken the gates:
// those findings measure the change. Any other finding still is.
func TestDecisionWordsOfUncoveredLines(t *testing.T) {
	uncovered := stophook.HistoryEntry{Decision: "allow", Why: stophook.WhyWarn, Integrity: 2, Uncovered: true}
	if got, want := describeDecision(uncovered), "passed with warnings: lines the change wrote run by no test (2 findings, gauntlet explain)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	weakened := stophook.HistoryEntry{Decision: "allow", Why: stophook.WhyWarn, Integrity: 1, Failed: []string{"lint"}}
	if got, want := describeDecision(weakened), "passed with warnings: THE CHANGE WEAKENS THE GATES (1 integrity finding, gauntlet explain); lint"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A declared weakening's notice quotes the user's words and the change's file names: status
// prints it on the terminal cleaned of escapes, as it does any text it did not write itself.
func TestDecisionWordsOfDeclaredWeakeningCleaned(t *testing.T) {
	e := stophook.HistoryEntry{Decision: "allow", Why: stophook.WhyDeclared,
		Message: "gauntlet: allowed a weakening the user asked for: a\x1b[2J_test.go: test removed [test-deleted] — user: \"drop it\"\x07"}
	got := describeDecision(e)
	if want := "ALLOWED A WEAKENING DECLARED AS THE USER'S REQUEST: a_test.go: test removed [test-deleted] — user: \"drop it\""; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
