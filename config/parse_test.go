package config

import (
	"errors"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
)

func mustParse(t *testing.T, yaml string) *Config {
	t.Helper()
	c, err := Parse(".gauntlet.yml", []byte(yaml), "")
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return c
}

// comparable replaces compiled patterns by their source, which DeepEqual can compare.
func comparable(g gates.Gate) (gates.Gate, []string) {
	var patterns []string
	for _, re := range g.InfraPatterns {
		patterns = append(patterns, re.String())
	}
	g.InfraPatterns = nil
	return g, patterns
}

func TestParseAppliesDefaults(t *testing.T) {
	c := mustParse(t, `
version: 1
gates:
  vet:
    run: go vet ./...
  review:
    kind: review
    cli: claude
  todos:
    kind: todos
`)
	if c.Jobs != runtime.NumCPU() || c.Timeout != 10*time.Minute || c.FailFast || c.Base != "" || c.KeepRuns != 10 || c.Env != nil || !c.Causes {
		t.Errorf("top-level defaults: %+v", c)
	}
	wantHook := StopHook{MaxAttempts: 3, Timeout: 9 * time.Minute, LockWait: 30 * time.Second, FirstFailure: FirstFailure{Grace: DefaultFirstFailureGrace}, Speculative: true, QuietPeriod: DefaultQuietPeriod, LocalOverrides: LocalReport, PreExisting: PreExistingReport, ReasonLimit: DefaultReasonLimit, PreEdit: PreEditDeny}
	if c.StopHook != wantHook {
		t.Errorf("stop_hook = %+v, want %+v", c.StopHook, wantHook)
	}
	wantRoot, _ := filepath.Abs(".")
	if c.Root != wantRoot || c.Path != filepath.Join(wantRoot, ".gauntlet.yml") {
		t.Errorf("Root, Path = %q, %q", c.Root, c.Path)
	}
	base := gates.Gate{Timeout: 10 * time.Minute, TimeoutFrom: gates.TimeoutFromBuiltin, Severity: gates.SeverityError, When: gates.WhenAlways, Enabled: true, Speculative: true}
	vet, review, todos := base, base, base
	vet.Name, vet.Kind, vet.Run, vet.OnTimeout = "vet", gates.KindCheck, "go vet ./...", gates.StatusFail
	vet.Causes = true // review and todos gates judge themselves: no catalogue
	review.Name, review.Kind, review.OnTimeout = "review", gates.KindReview, gates.StatusError
	review.Review = &gates.Review{CLI: "claude", MaxDiffBytes: DefaultMaxDiffBytes}
	todos.Name, todos.Kind, todos.OnTimeout = "todos", gates.KindTodos, gates.StatusFail
	if want := []gates.Gate{vet, review, todos}; !reflect.DeepEqual(c.Gates, want) {
		t.Errorf("gates:\n got %+v\nwant %+v", c.Gates, want)
	}
	if c.Gates[0].InfraExitCodes != nil {
		t.Errorf("absent infra_exit_codes must stay nil so that the defaults apply")
	}
}

func TestParseResolvesEveryKey(t *testing.T) {
	c := mustParse(t, `
version: 1
jobs: 3
timeout: 2m
fail_fast: true
base: develop
keep_runs: 0
env: {A: "1", GOMAXPROCS: 4, DEBUG: true}
causes: false
stop_hook:
  max_attempts: 5
  timeout: 4m
  lock_wait: 5s
  subagents: true
  honor_active_flag: true
  first_failure: wait
  speculative: false
  quiet_period: 3s
  local_overrides: ignore
  pre_existing: block
  reason_limit: 2500
  pre_edit: warn
gates:
  test:
    argv: [go, test, ./...]
    dir: ./sub/../tools/
    env: {A: "2"}
    timeout: 90s
    paths: ["**/*.go"]
    exclude: [vendor/**]
    severity: warn
    on_timeout: error
    infra_exit_codes: []
    infra_patterns: ["no such host"]
    hint: try again
    when: ci
    enabled: false
    causes: true
    speculative: false
    tests: "reports/**/TEST-*.xml"
  lint:
    run: golangci-lint run
  review:
    kind: review
    cli: codex
    prompt_file: .gauntlet/review.md
    model: o3
    max_diff_bytes: 1000
    on_timeout: fail
`)
	wantHook := StopHook{MaxAttempts: 5, Timeout: 4 * time.Minute, LockWait: 5 * time.Second, Subagents: true, HonorActiveFlag: true, FirstFailure: FirstFailure{Wait: true}, QuietPeriod: 3 * time.Second, LocalOverrides: LocalIgnore, PreExisting: PreExistingBlock, ReasonLimit: 2500, PreEdit: PreEditWarn}
	if c.Jobs != 3 || c.Timeout != 2*time.Minute || !c.FailFast || c.Base != "develop" || c.KeepRuns != 0 || c.StopHook != wantHook {
		t.Errorf("top level: %+v", c)
	}
	if want := []string{"A=1", "GOMAXPROCS=4", "DEBUG=true"}; !slices.Equal(c.Env, want) {
		t.Errorf("Env = %q, want %q", c.Env, want)
	}
	test, patterns := comparable(c.Gates[0])
	wantTest := gates.Gate{
		Name: "test", Kind: gates.KindCheck, Argv: []string{"go", "test", "./..."}, Dir: "tools",
		Env: []string{"A=1", "GOMAXPROCS=4", "DEBUG=true", "A=2"}, Timeout: 90 * time.Second, TimeoutFrom: gates.TimeoutFromGate,
		Paths: []string{"**/*.go"}, Exclude: []string{"vendor/**"}, Severity: gates.SeverityWarn,
		OnTimeout: gates.StatusError, InfraExitCodes: []int{}, Hint: "try again", When: gates.WhenCI,
		Causes: true, Tests: "reports/**/TEST-*.xml",
	}
	if !reflect.DeepEqual(test, wantTest) || !slices.Equal(patterns, []string{"no such host"}) {
		t.Errorf("test gate:\n got %+v %q\nwant %+v", test, patterns, wantTest)
	}
	if test.InfraExitCodes == nil {
		t.Errorf("an explicit empty infra_exit_codes must stay non-nil: it turns the defaults off")
	}
	if c.Causes || c.Gates[1].Causes {
		t.Errorf("top-level causes: false must reach the gates that do not set their own")
	}
	review := c.Gates[2]
	wantReview := &gates.Review{CLI: "codex", PromptFile: ".gauntlet/review.md", Model: "o3", MaxDiffBytes: 1000}
	if review.OnTimeout != gates.StatusFail || review.Timeout != 2*time.Minute || !reflect.DeepEqual(review.Review, wantReview) {
		t.Errorf("review gate: %+v %+v", review, review.Review)
	}
}

func TestParseKeepsFileOrder(t *testing.T) {
	c := mustParse(t, `
version: 1
env: {Z: z, A: a, M: m}
gates:
  zeta: {run: z}
  alpha: {run: a}
  mid: {run: m, env: {B: b, A: override}}
  beta: {run: b}
`)
	var names []string
	for _, g := range c.Gates {
		names = append(names, g.Name)
	}
	if want := []string{"zeta", "alpha", "mid", "beta"}; !slices.Equal(names, want) {
		t.Errorf("gate order = %q, want %q", names, want)
	}
	if want := []string{"Z=z", "A=a", "M=m", "B=b", "A=override"}; !slices.Equal(c.Gates[2].Env, want) {
		t.Errorf("mid env = %q, want %q (config env first, so the gate's wins)", c.Gates[2].Env, want)
	}
}

func TestParseAcceptsNoGates(t *testing.T) {
	for _, yaml := range []string{"version: 1\n", "version: 1\ngates:\n", "version: 1\ngates: {}\n"} {
		c, err := Parse(".gauntlet.yml", []byte(yaml), "")
		if err != nil || len(c.Gates) != 0 {
			t.Errorf("%q: gates %v, err %v", yaml, c, err)
		}
	}
}

func TestParseFollowsAnchorsAndMergeKeys(t *testing.T) {
	c := mustParse(t, `
version: 1
gates:
  test: &go
    argv: [go, test, ./...]
    timeout: 3m
    paths: &gofiles ["**/*.go", go.mod]
  vet:
    <<: *go
    argv: [go, vet, ./...]
  build:
    run: go build ./...
    paths: *gofiles
`)
	vet, build := c.Gates[1], c.Gates[2]
	if !slices.Equal(vet.Argv, []string{"go", "vet", "./..."}) || vet.Timeout != 3*time.Minute || !slices.Equal(vet.Paths, []string{"**/*.go", "go.mod"}) {
		t.Errorf("vet = %+v: explicit keys must win over merged ones, the rest must be merged", vet)
	}
	if !slices.Equal(build.Paths, []string{"**/*.go", "go.mod"}) {
		t.Errorf("build paths = %q", build.Paths)
	}
}

func TestParseNormalisesValues(t *testing.T) {
	c := mustParse(t, "version: 1\nbase: auto\ngates:\n  a: {run: x, dir: .}\n  b: {run: x, dir: ./b/}\n")
	if c.Base != "" {
		t.Errorf("base auto = %q, want \"\"", c.Base)
	}
	if c.Gates[0].Dir != "" || c.Gates[1].Dir != "b" {
		t.Errorf("dirs = %q, %q; want \"\", \"b\"", c.Gates[0].Dir, c.Gates[1].Dir)
	}
}

func TestSetDefaultTimeoutSparesGatesWithTheirOwn(t *testing.T) {
	c := mustParse(t, "version: 1\ngates:\n  own: {run: x, timeout: 1m}\n  inherited: {run: x}\n")
	c.SetDefaultTimeout(30 * time.Second)
	if c.Timeout != 30*time.Second || c.Gates[0].Timeout != time.Minute || c.Gates[1].Timeout != 30*time.Second {
		t.Errorf("timeouts = %v, %v, %v", c.Timeout, c.Gates[0].Timeout, c.Gates[1].Timeout)
	}
}

func TestParseRejectsOversizedFile(t *testing.T) {
	data := []byte("version: 1\n# " + strings.Repeat("x", maxConfigBytes) + "\n")
	_, err := Parse(".gauntlet.yml", data, "")
	if err == nil || err.Error() != ".gauntlet.yml:1:1: config file is larger than 1 MiB" {
		t.Errorf("err = %v", err)
	}
}

func TestProblemsOutsideWorkingDirShowAbsolutePath(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".gauntlet.yml")
	_, err := Parse(path, []byte("jobs: 1\n"), "")
	var errs *Errors
	if !errors.As(err, &errs) || len(errs.Problems) != 1 || errs.Problems[0].File != path {
		t.Fatalf("err = %v, want one problem in %s", err, path)
	}
	if want := path + `:1:1: missing required key "version" (add "version: 1")`; err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
}

// Every gate knows where its timeout came from, so that a timeout's reason can say which limit to
// raise: its own timeout:, the config's, --timeout (which spares the gate's own), or the built-in.
func TestTimeoutFrom(t *testing.T) {
	c := mustParse(t, "version: 1\ngates:\n  own: {run: x, timeout: 1m}\n  inherited: {run: x}\nsetup:\n  deps: {run: x}\n")
	if c.Gates[0].TimeoutFrom != gates.TimeoutFromGate || c.Gates[1].TimeoutFrom != gates.TimeoutFromBuiltin || c.Setup[0].TimeoutFrom != gates.TimeoutFromBuiltin {
		t.Errorf("from = %q, %q, %q", c.Gates[0].TimeoutFrom, c.Gates[1].TimeoutFrom, c.Setup[0].TimeoutFrom)
	}
	c.SetDefaultTimeout(30 * time.Second)
	if c.Gates[0].TimeoutFrom != gates.TimeoutFromGate || c.Gates[1].TimeoutFrom != gates.TimeoutFromFlag || c.Setup[0].TimeoutFrom != gates.TimeoutFromFlag {
		t.Errorf("after --timeout: from = %q, %q, %q", c.Gates[0].TimeoutFrom, c.Gates[1].TimeoutFrom, c.Setup[0].TimeoutFrom)
	}
	c = mustParse(t, "version: 1\ntimeout: 5m\ngates:\n  inherited: {run: x}\n")
	if c.Gates[0].TimeoutFrom != gates.TimeoutFromConfig {
		t.Errorf("from = %q, want the config's", c.Gates[0].TimeoutFrom)
	}
}
