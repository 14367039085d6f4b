package engine

import (
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// Which gates are test gates, and how each one's tests are counted: read from the reports its
// tests: names, asked of the runner its command runs, or not at all, saying why.
func TestPlanCensus(t *testing.T) {
	check := func(name, run string) gates.Gate { return gates.Gate{Name: name, Kind: gates.KindCheck, Run: run} }
	argv := func(name string, argv ...string) gates.Gate {
		return gates.Gate{Name: name, Kind: gates.KindCheck, Argv: argv}
	}
	withTests := check("e2e", "make e2e")
	withTests.Tests = "reports/*.xml"
	review := gates.Gate{Name: "test", Kind: gates.KindReview}
	setup := check("test", "go test ./...")
	setup.Setup = true
	pwsh := check("unit", "pytest -q")
	pwsh.Shell = "pwsh"
	pwshGo := check("unit", "go test ./...")
	pwshGo.Shell = "pwsh"

	tests := []struct {
		name      string
		gate      gates.Gate
		testGate  bool
		runners   []string
		uncounted string // a part of the reason, "" when counted
	}{
		{"go test in a shell string", check("unit", "go vet ./... && go test -race ./..."), true, []string{"go test"}, ""},
		{"go test as an argv", argv("unit", "go", "test", "./..."), true, []string{"go test"}, ""},
		{"stderr joined to the output", check("unit", "go test ./... 2>&1"), true, []string{"go test"}, ""},
		{"two runners", check("all", "go test ./... && cd web && npx vitest run"), true, []string{"go test", "vitest"}, ""},
		{"a report the runner already writes", check("py", "pytest --junitxml=out.xml | tee log.txt"), true, []string{"pytest"}, ""},
		{"the output piped elsewhere", check("unit", "go test ./... | tee test.log"), true, nil, "goes through a pipe or to a file"},
		{"the output to a file", check("unit", "go test ./... > test.log"), true, nil, "goes through a pipe or to a file"},
		{"the output captured", check("unit", `out=$(go test ./...); echo "$out"`), true, nil, "goes through a pipe or to a file"},
		{"a file argument for a shell gauntlet does not quote for", pwsh, true, nil, "pwsh"},
		{"an argument that needs no quoting, in any shell", pwshGo, true, []string{"go test"}, ""},
		{"a runner that cannot be asked", check("rust", "cargo test -q"), true, nil, "terse output"},
		{"a runner behind a task runner", check("test", "make test"), true, nil, "no test runner gauntlet recognises"},
		{"a script, by the name of the gate", check("unit-test", "./scripts/run.sh"), true, nil, "a script or a task runner"},
		{"tests: names the reports", withTests, true, nil, ""},
		{"not a test gate", check("lint", "golangci-lint run"), false, nil, ""},
		{"a review gate named test", review, false, nil, ""},
		{"a setup step", setup, false, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := PlanCensus(tc.gate)
			if p.TestGate != tc.testGate {
				t.Fatalf("TestGate = %v, want %v (%+v)", p.TestGate, tc.testGate, p)
			}
			var runners []string
			for _, r := range p.Requests {
				runners = append(runners, r.Runner)
			}
			if strings.Join(runners, ",") != strings.Join(tc.runners, ",") {
				t.Errorf("runners asked = %q, want %q", runners, tc.runners)
			}
			if tc.uncounted == "" && p.Uncounted != "" || !strings.Contains(p.Uncounted, tc.uncounted) {
				t.Errorf("Uncounted = %q, want it to say %q", p.Uncounted, tc.uncounted)
			}
			if p.Uncounted != "" && len(p.Requests) > 0 {
				t.Errorf("an uncounted gate must run as declared, yet asks %q", runners)
			}
		})
	}
}

func TestOutputLeavesTheGate(t *testing.T) {
	for s, want := range map[string]bool{
		"go test ./...":                     false,
		"go test ./... 2>&1":                false,
		"go test ./... >&2":                 false,
		"go test ./... || echo failed":      false,
		"echo 'a | b > c' && go test ./...": false,
		`echo "x > y"; go test ./...`:       false,
		"go test ./... | tee log":           true,
		"go test ./... |& tee log":          true,
		"go test ./... > log":               true,
		"go test ./... &> log":              true,
		"go test ./... 2>&1 >> log":         true,
		"go test ./... 2>/dev/null":         false,
		"go test ./... 2>>err.log":          false,
		"go test ./... x2>log":              true,
		"go test ./... 12>log":              true,
		"x=`go test ./...`":                 true,
		`echo "$(go test ./...)"`:           true,
		"(go test ./...) | cat":             true,
	} {
		if got := outputLeaves(s); got != want {
			t.Errorf("outputLeaves(%q) = %v, want %v", s, got, want)
		}
	}
}
