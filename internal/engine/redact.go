package engine

import (
	"slices"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/redact"
	"github.com/gauntlet-dev/gauntlet/runner"
)

// sanitize returns the results with every text cleaned and every secret value hidden. It is
// applied once, where results leave the runner, so that everything made from them (reports,
// last-run.json, the stop hook's reason and ledger) shows the same safe text; the logs stay raw.
func sanitize(results []gates.Result, secrets *redact.Redactor) []gates.Result {
	out := make([]gates.Result, len(results))
	for i, r := range results {
		out[i] = sanitizeResult(r, secrets)
	}
	return out
}

func sanitizeResult(r gates.Result, s *redact.Redactor) gates.Result {
	r.Reason = s.Line(r.Reason)
	r.Tail = s.Text(r.Tail)
	r.Hint = s.Text(r.Hint)
	// A command can span lines (a `run: |` script); Text keeps it runnable.
	r.Command = s.Text(r.Command)
	r.Log = s.Line(r.Log)
	if r.Findings != nil {
		r.Findings = slices.Clone(r.Findings)
		for i := range r.Findings {
			f := &r.Findings[i]
			f.File, f.Severity, f.Message, f.Rule = s.Line(f.File), s.Line(f.Severity), s.Text(f.Message), s.Line(f.Rule)
		}
	}
	if r.Cause != nil {
		c := *r.Cause
		c.ID, c.Summary, c.Fix, c.Line = s.Line(c.ID), s.Line(c.Summary), s.Line(c.Fix), s.Line(c.Line)
		r.Cause = &c
	}
	r.TestsUncounted = s.Line(r.TestsUncounted)
	r.CoverageUnmeasured = s.Line(r.CoverageUnmeasured)
	if r.Coverage != nil {
		c := *r.Coverage
		c.Notes = slices.Clone(c.Notes)
		for i, n := range c.Notes {
			c.Notes[i] = s.Line(n)
		}
		r.Coverage = &c
	}
	if r.Tests != nil {
		r.Tests = sanitizeCensus(*r.Tests, s)
	}
	if r.BlameDetail != nil {
		d := *r.BlameDetail
		for _, list := range []*[]string{&d.Regressions, &d.PreExisting, &d.Flaky} {
			*list = sanitizeLines(*list, s)
		}
		d.Why = s.Line(d.Why)
		r.BlameDetail = &d
	}
	if r.Excerpt != nil {
		ex := *r.Excerpt
		ex.Lines = slices.Clone(ex.Lines)
		for i, l := range ex.Lines {
			ex.Lines[i] = s.Text(l) // Text, not Line: a line's indentation is part of what it says
		}
		r.Excerpt = &ex
	}
	return r
}

// sanitizeCensus hides secrets in what a census names: test names and notes come from the
// gate's output or reports.
func sanitizeCensus(c gates.TestCensus, s *redact.Redactor) *gates.TestCensus {
	for _, list := range []*[]string{&c.Notes, &c.FailedTests, &c.SkippedTests, &c.FailedUnits} {
		*list = sanitizeLines(*list, s)
	}
	return &c
}

// sanitizingObserver shows live displays the same safe text as the reports. Output lines pass
// through untouched: redacting every line of every gate would cost on output nobody looks at;
// the verbose view redacts the lines it shows (report.ProgressOptions.Secrets).
type sanitizingObserver struct {
	runner.Observer
	secrets *redact.Redactor
}

func (o sanitizingObserver) Finished(r gates.Result) {
	o.Observer.Finished(sanitizeResult(r, o.secrets))
}

// Settling passes a gate being checked on to a view that shows it, with the same safe text.
func (o sanitizingObserver) Settling(r gates.Result) {
	if s, ok := o.Observer.(settlingView); ok {
		s.Settling(sanitizeResult(r, o.secrets))
	}
}

// sanitizeLines is each of list made one line with its secrets hidden, in a new slice.
func sanitizeLines(list []string, s *redact.Redactor) []string {
	if list == nil {
		return nil
	}
	out := make([]string, len(list))
	for i, l := range list {
		out[i] = s.Line(l)
	}
	return out
}
