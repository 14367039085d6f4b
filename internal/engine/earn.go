package engine

import (
	"context"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/policy"
)

// earnErrors asks the verdict policy, for each error of the run, whether the change could have
// caused it (policy.JudgeError); the base is run only for the errors whose judgement it decides.
func earnErrors(ctx context.Context, req Request, judge *baseJudge, results []gates.Result, byName map[string]gates.Gate) []gates.Result {
	for i, r := range results {
		g, ok := byName[r.Name]
		ev := policy.ErrorEvidence{Result: r, Stop: req.StopHook, Check: ok && isCheck(g)}
		if !policy.AsksBase(ev) {
			continue
		}
		ev.Base = judge.answerFor(ctx, g)
		results[i] = policy.JudgeError(ev)
	}
	return results
}

// answerFor is what the base says of g, for the policy.
func (j *baseJudge) answerFor(ctx context.Context, g gates.Gate) policy.BaseAnswer {
	j.readChange(ctx)
	if j.from == "" || j.unchanged {
		return policy.BaseAnswer{}
	}
	source, passes := j.passesAtBase(ctx, g)
	return policy.BaseAnswer{Differs: true, Passes: passes, Source: source}
}

// passesAtBase says whether g passes at the base of the change, here and now: run there in this
// environment. Not from a stored result: what failed the gate may be outside the tree (a service
// down, a tool uninstalled), and a pass stored before it broke would blame the change for it. An
// error is rare, and the base under a broken environment fails fast the same way. Anything but a
// pass (no base, the tree is the base, the base errors, fails or cannot be judged in time) says
// no: the error stands. The caller has checked that there is a base and that the tree differs.
func (j *baseJudge) passesAtBase(ctx context.Context, g gates.Gate) (source string, passes bool) {
	bg := g
	bg.Causes = false // the base is asked whether it passes, not why it would not
	set, err := j.run(ctx, bg, "")
	if err != nil {
		return "", false
	}
	return set.Source, !set.Failed
}
