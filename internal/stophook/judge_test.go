package stophook

import (
	"slices"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// A judge runs neither a speculative: false gate nor what needs it, directly or not.
func TestSpeculativeGates(t *testing.T) {
	all := []gates.Gate{
		{Name: "build", Speculative: true},
		{Name: "review", Speculative: false, Needs: []string{"build"}},
		{Name: "publish", Speculative: true, Needs: []string{"review"}},
		{Name: "deploy", Speculative: true, Needs: []string{"publish"}},
		{Name: "test", Speculative: true, Needs: []string{"build", "setup-step"}},
	}
	var got []string
	for _, g := range speculativeGates(all) {
		got = append(got, g.Name)
	}
	if want := []string{"build", "test"}; !slices.Equal(got, want) {
		t.Fatalf("speculative gates = %v, want %v", got, want)
	}
}
