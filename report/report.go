package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// SchemaVersion is the version of the JSON report. Fields are only ever added, so it stays 1.
const SchemaVersion = 1

// Report is one run as every rendering sees it, and the exact shape of the JSON report.
type Report struct {
	SchemaVersion int           `json:"schema_version"`
	RunID         string        `json:"run_id"`
	Verdict       gates.Verdict `json:"verdict"`
	StartedAt     string        `json:"started_at"` // UTC RFC 3339, whole seconds
	DurationMS    int64         `json:"duration_ms"`
	Gates         []GateReport  `json:"gates"`
}

// GateReport is one gate's line in the report.
type GateReport struct {
	Name       string       `json:"name"`
	Kind       gates.Kind   `json:"kind"`
	Status     gates.Status `json:"status"`
	ExitCode   *int         `json:"exit_code"` // null when the gate has no exit code
	DurationMS int64        `json:"duration_ms"`
	TimedOut   bool         `json:"timed_out"`
	Log        string       `json:"log"`
	Reason     string       `json:"reason"`
	Tail       string       `json:"tail"`
	Hint       string       `json:"hint,omitempty"`
	Command    string       `json:"command,omitempty"`
	// Cached is set when the pass was answered from the per-gate cache without running the gate.
	Cached bool `json:"cached,omitempty"`
}

// New builds the report of a run from its classified results, keeping their order.
func New(runID string, started time.Time, d time.Duration, results []gates.Result) Report {
	r := Report{
		SchemaVersion: SchemaVersion,
		RunID:         runID,
		Verdict:       gates.VerdictOf(results),
		StartedAt:     started.UTC().Truncate(time.Second).Format(time.RFC3339),
		DurationMS:    d.Milliseconds(),
		// Never nil, so that JSON shows [] rather than null for a run without gates.
		Gates: make([]GateReport, 0, len(results)),
	}
	for _, res := range results {
		r.Gates = append(r.Gates, gateReport(res))
	}
	return r
}

func gateReport(res gates.Result) GateReport {
	g := GateReport{
		Name:       res.Name,
		Kind:       res.Kind,
		Status:     res.Status,
		DurationMS: res.Duration.Milliseconds(),
		TimedOut:   res.TimedOut,
		Log:        res.Log,
		Reason:     res.Reason,
		Tail:       res.Tail,
		Hint:       res.Hint,
		Command:    res.Command,
		Cached:     res.Cached,
	}
	if res.ExitCode >= 0 {
		code := res.ExitCode
		g.ExitCode = &code
	}
	return g
}

// Duration is the gate's duration as a time.Duration.
func (g GateReport) Duration() time.Duration {
	return time.Duration(g.DurationMS) * time.Millisecond
}

// Duration is the run's duration as a time.Duration.
func (r Report) Duration() time.Duration {
	return time.Duration(r.DurationMS) * time.Millisecond
}

// needsAttention says whether a gate gets a detailed block (text), an annotation (GitHub) or a
// failure element (JUnit): the statuses a reader has to act on or at least look at.
func needsAttention(s gates.Status) bool {
	return s == gates.StatusFail || s == gates.StatusError || s == gates.StatusWarn
}

// shownReason is the reason worth printing next to a gate's status.
func shownReason(g GateReport) string {
	if g.Cached {
		return "cached"
	}
	return visibleReason(g.Status, g.Reason)
}

// visibleReason drops the reason of a pass, and one that would only repeat the status
// ("cancelled  review  cancelled").
func visibleReason(s gates.Status, reason string) string {
	reason = termtext.Line(reason)
	if s == gates.StatusPass || reason == string(s) {
		return ""
	}
	return reason
}

// tally counts the gates by status and phrases it the way every rendering ends:
// "1 failed, 2 passed, 1 skipped".
func tally(gs []GateReport) string {
	counts := map[gates.Status]int{}
	for _, g := range gs {
		counts[g.Status]++
	}
	phrases := []struct {
		status           gates.Status
		singular, plural string
	}{
		{gates.StatusFail, "failed", "failed"},
		{gates.StatusError, "error", "errors"},
		{gates.StatusWarn, "warning", "warnings"},
		{gates.StatusPass, "passed", "passed"},
		{gates.StatusSkipped, "skipped", "skipped"},
		{gates.StatusCancelled, "cancelled", "cancelled"},
	}
	var parts []string
	for _, p := range phrases {
		switch n := counts[p.status]; n {
		case 0:
		case 1:
			parts = append(parts, "1 "+p.singular)
		default:
			parts = append(parts, fmt.Sprintf("%d %s", n, p.plural))
		}
	}
	if len(parts) == 0 {
		return "no gates ran"
	}
	return strings.Join(parts, ", ")
}
