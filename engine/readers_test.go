package engine

import (
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

func TestOutputReadersFollowTheCausesKey(t *testing.T) {
	on := gates.Gate{Name: "build", Kind: gates.KindCheck, Causes: true}
	readers := outputReaders(on)
	if len(readers) != 1 {
		t.Fatalf("%d readers for a gate with causes on, want the catalogue", len(readers))
	}
	readers[0].Line([]byte("go: go.mod requires go >= 1.99.0 (running go 1.26.8; GOTOOLCHAIN=local)"))
	o := gates.Outcome{ExitCode: 1}
	readers[0].Finish(&o)
	if o.Cause == nil || o.Cause.ID != "go-toolchain-too-old" {
		t.Errorf("cause = %+v", o.Cause)
	}
	if got := outputReaders(gates.Gate{Name: "build", Kind: gates.KindCheck}); len(got) != 0 {
		t.Errorf("causes: false still reads the output: %d readers", len(got))
	}
}
