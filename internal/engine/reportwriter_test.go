package engine

import (
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/census"
)

// The files a gate's command names are its words that are no option, from the gate's directory.
func TestCommandFiles(t *testing.T) {
	got := commandFiles(gates.Gate{Run: `sh ./test.sh -v && python3 'scripts/ci.py' > out.txt; $HOME/x /usr/bin/y`, Dir: "sub"})
	for _, p := range []string{"sub/test.sh", "sub/scripts/ci.py", "sub/sh", "sub/out.txt"} {
		if !got[p] {
			t.Errorf("%s not named: %v", p, got)
		}
	}
	for _, p := range []string{"sub/-v", "$HOME/x", "/usr/bin/y"} {
		if got[p] {
			t.Errorf("%s named", p)
		}
	}
	if got := commandFiles(gates.Gate{Argv: []string{"bash", "test.sh"}}); !got["test.sh"] {
		t.Errorf("argv: %v", got)
	}
	// A Windows gate names its script with backslashes; the change's files are slash paths.
	got = commandFiles(gates.Gate{Run: `powershell -File scripts\ci.ps1; .\run.cmd`, Dir: "sub"})
	for _, p := range []string{"sub/scripts/ci.ps1", "sub/run.cmd"} {
		if !got[p] {
			t.Errorf("%s not named: %v", p, got)
		}
	}
}

// The finding counts the tests that passed at the base; with none, or the rule off, there is none.
func TestReportNotBelieved(t *testing.T) {
	base := census.Census{Tests: []census.Test{{ID: "a", Outcome: census.Pass}, {ID: "b", Outcome: census.Pass}, {ID: "c", Outcome: census.Skip}}}
	g := gates.Gate{Name: "test", Tests: "junit.xml"}
	got := reportNotBelieved(gates.Result{Name: "test"}, g, "test.sh", base, gates.IntegrityBlock)
	if len(got) != 1 || got[0].File != "test.sh" || !strings.Contains(got[0].Message, "the 2 tests that passed at the base") {
		t.Fatalf("finding: %+v", got)
	}
	if got := reportNotBelieved(gates.Result{Name: "test"}, g, "test.sh", base, gates.IntegrityOff); got != nil {
		t.Errorf("rule off: %+v", got)
	}
	if got := reportNotBelieved(gates.Result{Name: "test"}, g, "test.sh", census.Census{}, gates.IntegrityBlock); got != nil {
		t.Errorf("nothing passed at the base: %+v", got)
	}
}
