package engine

import (
	"slices"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// useJudged takes the results a background judge found on this very state instead of running
// those gates again. A result the judge did not reach (cancelled, skipped) runs now. With
// fail-fast, a failure among them leaves the other gates unjudged, as a failure in the run would:
// the agent's fix will change the state anyway.
func useJudged(req Request, gs []gates.Gate) (rest []gates.Gate, used []gates.Result) {
	if len(req.Judged) == 0 {
		return gs, nil
	}
	byName := make(map[string]gates.Result, len(req.Judged))
	for _, r := range req.Judged {
		byName[r.Name] = r
	}
	failed := ""
	for _, g := range gs {
		r, ok := byName[g.Name]
		if !ok || !judgedStatus(r.Status) {
			rest = append(rest, g)
			continue
		}
		r.Reason += " (judged in the background, on this same state)"
		used = append(used, r)
		if r.Status == gates.StatusFail && failed == "" {
			failed = g.Name
		}
	}
	if failed == "" || !(req.FailFast || req.Config.FailFast) {
		return rest, used
	}
	return nil, append(used, cancelledAfter(rest, failed)...)
}

// cancelledAfter are the results of the gates fail-fast cancels once failed has failed.
func cancelledAfter(gs []gates.Gate, failed string) []gates.Result {
	var out []gates.Result
	for _, g := range gs {
		out = append(out, gates.Result{
			Name: g.Name, Kind: g.Kind, Status: gates.StatusCancelled, ExitCode: -1,
			Reason: "cancelled: fail-fast after " + failed + " failed", Hint: g.Hint, Command: g.Command(),
		})
	}
	return out
}

// judgedStatus says whether a result is a judgement of the gate rather than its absence. An
// error is not: the environment broke while the judge ran (often because the agent was still
// working on it), and taking it would let the stop allow unjudged; it runs again at the stop, as
// a shared verdict of error is judged anew.
func judgedStatus(s gates.Status) bool {
	switch s {
	case gates.StatusPass, gates.StatusFail, gates.StatusWarn:
		return true
	}
	return false
}

// skipAfterJudged skips the gates left to run whose need the background judge already failed
// on this state, as the runner would have: they are not judged without what they need.
func skipAfterJudged(rest []gates.Gate, judged []gates.Result) ([]gates.Gate, []gates.Result) {
	done := make(map[string]gates.Result, len(judged))
	for _, r := range judged {
		done[r.Name] = r
	}
	for changed := true; changed; {
		changed = false
		rest = slices.DeleteFunc(rest, func(g gates.Gate) bool {
			r, skipped := skippedForJudged(g, done)
			if skipped {
				done[g.Name] = r
				judged = append(judged, r)
				changed = true
			}
			return skipped
		})
	}
	return rest, judged
}

// skippedForJudged is g skipped because a need judged in done did not pass, naming the need whose
// failure started the chain; false when every judged need of g was met.
func skippedForJudged(g gates.Gate, done map[string]gates.Result) (gates.Result, bool) {
	for _, n := range g.Needs {
		need, ok := done[n]
		if !ok || gates.NeedMet(need.Status) {
			continue
		}
		return gates.SkippedForNeed(g, need, rootCause(need, done)), true
	}
	return gates.Result{}, false
}

// rootCause follows a skipped need back to the judged result that kept it from running.
func rootCause(need gates.Result, done map[string]gates.Result) gates.Result {
	root := need
	for range len(done) {
		next, ok := done[root.SkippedBecause]
		if root.Status != gates.StatusSkipped || !ok {
			break
		}
		root = next
	}
	return root
}
