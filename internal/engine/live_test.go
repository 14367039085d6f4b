package engine

import (
	"sync"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// eventView records what a live view is told, in order.
type eventView struct {
	mu     sync.Mutex
	events []string
	panics bool
}

func (v *eventView) Started(g gates.Gate, _ time.Time) {}
func (v *eventView) Output(string, []byte)             {}
func (v *eventView) Finished(r gates.Result) {
	v.mu.Lock()
	v.events = append(v.events, "finished "+r.Name+" "+string(r.Status))
	v.mu.Unlock()
	if v.panics {
		panic("view broke")
	}
}
func (v *eventView) Settling(r gates.Result) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.events = append(v.events, "settling "+r.Name+" "+string(r.Status))
}

func TestLiveViewShowsTheFinalStatus(t *testing.T) {
	byName := map[string]gates.Gate{
		"fmt":   {Name: "fmt", Kind: gates.KindCheck},
		"gen":   {Name: "gen", Kind: gates.KindCheck, Writes: true},
		"lint":  {Name: "lint", Kind: gates.KindCheck},
		"build": {Name: "build", Kind: gates.KindCheck, Timeout: time.Second},
	}
	ran := func(name string, s gates.Status) gates.Result {
		return gates.Result{Name: name, Kind: gates.KindCheck, Status: s, Started: time.Now(), ExitCode: -1}
	}
	view := &eventView{}
	live := newLiveView(view, newColdJudge(byName), byName, true, false)
	obs := live.observer()
	obs.Finished(ran("fmt", gates.StatusPass))  // may still be blamed for writing: held
	obs.Finished(ran("gen", gates.StatusPass))  // may write: final
	obs.Finished(ran("lint", gates.StatusFail)) // a failure stays one: final
	cold := ran("build", gates.StatusFail)
	cold.TimedOut, cold.Tail = true, "go: downloading golang.org/x/tools v0.30.0"
	obs.Finished(cold) // a cold first build, by its output: an error, and then held like any error

	final := []gates.Result{ran("fmt", gates.StatusFail), ran("gen", gates.StatusPass), ran("lint", gates.StatusFail), ran("build", gates.StatusError)}
	live.settle(final)
	want := []string{
		"settling fmt pass",
		"finished gen pass",
		"finished lint fail",
		"settling build error",
		"finished fmt fail",
		"finished build error",
	}
	if len(view.events) != len(want) {
		t.Fatalf("events %q, want %q", view.events, want)
	}
	for i := range want {
		if view.events[i] != want[i] {
			t.Errorf("event %d = %q, want %q", i, view.events[i], want[i])
		}
	}

	// Without the check for writes, nothing waits.
	view = &eventView{}
	live = newLiveView(view, newColdJudge(byName), byName, false, false)
	live.observer().Finished(ran("fmt", gates.StatusPass))
	if len(view.events) != 1 || view.events[0] != "finished fmt pass" {
		t.Errorf("unchecked run: events %q", view.events)
	}

	// In the stop hook, an error waits for the base to be asked (earnErrors), even without the
	// check for writes; one from a decisive cause does not.
	view = &eventView{}
	live = newLiveView(view, newColdJudge(byName), byName, false, true)
	live.observer().Finished(ran("lint", gates.StatusError))
	full := ran("fmt", gates.StatusError)
	full.Cause = &gates.Cause{ID: "disk-full"}
	live.observer().Finished(full)
	live.settle([]gates.Result{ran("lint", gates.StatusFail), full})
	if got := view.events; len(got) != 3 || got[0] != "settling lint error" || got[1] != "finished fmt error" || got[2] != "finished lint fail" {
		t.Errorf("stop hook errors: events %q", got)
	}

	// A view that breaks on a held result makes it gauntlet's own error, as the runner would.
	view = &eventView{panics: true}
	live = newLiveView(view, newColdJudge(byName), byName, true, false)
	live.observer().Finished(ran("fmt", gates.StatusPass))
	got := live.settle([]gates.Result{ran("fmt", gates.StatusPass)})
	if got[0].Status != gates.StatusError || got[0].Reason != "gauntlet error: observer panicked: view broke" {
		t.Errorf("panicking view: %+v", got[0])
	}

	// No view: the runner reports to none.
	if newLiveView(nil, nil, byName, true, false).observer() != nil {
		t.Error("a nil view became an observer")
	}
}
