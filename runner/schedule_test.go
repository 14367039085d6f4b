package runner

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// events records starts and finishes in the one order the runner reported them.
type events struct {
	mu  sync.Mutex
	log []string
}

func (e *events) Started(g gates.Gate, _ time.Time) { e.add("start " + g.Name) }
func (e *events) Output(string, []byte)             {}
func (e *events) Finished(r gates.Result)           { e.add("finish " + r.Name) }

func (e *events) add(s string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.log = append(e.log, s)
}

func (e *events) at(s string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Index(e.log, s)
}

func needing(g gates.Gate, needs ...string) gates.Gate {
	g.Needs = needs
	return g
}

func TestNeedsStartAfterTheirNeedsFinish(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	ev := &events{}
	opts.Observer = ev
	// A diamond, listed dependents first: input order must not start a gate before its needs.
	gs := []gates.Gate{
		needing(shellGate("e2e", "true"), "unit", "lint"),
		needing(shellGate("unit", "sleep 0.2"), "build"),
		needing(shellGate("lint", "true"), "build"),
		shellGate("build", "sleep 0.2"),
		shellGate("free", "true"),
	}
	results := runWithin(t, 30*time.Second, func() []gates.Result { return Run(context.Background(), gs, opts) })
	for _, r := range results {
		if r.Status != gates.StatusPass {
			t.Errorf("%s: %s %q, want pass", r.Name, r.Status, r.Reason)
		}
	}
	for _, g := range gs {
		for _, n := range g.Needs {
			if s, f := ev.at("start "+g.Name), ev.at("finish "+n); s < 0 || f < 0 || s < f {
				t.Errorf("%s started at event %d, before its need %s finished at %d: %v", g.Name, s, n, f, ev.log)
			}
		}
	}
}

func TestFailedNeedSkipsItsDependents(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	rec := &recorder{}
	opts.Observer = rec
	warn := shellGate("style", "exit 1")
	warn.Severity = gates.SeverityWarn
	gs := []gates.Gate{
		shellGate("build", "exit 1"),
		needing(shellGate("test", "true"), "build"),
		needing(shellGate("e2e", "true"), "test"),
		shellGate("broken", "exit 127"),
		needing(shellGate("deploy", "true"), "broken"),
		warn,
		needing(shellGate("docs", "true"), "style"),
		needing(shellGate("other", "true"), "not-in-this-run"),
	}
	r := byName(runWithin(t, 30*time.Second, func() []gates.Result { return Run(context.Background(), gs, opts) }))
	want := map[string]struct {
		status  gates.Status
		reason  string
		because string
	}{
		"test":   {gates.StatusSkipped, "needs build, which failed", "build"},
		"e2e":    {gates.StatusSkipped, "needs test, which did not run because build failed", "test"},
		"deploy": {gates.StatusSkipped, "needs broken, which could not run (error)", "broken"},
		"docs":   {gates.StatusPass, "", ""},
		"other":  {gates.StatusPass, "", ""},
	}
	for name, w := range want {
		got := r[name]
		if got.Status != w.status || got.SkippedBecause != w.because || w.reason != "" && got.Reason != w.reason {
			t.Errorf("%s: %s %q because %q, want %s %q because %q", name, got.Status, got.Reason, got.SkippedBecause, w.status, w.reason, w.because)
		}
	}
	for _, name := range []string{"test", "e2e", "deploy"} {
		if slices.Contains(rec.started, name) || !r[name].Started.IsZero() || r[name].ExitCode != -1 {
			t.Errorf("%s was started: %+v", name, r[name])
		}
	}
	if len(rec.finished) != len(gs) {
		t.Errorf("Finished called %d times, want once per gate (%d)", len(rec.finished), len(gs))
	}
}

func TestWaitingGatesTakeNoSlot(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	opts.Jobs = 1
	rec := &recorder{}
	opts.Observer = rec
	gs := []gates.Gate{
		needing(shellGate("second", "true"), "first"),
		shellGate("first", "true"),
		needing(shellGate("third", "true"), "second"),
	}
	results := runWithin(t, 30*time.Second, func() []gates.Result { return Run(context.Background(), gs, opts) })
	if got := strings.Join(rec.started, ","); got != "first,second,third" {
		t.Errorf("started %s, want first,second,third", got)
	}
	for _, r := range results {
		if r.Status != gates.StatusPass {
			t.Errorf("%s: %s", r.Name, r.Status)
		}
	}
}

func TestCancelledRunCancelsWaitingGates(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts.Observer = startedThen(cancel)
	gs := []gates.Gate{
		shellGate("slow", "echo ready; sleep 1000"),
		needing(shellGate("after", "true"), "slow"),
	}
	results := runWithin(t, 30*time.Second, func() []gates.Result { return Run(ctx, gs, opts) })
	for _, r := range results {
		if r.Status != gates.StatusCancelled {
			t.Errorf("%s: %s %q, want cancelled", r.Name, r.Status, r.Reason)
		}
	}
}

func TestFailFastCancelsWaitingGates(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	opts.FailFast = true
	gs := []gates.Gate{
		shellGate("bad", "exit 1"),
		needing(shellGate("after", "true"), "bad"),
	}
	r := byName(runWithin(t, 30*time.Second, func() []gates.Result { return Run(context.Background(), gs, opts) }))
	if r["after"].Status != gates.StatusCancelled {
		t.Errorf("after: %s %q, want cancelled by fail-fast", r["after"].Status, r["after"].Reason)
	}
}

// Config rules cycles out; gates built by hand with one must end in an error, not a hang.
func TestCycleIsAnErrorNotAHang(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	gs := []gates.Gate{
		needing(shellGate("a", "true"), "b"),
		needing(shellGate("b", "true"), "a"),
		shellGate("c", "true"),
	}
	r := byName(runWithin(t, 30*time.Second, func() []gates.Result { return Run(context.Background(), gs, opts) }))
	for _, name := range []string{"a", "b"} {
		if r[name].Status != gates.StatusError || !strings.Contains(r[name].Reason, "cycle") {
			t.Errorf("%s: %s %q, want an error naming the cycle", name, r[name].Status, r[name].Reason)
		}
	}
	if r["c"].Status != gates.StatusPass {
		t.Errorf("c: %s, want pass", r["c"].Status)
	}
}

// A gate the change added starts once every gate of the base has finished, failed ones included,
// and is not skipped for their failures.
func TestAfterBaseStartsOnceTheBaseGatesFinish(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	ev := &events{}
	opts.Observer = ev
	added := shellGate("added", "true")
	added.AfterBase = true
	gs := []gates.Gate{added, shellGate("test", "sleep 0.2; exit 1"), shellGate("lint", "true")}
	results := runWithin(t, 30*time.Second, func() []gates.Result { return Run(context.Background(), gs, opts) })
	if results[0].Status != gates.StatusPass {
		t.Errorf("added: %s %q, want pass", results[0].Status, results[0].Reason)
	}
	for _, base := range []string{"test", "lint"} {
		if ev.at("start added") < ev.at("finish "+base) {
			t.Errorf("added started before %s finished: %v", base, ev.log)
		}
	}
}

// The caller is told once, between the base's gates and the first gate the change added, so that
// it can read the tree the base's gates judged before any added gate can touch it.
func TestBaseDoneCalledOnceBeforeTheAddedGates(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	ev := &events{}
	opts.Observer = ev
	calls := 0
	opts.BaseDone = func() { calls++; ev.add("base done") }
	a, b := shellGate("a", "true"), shellGate("b", "true")
	a.AfterBase, b.AfterBase = true, true
	gs := []gates.Gate{a, shellGate("test", "sleep 0.2"), b}
	runWithin(t, 30*time.Second, func() []gates.Result { return Run(context.Background(), gs, opts) })
	if calls != 1 {
		t.Fatalf("BaseDone called %d times, want 1", calls)
	}
	if ev.at("base done") < ev.at("finish test") || ev.at("start a") < ev.at("base done") {
		t.Errorf("BaseDone not between the base's gates and the added ones: %v", ev.log)
	}
	calls = 0
	runWithin(t, 30*time.Second, func() []gates.Result { return Run(context.Background(), gs[1:2], opts) })
	if calls != 0 {
		t.Errorf("BaseDone called %d times without a gate the change added, want 0", calls)
	}
}
