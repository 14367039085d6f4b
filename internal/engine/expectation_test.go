package engine

import (
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
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
