package census

import (
	"regexp"
	"slices"
	"testing"
)

func TestSelectNamesTheTestsForEachRunner(t *testing.T) {
	tests := []Test{
		{ID: "m::TestAdd", Suite: "example.com/m", Name: "TestAdd"},
		{ID: "m::TestTable/case_1", Suite: "example.com/m", Name: "TestTable/case_1"},
		{ID: "m::TestTable/case_2", Suite: "example.com/m", Name: "TestTable/case_2"},
	}
	sel, ok := Select(Request{Runner: "go test", At: 1}, tests)
	if !ok || sel.At != 1 || !slices.Equal(sel.Args, []string{"-count=1", "-run", "^(TestAdd|TestTable)$"}) {
		t.Fatalf("go test: %+v %v", sel, ok)
	}
	re := regexp.MustCompile(sel.Args[2])
	if !re.MatchString("TestTable") || re.MatchString("TestAddMore") {
		t.Errorf("go pattern %q selects the wrong tests", sel.Args[2])
	}
	js := []Test{{Name: "money > rounds (half) up"}, {Name: "adds"}}
	sel, ok = Select(Request{Runner: "vitest"}, js)
	if !ok || !slices.Equal(sel.Args, []string{"-t", `rounds \(half\) up|adds`}) {
		t.Errorf("vitest: %+v", sel.Args)
	}
	py := []Test{{Name: "test_add[1-2]"}, {Name: "TestCalc.test_sub"}}
	sel, ok = Select(Request{Runner: "pytest"}, py)
	if !ok || !slices.Equal(sel.Args, []string{"-p", "no:randomly", "-k", "test_add or test_sub"}) {
		t.Errorf("pytest: %+v", sel.Args)
	}
}

// A runner that cannot select by name, a command whose census cannot be read, or too many tests:
// nothing is run alone, and the caller does without.
func TestSelectRefuses(t *testing.T) {
	one := []Test{{Name: "t"}}
	many := make([]Test, maxSelected+1)
	for i := range many {
		many[i] = Test{Name: "T" + string(rune('a'+i%26)) + string(rune('a'+i/26))}
	}
	for name, tc := range map[string]struct {
		req   Request
		tests []Test
	}{
		"unknown runner": {Request{Runner: "cargo nextest"}, one},
		"problem":        {Request{Runner: "go test", Problem: "x"}, one},
		"none":           {Request{Runner: "go test"}, nil},
		"too many":       {Request{Runner: "go test"}, many},
	} {
		if _, ok := Select(tc.req, tc.tests); ok {
			t.Errorf("%s: selected", name)
		}
	}
}

func TestCensusFailingAndUnits(t *testing.T) {
	c := Census{Tests: []Test{{ID: "a", Outcome: Pass}, {ID: "b", Outcome: Fail}, {ID: "c", Outcome: Skip}},
		Failed: []Unit{{Suite: "x"}}}
	if f := c.Failing(); len(f) != 1 || f[0].ID != "b" {
		t.Errorf("failing %+v", f)
	}
	if c.Outcomes()["a"] != Pass || !c.UnitFailed("x") || c.UnitFailed("y") {
		t.Errorf("outcomes or units wrong")
	}
}

func TestSole(t *testing.T) {
	for cmd, want := range map[string]bool{
		"go test ./...":                  true,
		"go test -race ./... | tee out":  false,
		"go test ./... && go vet ./...":  false,
		"npm test":                       false,
		"cd sub && go test ./...":        false,
		"GOFLAGS=-mod=mod go test ./...": true,
	} {
		if got := Sole(Command{Shell: cmd}); got != want {
			t.Errorf("%q: %v, want %v", cmd, got, want)
		}
	}
	if !Sole(Command{Argv: []string{"go", "test", "./..."}}) {
		t.Error("argv")
	}
}
