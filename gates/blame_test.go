package gates

import "testing"

func TestCountedVerdict(t *testing.T) {
	pre := Result{Name: "lint", Status: StatusFail, Blame: BlamePreExisting}
	flaky := Result{Name: "test", Status: StatusFail, Blame: BlameFlaky}
	reg := Result{Name: "vet", Status: StatusFail, Blame: BlameRegression}
	unblamed := Result{Name: "x", Status: StatusFail}
	pass := Result{Name: "ok", Status: StatusPass}
	report := func(b Blame) bool { return b.Blocks(false) }
	block := func(b Blame) bool { return b.Blocks(true) }
	for _, tc := range []struct {
		name    string
		results []Result
		counts  func(Blame) bool
		want    Verdict
	}{
		{"every failure counts without a policy", []Result{pre, pass}, nil, VerdictFail},
		{"pre-existing and flaky weigh as warnings", []Result{pre, flaky, pass}, report, VerdictWarn},
		{"a regression fails", []Result{pre, reg}, report, VerdictFail},
		{"a failure nobody blamed is the change's", []Result{unblamed}, report, VerdictFail},
		{"pre_existing: block", []Result{pre}, block, VerdictFail},
		{"flaky never blocks", []Result{flaky}, block, VerdictWarn},
	} {
		if got := CountedVerdict(tc.results, tc.counts); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
	if pre.Status != StatusFail {
		t.Error("the results were changed")
	}
}
