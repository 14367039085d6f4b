package engine

import (
	"context"
	"fmt"
	"slices"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// decisiveCauses are environment causes whose probe reads the machine, never the tree: they
// excuse without asking the base. Every other error is one a change can produce (a timeout taken
// for a cold build, an infra_patterns match, a catalogue line the gate printed itself, missing
// node_modules, a setup step that cannot start, a command not found), and is checked there.
var decisiveCauses = []string{"disk-full", "oom-killed", "oom-killed-child", "file-watchers-exhausted"}

// earnErrors lets an error excuse the agent only when the change could not have caused it: an
// error a change can produce, on a tree that differs from the base, is checked against the base,
// and when the same gate passes there, here and now, the error is the change's: a failure,
// saying so. `run` keeps its errors: it judges no agent.
func earnErrors(ctx context.Context, req Request, judge *baseJudge, results []gates.Result, byName map[string]gates.Gate) []gates.Result {
	if !req.StopHook {
		return results
	}
	for i, r := range results {
		if !mayBeEarned(r) {
			continue
		}
		g, ok := byName[r.Name]
		if !ok || !isCheck(g) {
			continue // a review without a login, a todos gate: nothing the base can tell
		}
		if source, passes := judge.passesAtBase(ctx, g); passes {
			results[i] = earnedFailure(r, source)
		}
	}
	return results
}

// mayBeEarned says whether earnErrors may turn r into a failure.
func mayBeEarned(r gates.Result) bool {
	return r.Status == gates.StatusError && (r.Cause == nil || !slices.Contains(decisiveCauses, r.Cause.ID))
}

// earnedFailure is an error the base shows to be the change's.
func earnedFailure(r gates.Result, source string) gates.Result {
	why := r.Reason
	if r.Cause != nil {
		why = gates.CauseReason(*r.Cause)
	}
	r.Status = gates.StatusFail
	r.Cause = nil
	r.Reason = fmt.Sprintf("%s (%s) in this environment, so the change caused it: %s", gates.BasePassesMark, source, why)
	return r
}

// passesAtBase says whether g passes at the base of the change, here and now: run there in this
// environment. Not from a stored result: what failed the gate may be outside the tree (a service
// down, a tool uninstalled), and a pass stored before it broke would blame the change for it. An
// error is rare, and the base under a broken environment fails fast the same way. Anything but a
// pass (no base, the tree is the base, the base errors, fails or cannot be judged in time) says
// no: the error stands.
func (j *baseJudge) passesAtBase(ctx context.Context, g gates.Gate) (source string, passes bool) {
	j.readChange(ctx)
	if j.from == "" || j.unchanged {
		return "", false
	}
	bg := g
	bg.Causes = false // the base is asked whether it passes, not why it would not
	set, err := j.run(ctx, bg, "")
	if err != nil {
		return "", false
	}
	return set.Source, !set.Failed
}
