package gates

// Blame says whose a failure is, measured against the change's base (SPEC §12): only a
// regression is the change's. The engine decides it once, from the evidence its stages gathered
// (the census and findings now and at the base, a failing test run again alone, the gate at the
// base); the stop hook's decision, the reason's order, the reports' labels and the history read
// it and never derive it again.
type Blame string

const (
	// BlameRegression: the change broke it (a test that passed at the base fails, a finding the
	// base did not have, a gate that passed at the base fails). The zero value of a failed gate
	// is a regression: a failure nothing excused is the change's.
	BlameRegression Blame = "regression"
	// BlamePreExisting: the base fails the same way, in this environment.
	BlamePreExisting Blame = "pre-existing"
	// BlameFlaky: a regression that passed when run again alone, once.
	BlameFlaky Blame = "flaky"
)

// BlameDetail is what the blame of a failed gate rests on, test by test: the IDs
// ("suite::name") of its failing tests by kind, each list capped at MaxCensusIDs, and how many
// of its findings the base has too.
type BlameDetail struct {
	Regressions []string `json:"regressions,omitempty"`
	PreExisting []string `json:"pre_existing,omitempty"`
	Flaky       []string `json:"flaky,omitempty"`
	// PreExistingFindings counts the findings the base produces too (Finding.PreExisting).
	PreExistingFindings int `json:"pre_existing_findings,omitempty"`
	// Why says in one line how the blame was decided ("the base fails the same tests", "the
	// gate fails the same way at the base").
	Why string `json:"why,omitempty"`
}

// CountedVerdict is the verdict of results where only the failures whose blame counts fail: the
// others weigh as warnings. counts nil counts every failure.
func CountedVerdict(results []Result, counts func(Blame) bool) Verdict {
	if counts == nil {
		return VerdictOf(results)
	}
	weighed := make([]Result, len(results))
	for i, r := range results {
		if r.Status == StatusFail && !counts(r.Blame) {
			r.Status = StatusWarn
		}
		weighed[i] = r
	}
	return VerdictOf(weighed)
}

// Blocks says whether a failure of this blame blocks an agent's stop, given whether the config
// makes pre-existing failures block too (stop_hook.pre_existing: block). A flaky failure never
// blocks: it passed when run alone.
func (b Blame) Blocks(preExistingBlocks bool) bool {
	switch b {
	case BlamePreExisting:
		return preExistingBlocks
	case BlameFlaky:
		return false
	}
	return true
}
