package engine

import (
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/census"
)

// The base's tests run against the change's code for their census alone: that run measures no
// coverage, which the comparison never reads, whatever the gate's default (a go test gate is
// covered by default).
func TestTheRunUnderTheChangeMeasuresNoCoverage(t *testing.T) {
	for _, g := range []gates.Gate{
		{Name: "test", Kind: gates.KindCheck, Argv: []string{"go", "test", "./..."}},
		{Name: "test", Kind: gates.KindCheck, Argv: []string{"go", "test", "./..."}, Coverage: gates.CoverageAuto},
	} {
		if !PlanCoverage(g, PlanCensus(g)).Measured() {
			t.Fatalf("the gate itself is not covered: %+v", g)
		}
		bg := underChangeGate(g)
		if PlanCoverage(bg, PlanCensus(bg)).Measured() {
			t.Errorf("the run under the change is covered (coverage %q)", bg.Coverage)
		}
		if !PlanCensus(bg).Counted() {
			t.Errorf("the run under the change is not counted")
		}
	}
}

// A parent test fails with any of its subtests: where a subtest is named, its parent is not
// (mux e44017df2b listed 47 findings, a parent beside each of its table's cases); a parent
// whose subtests are not named is.
func TestExpectationNamesSubtestsNotTheirParents(t *testing.T) {
	named := []census.Test{{ID: "m::TestMatch"}, {ID: "m::TestMatch/vars"}, {ID: "m::TestOther"}, {ID: "m::TestOtherwise"}}
	for _, tt := range []struct {
		id   string
		want bool
	}{
		{"m::TestMatch", true},
		{"m::TestMatch/vars", false},
		{"m::TestOther", false}, // TestOtherwise is no subtest of it
	} {
		if got := namedSubtest(named, census.Test{ID: tt.id}); got != tt.want {
			t.Errorf("namedSubtest(%s) = %v, want %v", tt.id, got, tt.want)
		}
	}
}
