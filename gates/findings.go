package gates

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
