package engine

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
)

// Outside git every scoped gate runs; each selected gate says why, each skipped one why not.
func TestSelectGivesEveryGateAReason(t *testing.T) {
	const yml = `version: 1
gates:
  plain:
    run: "true"
  scoped:
    run: "true"
    paths: ["**/*.go"]
  off:
    run: "true"
    enabled: false
  ci:
    run: "true"
    when: ci
`
	dir := t.TempDir()
	cfg, err := config.Parse(filepath.Join(dir, config.FileName), []byte(yml), dir)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		scope Scope
		want  map[string]string // gate -> reason; a gate that runs is prefixed with "run: "
	}{
		{"outside git", Scope{}, map[string]string{
			"plain":  "run: no paths: always runs",
			"scoped": "run: no change scoping: not inside a git work tree",
			"off":    "disabled (enabled: false)",
			"ci":     "runs only in CI (when: ci)",
		}},
		{"all", Scope{All: true, CI: true}, map[string]string{
			"plain":  "run: no paths: always runs",
			"scoped": "run: --all: paths ignored",
			"off":    "disabled (enabled: false)",
			"ci":     "run: no paths: always runs",
		}},
		{"named", Scope{Names: []string{"scoped"}}, map[string]string{
			"scoped": "run: named on the command line",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := Select(context.Background(), cfg, tt.scope)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, g := range sel.Run {
				got[g.Name] = "run: " + sel.Reasons[g.Name]
			}
			for name, why := range sel.Skipped {
				got[name] = why
			}
			if len(got) != len(tt.want) {
				t.Errorf("got %d gates %v, want %d", len(got), got, len(tt.want))
			}
			for name, want := range tt.want {
				if got[name] != want {
					t.Errorf("%s: %q, want %q", name, got[name], want)
				}
			}
		})
	}
}

// A selected gate pulls in its needs, transitively and whatever names or paths said; a need
// that is disabled stays out and is not waited for.
func TestSelectPullsInNeeds(t *testing.T) {
	const yml = `version: 1
gates:
  gen:
    run: "true"
    paths: ["never/**"]
  build:
    run: "true"
    needs: [gen]
  test:
    run: "true"
    needs: [build, off]
  off:
    run: "true"
    enabled: false
  other:
    run: "true"
`
	dir := t.TempDir()
	cfg, err := config.Parse(filepath.Join(dir, config.FileName), []byte(yml), dir)
	if err != nil {
		t.Fatal(err)
	}
	sel, err := Select(context.Background(), cfg, Scope{Names: []string{"test"}})
	if err != nil {
		t.Fatal(err)
	}
	var run []string
	for _, g := range sel.Run {
		run = append(run, g.Name)
	}
	if got, want := strings.Join(run, ","), "gen,build,test"; got != want {
		t.Errorf("run %s, want %s (config order)", got, want)
	}
	if got, want := strings.Join(sel.Order, ","), "gen,build,test"; got != want {
		t.Errorf("order %s, want %s", got, want)
	}
	if sel.Reasons["build"] != "needed by test" || sel.Reasons["gen"] != "needed by build" {
		t.Errorf("reasons %v", sel.Reasons)
	}
	if _, skipped := sel.Skipped["gen"]; skipped {
		t.Errorf("gen is both run and skipped: %v", sel.Skipped)
	}
}

// A gate's cached pass stands only while none of its needs runs, down the whole chain.
func TestRerunAfterNeeds(t *testing.T) {
	gs := []gates.Gate{
		{Name: "install", Setup: true},
		{Name: "uncached-setup", Setup: true},
		{Name: "e2e", Needs: []string{"test"}},
		{Name: "test", Needs: []string{"build"}},
		{Name: "build"},
		{Name: "lint", Needs: []string{"cached-need", "uncached-setup"}},
		{Name: "cached-need"},
		{Name: "web", Needs: []string{"install"}},
	}
	// install's inputs changed since it passed (a key, no hit): web runs after it. A setup step
	// the cache does not keep (no key) does not make lint run.
	hits := map[string]hit{"e2e": {}, "test": {}, "lint": {}, "cached-need": {}, "web": {}}
	keys := map[string]string{"install": "k", "e2e": "k", "test": "k", "build": "k", "lint": "k", "cached-need": "k", "web": "k"}
	rerunAfterNeeds(gs, hits, keys)
	var kept []string
	for _, g := range gs {
		if _, ok := hits[g.Name]; ok {
			kept = append(kept, g.Name)
		}
	}
	if got := strings.Join(kept, ","); got != "lint,cached-need" {
		t.Errorf("hits kept: %s, want lint,cached-need", got)
	}
}

// A gate whose need the background judge failed on this state is skipped, not run without it.
func TestSkipAfterJudged(t *testing.T) {
	rest := []gates.Gate{{Name: "test", Needs: []string{"build"}}, {Name: "e2e", Needs: []string{"test"}}, {Name: "lint"}}
	judged := []gates.Result{{Name: "build", Status: gates.StatusFail}}
	rest, judged = skipAfterJudged(rest, judged)
	if len(rest) != 1 || rest[0].Name != "lint" {
		t.Errorf("left to run: %v, want lint", rest)
	}
	got := map[string]string{}
	for _, r := range judged {
		got[r.Name] = string(r.Status) + ": " + r.Reason
	}
	if got["test"] != "skipped: needs build, which failed" || got["e2e"] != "skipped: needs test, which did not run because build failed" {
		t.Errorf("judged: %v", got)
	}
}

// A misspelt gate name gets the gate it looks like; a name like none gets the list of gates.
func TestUnknownGateSuggests(t *testing.T) {
	known := []string{"lint", "test"}
	for _, tt := range []struct {
		unknown []string
		want    string
	}{
		{[]string{"tset"}, `unknown gate "tset"; did you mean "test"?`},
		{[]string{"tset", "lnit"}, `unknown gate "tset", "lnit"; did you mean "test", "lint"?`},
		{[]string{"tset", "zzzzzz"}, `unknown gate "tset", "zzzzzz" (gates in the config: lint, test)`},
		{[]string{"zzzzzz"}, `unknown gate "zzzzzz" (gates in the config: lint, test)`},
	} {
		if got := (&UnknownGateError{Unknown: tt.unknown, Known: known}).Error(); got != tt.want {
			t.Errorf("%v: %q, want %q", tt.unknown, got, tt.want)
		}
	}
}
