package gates

import (
	"cmp"
	"slices"
	"strings"
)

// Finding is one problem a tool reported at a place in the code: read from a gate's output by a
// parser, or from a review's verdict. File is relative to the project root; Line and Column are
// 1-based, 0 when the tool gave none.
type Finding struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Severity string `json:"severity"` // "error", "warning" or "info"
	Message  string `json:"message"`
	Rule     string `json:"rule"`
	// PreExisting marks a finding the change's base produces too (same identity as new_only
	// compares); it is reported, and blocks no agent's stop.
	PreExisting bool `json:"pre_existing,omitempty"`
}

// Cause is an environment failure recognised in a gate's output (a registry that cannot be
// reached, a toolchain too old, dependencies not installed): the agent cannot fix it, so the gate
// is an error, never a failure.
type Cause struct {
	ID      string `json:"id"`      // catalogue entry, e.g. "cargo-registry-unreachable"
	Summary string `json:"summary"` // one line naming the cause
	Fix     string `json:"fix"`     // one line saying what to do, e.g. "run npx playwright install"
	Line    string `json:"line"`    // the output line that matched, cleaned
}

// ByImportance orders findings errors first, then warnings, then the rest, keeping the printed
// order within each: what fails the gate is what a reader must see first. fs is not changed.
func ByImportance(fs []Finding) []Finding {
	out := slices.Clone(fs)
	slices.SortStableFunc(out, func(a, b Finding) int { return cmp.Compare(severityRank(a.Severity), severityRank(b.Severity)) })
	return out
}

func severityRank(s string) int {
	switch strings.ToLower(s) {
	case "error":
		return 0
	case "warning":
		return 1
	default:
		return 2
	}
}
