package gates

import "fmt"

// NeedMet says whether a need that ended with status s lets the gates that need it start: a pass
// does, and so does a warning (the need ran and its problems only warn).
func NeedMet(s Status) bool { return s == StatusPass || s == StatusWarn }

// SkippedForNeed is the result of g when its need did not end in a way that lets it start.
// root is the result that skipped the whole chain: need itself, or, when need was skipped for
// its own need, the first failure along the chain. The reason names both, so that a reader
// never has to follow more than one step to the cause.
func SkippedForNeed(g Gate, need, root Result) Result {
	return Result{
		Name:           g.Name,
		Kind:           g.Kind,
		Status:         StatusSkipped,
		ExitCode:       -1,
		Reason:         NeedReason(need, root),
		Hint:           g.Hint,
		Command:        g.Command(),
		Needs:          g.Needs,
		SkippedBecause: need.Name,
	}
}

// NeedReason says why a gate did not start: "needs build, which failed", or for a longer chain
// "needs test, which did not run because build failed".
func NeedReason(need, root Result) string {
	if need.Status == StatusSkipped && root.Name != need.Name {
		return fmt.Sprintf("needs %s, which did not run because %s %s", need.Name, root.Name, endedPhrase(root.Status))
	}
	return fmt.Sprintf("needs %s, which %s", need.Name, endedPhrase(need.Status))
}

func endedPhrase(s Status) string {
	switch s {
	case StatusFail:
		return "failed"
	case StatusError:
		return "could not run (error)"
	case StatusCancelled:
		return "was cancelled"
	case StatusSkipped:
		return "was skipped"
	default:
		return "ended " + string(s)
	}
}
