package engine

import (
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/causes"
	"github.com/gauntlet-dev/gauntlet/runner"
)

func TestOutputReadersFollowTheCausesKey(t *testing.T) {
	on := gates.Gate{Name: "build", Kind: gates.KindCheck, Causes: true}
	readers := causeReaders(t.TempDir(), nil)(on)
	if len(readers) != 1 {
		t.Fatalf("%d readers for a gate with causes on, want the catalogue", len(readers))
	}
	readers[0].Line([]byte("go: go.mod requires go >= 1.99.0 (running go 1.26.8; GOTOOLCHAIN=local)"))
	o := gates.Outcome{ExitCode: 1}
	readers[0].Finish(&o)
	if o.Cause == nil || o.Cause.ID != "go-toolchain-too-old" {
		t.Errorf("cause = %+v", o.Cause)
	}
	if got := causeReaders("", nil)(gates.Gate{Name: "build", Kind: gates.KindCheck}); len(got) != 0 {
		t.Errorf("causes: false still reads the output: %d readers", len(got))
	}
}

func TestJoinReadersKeepsEveryReaderInOrder(t *testing.T) {
	a := func(gates.Gate) []runner.OutputReader {
		return []runner.OutputReader{causes.NewReader(causes.Options{})}
	}
	none := func(gates.Gate) []runner.OutputReader { return nil }
	got := joinReaders(a, nil, none, causeReaders("", nil))(gates.Gate{Causes: true})
	if len(got) != 2 {
		t.Fatalf("%d readers, want 2", len(got))
	}
	if got := joinReaders()(gates.Gate{}); len(got) != 0 {
		t.Errorf("no functions, %d readers", len(got))
	}
}
