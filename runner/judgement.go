package runner

import (
	"github.com/gauntlet-dev/gauntlet/gates"
)

// judgement is the verdict a review or todos gate reaches itself, where a check gate's comes
// from its exit code.
type judgement struct {
	status gates.Status // pass, fail or error
	reason string
}

// apply puts the judgement into res, unless something outranks it: gauntlet's own error, a
// cancellation or a timeout (Classify has judged those already). A failure obeys severity and
// infra_patterns as a check's would.
func (j *judgement) apply(g gates.Gate, o gates.Outcome, res *gates.Result) {
	if j == nil || o.Internal != nil || o.Cancelled || o.TimedOut {
		return
	}
	res.Status, res.Reason = j.status, j.reason
	if j.status != gates.StatusFail {
		return
	}
	switch {
	case o.InfraMatch != "":
		res.Status, res.Reason = gates.StatusError, "infrastructure problem: "+o.InfraMatch
	case g.Severity == gates.SeverityWarn:
		res.Status = gates.StatusWarn
	}
}
