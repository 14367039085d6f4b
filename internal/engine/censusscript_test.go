package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/census"
)

// A gate that runs a package script or a Makefile target is counted through the runner the
// script runs, asked from outside the project's files; what cannot be asked says why.
func TestPlanCensusInScripts(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"scripts": {
		"test": "node --test",
		"unit": "npm run inner",
		"inner": "vitest run",
		"jest": "jest --ci",
		"both": "vitest run && eslint .",
		"py": "pytest -q",
		"twice": "pytest a && pytest b",
		"lint": "eslint ."
	}}`)
	write("Makefile", "test: deps\n\t@python3 -m pytest -q\ndeps:\n\techo deps\nweb:\n\tnpx vitest run\n")
	check := func(name, run string) gates.Gate { return gates.Gate{Name: name, Kind: gates.KindCheck, Run: run} }
	tests := []struct {
		gate      gates.Gate
		env       string // a part of the first request's environment
		args      string // its trailing arguments, joined
		uncounted string // a part of the reason, "" when counted
		notTest   bool
		pass      census.PassOn // how its trailing arguments reach the script: npm's after "--"
	}{
		{gate: check("test", "npm test"), env: "NODE_OPTIONS=--test-reporter=tap"},
		{gate: check("inner", "npm run inner"), args: "--reporter=default --reporter=junit --outputFile.junit={census}"},
		{gate: check("unit", "npm run unit"), uncounted: "not the script's last command"},
		{gate: check("jest", "npm run jest"), args: "--json --outputFile={census}"},
		{gate: check("both", "npm run both"), uncounted: "not the script's last command"},
		{gate: check("py", "pnpm py"), env: "PYTEST_ADDOPTS=--junitxml={census}"},
		// pnpm and yarn pass the words after the script's name on to it as they are.
		{gate: check("inner", "pnpm inner"), args: "--reporter=default --reporter=junit --outputFile.junit={census}", pass: census.PassAsIs},
		{gate: check("inner", "pnpm run inner"), args: "--reporter=default --reporter=junit --outputFile.junit={census}", pass: census.PassAsIs},
		{gate: check("inner", "yarn inner"), args: "--reporter=default --reporter=junit --outputFile.junit={census}", pass: census.PassAsIs},
		{gate: check("jest", "yarn run jest"), args: "--json --outputFile={census}", pass: census.PassAsIs},
		// An option before the name is pnpm's own (-r runs every package's script): not followed.
		{gate: check("inner", "pnpm -r inner"), uncounted: "not the script's last command"},
		{gate: check("py", "yarn run py"), env: "PYTEST_ADDOPTS=--junitxml={census}"},
		{gate: check("twice", "npm run twice"), uncounted: "runs pytest twice"},
		{gate: check("check", "make test"), env: "PYTEST_ADDOPTS=--junitxml={census}"},
		{gate: check("web", "make web"), uncounted: "reads its reporters only from its command line"},
		{gate: check("lint", "npm run lint"), notTest: true},
		{gate: check("test", "npm test | tee log"), uncounted: "goes through a pipe or to a file"},
	}
	for _, tt := range tests {
		t.Run(tt.gate.Run, func(t *testing.T) {
			plan := PlanCensusIn(tt.gate, dir)
			if tt.notTest {
				if plan.TestGate || plan.Counted() {
					t.Fatalf("a script that runs no test runner is planned %+v", plan)
				}
				return
			}
			if !plan.TestGate {
				t.Fatalf("not a test gate: %+v", plan)
			}
			if tt.uncounted != "" {
				if !strings.Contains(plan.Uncounted, tt.uncounted) || plan.Counted() {
					t.Fatalf("Uncounted = %q, want it to say %q", plan.Uncounted, tt.uncounted)
				}
				return
			}
			if plan.Uncounted != "" || len(plan.Requests) != 1 {
				t.Fatalf("not counted: %+v", plan)
			}
			r := plan.Requests[0]
			if tt.env != "" && !slices.ContainsFunc(r.Env, func(e string) bool { return strings.HasPrefix(e, tt.env) }) {
				t.Fatalf("env = %q, want %q", r.Env, tt.env)
			}
			want := tt.pass
			if tt.args != "" && want == census.PassNone {
				want = census.PassAfterSeparator
			}
			if got := strings.Join(r.Args, " "); got != tt.args || r.Trailing != want {
				t.Fatalf("args = %q trailing %v, want %q %v", got, r.Trailing, tt.args, want)
			}
		})
	}
}
