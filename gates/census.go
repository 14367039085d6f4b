package gates

// MaxCensusIDs bounds the failing and skipped tests, and the failed units, a census summary
// names: reports say how many there are and name the first, the engine keeps them all.
const MaxCensusIDs = 20

// Where a test census was read from.
const (
	CensusFromOutput = "output" // the runner's machine output, in the gate's output
	CensusFromReport = "report" // a report the runner was asked to write to a file of the run
	CensusFromTests  = "tests"  // the JUnit reports the gate's tests: names
)

// TestCensus is what a test gate's census counted, as reports show it: how many tests passed,
// failed and were skipped, whether the count is whole (Notes say why not), and the first of the
// failing and skipped tests by ID ("suite::name", see docs/census.md). The tests themselves
// stay in memory with the engine, for the comparison with the base.
type TestCensus struct {
	Runner   string   `json:"runner"` // the format it was read from: go, junit, tap, libtest, jest, mixed
	Source   string   `json:"source"` // CensusFromOutput, CensusFromReport or CensusFromTests
	Passed   int      `json:"passed"`
	Failed   int      `json:"failed"`
	Skipped  int      `json:"skipped"`
	Complete bool     `json:"complete"`
	Notes    []string `json:"notes,omitempty"`
	// FailedTests and SkippedTests name at most MaxCensusIDs tests each; FailedUnits the parts
	// of the run that failed as a whole ("example.com/x: build failed").
	FailedTests  []string `json:"failed_tests,omitempty"`
	SkippedTests []string `json:"skipped_tests,omitempty"`
	FailedUnits  []string `json:"failed_units,omitempty"`
}

// CoverageSummary is what reports show of a gate's line coverage (docs/coverage.md): the lines
// compared with the base's stay with the engine.
type CoverageSummary struct {
	Format   string   `json:"format"` // go, lcov, coverage.py, mixed
	Files    int      `json:"files"`
	Lines    int      `json:"lines"`   // instrumented lines
	Covered  int      `json:"covered"` // of them, covered
	Complete bool     `json:"complete"`
	Notes    []string `json:"notes,omitempty"`
}
