package policy

import (
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/causes"
)

// A cause excuses an error without the base only when a probe of the machine confirms it: every
// decisive cause has one in the catalogue.
func TestDecisiveCausesAreProbed(t *testing.T) {
	probed := map[string]bool{}
	for _, sig := range causes.Catalogue() {
		probed[sig.ID] = sig.Probe != ""
	}
	for _, id := range decisiveCauses {
		if !probed[id] {
			t.Errorf("%s is decisive without a probe of the machine", id)
		}
	}
}

// The line of a machine cause without a probe is one a gate can print: its error may be earned.
func TestUnprobedCauseMayBeEarned(t *testing.T) {
	r := gates.Result{Status: gates.StatusError, Cause: &gates.Cause{ID: "file-watchers-exhausted"}}
	if !MayBeEarned(r) {
		t.Error("file-watchers-exhausted excuses without the base")
	}
	r.Cause.ID = "disk-full"
	if MayBeEarned(r) {
		t.Error("disk-full, confirmed by its probe, is asked of the base")
	}
}
