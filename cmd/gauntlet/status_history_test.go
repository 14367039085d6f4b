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
