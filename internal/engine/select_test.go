package engine

import (
	"context"
	"os"
	"os/exec"
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

// gitRepo makes a repository on main with one commit of files, for the selection to read.
func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitIn(t, dir, "init", "-q", "-b", "main")
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-q", "-m", "initial")
	return dir
}

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

const scopedYml = `version: 1
gates:
  test:
    run: "true"
    paths: ["**/*.go"]
  fmt:
    run: "echo {files}"
    paths: ["**/*.go"]
  docs:
    run: "true"
    paths: ["**/*.md"]
`

func selectIn(t *testing.T, dir string, scope Scope) *Selection {
	t.Helper()
	cfg, err := config.Parse(filepath.Join(dir, config.FileName), []byte(scopedYml), dir)
	if err != nil {
		t.Fatal(err)
	}
	sel, err := Select(context.Background(), cfg, scope)
	if err != nil {
		t.Fatal(err)
	}
	return sel
}

func ranNames(sel *Selection) []string {
	var out []string
	for _, g := range sel.Run {
		out = append(out, g.Name)
	}
	return out
}

func filesOf(sel *Selection, name string) []string {
	for _, g := range sel.Run {
		if g.Name == name {
			return g.Files
		}
	}
	return nil
}

// With nothing changed against the base, `run` has no change to scope to: every gate, every
// file. The stop hook's scoping (AllWhenUnchanged off) still skips them.
func TestSelectNothingChanged(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.go": "package a\n", "sub/b.go": "package b\n", "README.md": "r\n"})
	sel := selectIn(t, dir, Scope{AllWhenUnchanged: true})
	if got := strings.Join(ranNames(sel), " "); got != "test fmt docs" {
		t.Fatalf("ran %q, want every gate", got)
	}
	if sel.AllBecause != "nothing changed against main" || !sel.All {
		t.Errorf("AllBecause %q, All %v: want nothing changed against main", sel.AllBecause, sel.All)
	}
	if got := strings.Join(filesOf(sel, "fmt"), " "); got != "a.go sub/b.go" {
		t.Errorf("fmt got files %q, want every tracked Go file", got)
	}
	if !strings.Contains(sel.Reasons["test"], "nothing changed against main") {
		t.Errorf("test's reason %q does not say why it runs", sel.Reasons["test"])
	}

	// The twin: without AllWhenUnchanged (the stop hook), a clean tree runs nothing scoped.
	if sel := selectIn(t, dir, Scope{}); len(sel.Run) != 0 || sel.AllBecause != "" {
		t.Errorf("without AllWhenUnchanged ran %v (%q), want none", ranNames(sel), sel.AllBecause)
	}
	// A change scopes again, and says nothing.
	if err := os.WriteFile(filepath.Join(dir, "notes.md"), []byte("n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sel = selectIn(t, dir, Scope{AllWhenUnchanged: true})
	if got := strings.Join(ranNames(sel), " "); got != "docs" || sel.AllBecause != "" || sel.All {
		t.Errorf("with a change ran %q (%q, all %v), want docs alone", got, sel.AllBecause, sel.All)
	}
}

// A CI push is scoped to the pushed range; a range the clone does not hold, or none, runs all.
func TestSelectPushed(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.go": "package a\n", "README.md": "r\n"})
	before := gitIn(t, dir, "rev-parse", "HEAD")
	if err := os.WriteFile(filepath.Join(dir, "b.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-q", "-m", "code")

	sel := selectIn(t, dir, Scope{AllWhenUnchanged: true, Pushed: before})
	if got := strings.Join(ranNames(sel), " "); got != "test fmt" || sel.AllBecause != "" {
		t.Errorf("pushed range ran %q (%q), want test fmt", got, sel.AllBecause)
	}
	if want := "the pushed range since " + before[:12]; sel.ScopedTo != want {
		t.Errorf("ScopedTo = %q, want %q", sel.ScopedTo, want)
	}
	if got := strings.Join(filesOf(sel, "fmt"), " "); got != "b.go" {
		t.Errorf("fmt got %q, want the pushed file", got)
	}
	// --base wins: against main (HEAD) nothing changed.
	sel = selectIn(t, dir, Scope{AllWhenUnchanged: true, Pushed: before, Base: "main"})
	if sel.AllBecause != "nothing changed against main" {
		t.Errorf("--base main: AllBecause %q, want nothing changed against main", sel.AllBecause)
	}

	unknown := "1234567890abcdef1234567890abcdef12345678"
	sel = selectIn(t, dir, Scope{AllWhenUnchanged: true, Pushed: unknown})
	if len(sel.Run) != 3 || !strings.Contains(sel.AllBecause, "1234567890ab, which this clone does not have") {
		t.Errorf("unknown before ran %v (%q), want every gate, saying why", ranNames(sel), sel.AllBecause)
	}
	sel = selectIn(t, dir, Scope{AllWhenUnchanged: true, Unscoped: "the push created the branch"})
	if len(sel.Run) != 3 || sel.AllBecause != "the push created the branch" {
		t.Errorf("no range ran %v (%q), want every gate, saying why", ranNames(sel), sel.AllBecause)
	}
}

// A pull request is scoped against the merge-base with its base, and says so; a base the clone
// does not hold (a shallow checkout) runs every gate, saying why.
func TestSelectPullRequest(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.go": "package a\n", "README.md": "r\n"})
	base := gitIn(t, dir, "rev-parse", "HEAD")
	gitIn(t, dir, "checkout", "-q", "-b", "feature")
	if err := os.WriteFile(filepath.Join(dir, "b.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-q", "-m", "code")

	sel := selectIn(t, dir, Scope{AllWhenUnchanged: true, Pushed: base, PullRequest: "main"})
	if got := strings.Join(ranNames(sel), " "); got != "test fmt" || sel.AllBecause != "" {
		t.Errorf("pull request ran %q (%q), want test fmt", got, sel.AllBecause)
	}
	if want := "the pull request against main: the change since its merge-base with " + base[:12]; sel.ScopedTo != want {
		t.Errorf("ScopedTo = %q, want %q", sel.ScopedTo, want)
	}
	sel = selectIn(t, dir, Scope{AllWhenUnchanged: true, Pushed: "origin/main", PullRequest: "main"})
	if len(sel.Run) != 3 || sel.AllBecause != "the pull request's base origin/main is not in this clone (check out with fetch-depth: 0)" {
		t.Errorf("missing base ran %v (%q), want every gate, saying why", ranNames(sel), sel.AllBecause)
	}
	if sel.ScopedTo != "" {
		t.Errorf("ScopedTo = %q with every gate run, want none", sel.ScopedTo)
	}
}

// A named gate runs whatever its paths say; a named {files} gate gets every tracked file its
// paths match.
func TestSelectNamedFilesGetsEveryFile(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.go": "package a\n", "sub/b.go": "package b\n", "README.md": "r\n"})
	gitIn(t, dir, "checkout", "-q", "-b", "feature")
	if err := os.WriteFile(filepath.Join(dir, "notes.md"), []byte("n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sel := selectIn(t, dir, Scope{Names: []string{"fmt", "test"}, AllWhenUnchanged: true})
	if got := strings.Join(ranNames(sel), " "); got != "test fmt" {
		t.Fatalf("ran %q, want the named gates", got)
	}
	if got := strings.Join(filesOf(sel, "fmt"), " "); got != "a.go sub/b.go" {
		t.Errorf("named fmt got %q, want every tracked Go file", got)
	}
	// A new file not yet added is the project's too: named (or --all), the gate checks it.
	if err := os.WriteFile(filepath.Join(dir, "new.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, scope := range []Scope{{Names: []string{"fmt"}}, {All: true}} {
		sel = selectIn(t, dir, scope)
		if got := strings.Join(filesOf(sel, "fmt"), " "); got != "a.go new.go sub/b.go" {
			t.Errorf("%+v: fmt got %q, want the tracked Go files and the new one", scope, got)
		}
	}
	if !strings.Contains(sel.Reasons["fmt"], "every tracked file its paths match") {
		t.Errorf("fmt's reason %q does not say it got every file", sel.Reasons["fmt"])
	}
}

// In git with no base to compare with and nothing changed, every gate runs (as before) and the
// run says why in its one line; outside git the gates' own reasons say it.
func TestSelectNoBaseSaysWhy(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.go": "package a\n"})
	gitIn(t, dir, "branch", "-m", "dev")
	sel := selectIn(t, dir, Scope{AllWhenUnchanged: true})
	if len(sel.Run) != 3 || !strings.HasPrefix(sel.AllBecause, "no change scoping: no base ref found") || !sel.All {
		t.Errorf("no base: ran %v (%q, all %v), want every gate, saying why", ranNames(sel), sel.AllBecause, sel.All)
	}
	sel = selectIn(t, t.TempDir(), Scope{AllWhenUnchanged: true})
	if sel.AllBecause != "" {
		t.Errorf("outside git: AllBecause %q, want none", sel.AllBecause)
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
