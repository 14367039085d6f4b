package engine

import (
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/census"
)

// A shape rule that guesses at the tests (counting assertions, a test function gone) on a test
// file a gate measured: where that gate's census and coverage were both compared with the base's
// and nothing was lost, its block becomes a notice. Anything else stays as the policy set it.
func TestMeasuredOutweighGuessingShapes(t *testing.T) {
	dropped := gates.IntegrityFinding{Rule: gates.RuleAssertionsDropped, File: "cart/calc_test.go", Level: gates.IntegrityBlock, Message: "2 fewer"}
	removed := gates.IntegrityFinding{Rule: gates.RuleTestRemoved, File: "cart/calc_test.go", Level: gates.IntegrityBlock, Message: "test TestSub removed"}
	fileGone := gates.IntegrityFinding{Rule: gates.RuleTestFileRemoved, File: "cart/context_test.go", Level: gates.IntegrityBlock, Message: "test file deleted"}
	skipped := gates.IntegrityFinding{Rule: gates.RuleTestSkipped, File: "cart/calc_test.go", Level: gates.IntegrityBlock, Message: "t.Skip"}
	jsDropped := gates.IntegrityFinding{Rule: gates.RuleAssertionsDropped, File: "test/a.test.ts", Level: gates.IntegrityBlock, Message: "1 fewer"}
	lostTest := gates.IntegrityFinding{Rule: gates.RuleTestsLost, Level: gates.IntegrityWarn, Message: "test: TestSub passed at the base and did not run here"}
	goCensus := map[string]census.Census{"test": {Tests: []census.Test{{ID: "example.com/shop/cart::TestCalc", Suite: "example.com/shop/cart", Name: "TestCalc"}}}}
	otherPkg := map[string]census.Census{"test": {Tests: []census.Test{{ID: "example.com/shop/tax::TestTax", Suite: "example.com/shop/tax", Name: "TestTax"}}}}
	b, w := gates.IntegrityBlock, gates.IntegrityWarn
	tests := []struct {
		name     string
		lost     []gates.IntegrityFinding
		vouching map[string]census.Census
		// baseTests: the base's tests passed against the change's code (no coverage read).
		baseTests map[string]census.Census
		want      []gates.IntegrityLevel
	}{
		{name: "measured, nothing lost: notices; a skip and another language's file still block", vouching: goCensus, want: []gates.IntegrityLevel{w, w, b, b, w}},
		{name: "not measured: the rules block", want: []gates.IntegrityLevel{b, b, b, b, b}},
		{name: "measured, a test lost (even as a warning): the rules block", lost: []gates.IntegrityFinding{lostTest}, vouching: goCensus, want: []gates.IntegrityLevel{b, b, b, b, b}},
		{name: "the gate measured another package: the rules block", vouching: otherPkg, want: []gates.IntegrityLevel{b, b, b, b, b}},
		{name: "the base's tests pass against the change: only the assertion count is a notice", baseTests: goCensus, want: []gates.IntegrityLevel{w, b, b, b, b}},
		{name: "the base's tests pass, a test lost: the rules block", lost: []gates.IntegrityFinding{lostTest}, baseTests: goCensus, want: []gates.IntegrityLevel{b, b, b, b, b}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := measuredOutweighShapes([]gates.IntegrityFinding{dropped, removed, skipped, jsDropped, fileGone}, tt.lost, tt.vouching, tt.baseTests)
			for i, f := range got {
				if f.Level != tt.want[i] {
					t.Errorf("%s %s: level %s, want %s (%s)", f.Rule, f.File, f.Level, tt.want[i], f.Message)
				}
			}
			if tt.want[0] == w && got[0].Message == dropped.Message {
				t.Errorf("the notice does not say why: %q", got[0].Message)
			}
		})
	}
}
