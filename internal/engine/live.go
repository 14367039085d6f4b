package engine

import (
	"fmt"
	"sync"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/policy"
	"github.com/gauntlet-dev/gauntlet/runner"
)

// settlingView is a live view that can show a gate whose process ended while its status waits
// for the run's check of what the gates wrote (report.Progress): it is told so with Settling,
// then Finished gives the final result.
type settlingView interface {
	Settling(r gates.Result)
}

// liveView stands between the runner and the caller's live view, so that the line a view prints
// for a gate shows the status the gate ends with, not the one the runner gave it before the
// engine's own judgements. It holds the runner's events, not the view's drawing: the runner and
// the view stay unaware of the engine's judgements, and the view of when they happen.
//
//   - A cold first build's timeout is an error: coldJudge needs only the gate's result, so the
//     view is told the error as the gate ends.
//   - An error may be the change's once the base is asked (earnErrors, in the stop hook): its
//     Finished waits for settle too.
//   - A pass, warning or error of a gate the check for writes judges may become a failure once
//     every gate has run (blameWrites attributes each changed file by the time it was written,
//     to the gates running then): its Finished waits for settle, and the view is told meanwhile
//     that the gate is being checked, not running.
type liveView struct {
	view   runner.Observer
	cold   *coldJudge
	byName map[string]gates.Gate
	// checked: the worktree is checked for writes once the gates have run.
	checked bool
	// earns: an error may still be the change's (earnErrors asks the base, in the stop hook).
	earns bool

	mu   sync.Mutex
	held map[string]bool
}

func newLiveView(view runner.Observer, cold *coldJudge, byName map[string]gates.Gate, checked, earns bool) *liveView {
	return &liveView{view: view, cold: cold, byName: byName, checked: checked, earns: earns, held: map[string]bool{}}
}

// observer is what the runner reports to: nil when there is no view to report to.
func (v *liveView) observer() runner.Observer {
	if v.view == nil {
		return nil
	}
	return v
}

func (v *liveView) Started(g gates.Gate, at time.Time) { v.view.Started(g, at) }
func (v *liveView) Output(gate string, line []byte)    { v.view.Output(gate, line) }

// answered shows the gates of the run that will not run, answered by the cache or a background
// judge: final already, so that the live view has every gate of the run and its count is true.
func (v *liveView) answered(results []gates.Result) {
	if v.view == nil {
		return
	}
	for _, r := range results {
		v.finish(r) // a view that panics is gauntlet's error, and these results are final already
	}
}

// Finished passes on a result the run's checks can no longer change, and holds back the others.
func (v *liveView) Finished(r gates.Result) {
	r = v.cold.judge(r)
	if (!v.checked || !mayBecomeFailure(r, v.byName)) && (!v.earns || !policy.MayBeEarned(r)) {
		v.view.Finished(r)
		return
	}
	v.mu.Lock()
	v.held[r.Name] = true
	v.mu.Unlock()
	if s, ok := v.view.(settlingView); ok {
		s.Settling(r)
	}
}

// settle gives the view the final results of the gates it held back, once the run has judged
// them. A view that panics turns the result into gauntlet's own error, as the runner does for a
// view that panics while the gates run.
func (v *liveView) settle(results []gates.Result) []gates.Result {
	if v.view == nil {
		return results
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	for i, r := range results {
		if v.held[r.Name] {
			results[i] = v.finish(r)
		}
	}
	return results
}

func (v *liveView) finish(r gates.Result) (out gates.Result) {
	defer func() {
		if p := recover(); p != nil {
			r.Status, r.Reason = gates.StatusError, fmt.Sprintf("gauntlet error: observer panicked: %v", p)
			out = r
		}
	}()
	v.view.Finished(r)
	return r
}
