package report

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// maxReportBytes bounds what ReadJSON accepts: a report holds bounded tails, so anything larger is
// not one of ours and must not be read into memory. A variable only so tests can lower it.
var maxReportBytes = 64 << 20

// jsonPrinter prints the JSON report, as .gauntlet/last-run.json holds it.
type jsonPrinter struct{}

func (jsonPrinter) Print(w io.Writer, r Report) error { return WriteJSON(w, r) }

// WriteJSON writes the report as indented JSON with a trailing newline.
func WriteJSON(w io.Writer, r Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	// Tails are full of < > & (compiler output, diffs); \u003c escapes would only hurt reading.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("write json report: %w", err)
	}
	return nil
}

// ReadJSON reads a report written by WriteJSON. Unknown fields are ignored, since newer versions
// only add fields; a report of another schema version is refused rather than misread.
func ReadJSON(rd io.Reader) (Report, error) {
	data, err := io.ReadAll(io.LimitReader(rd, int64(maxReportBytes)+1))
	if err != nil {
		return Report{}, fmt.Errorf("read json report: %w", err)
	}
	if len(data) > maxReportBytes {
		return Report{}, fmt.Errorf("read json report: larger than %d bytes", maxReportBytes)
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return Report{}, fmt.Errorf("read json report: %w", err)
	}
	if r.SchemaVersion != SchemaVersion {
		return Report{}, fmt.Errorf("read json report: schema_version %d, want %d", r.SchemaVersion, SchemaVersion)
	}
	if r.Gates == nil {
		r.Gates = []GateReport{}
	}
	results := make([]gates.Result, 0, len(r.Gates)+len(r.Setup))
	for _, list := range [][]GateReport{r.Setup, r.Gates} {
		for i := range list {
			g, err := readGate(list[i])
			if err != nil {
				return Report{}, fmt.Errorf("read json report: %w", err)
			}
			list[i] = g
			results = append(results, gates.Result{Status: g.Status, Blame: g.Blame})
		}
	}
	// A report is one verdict of its gates, setup steps and integrity findings; one that says
	// otherwise was not written by gauntlet, and believing either half could turn a failure into
	// a pass.
	if err := cleanIntegrity(r.Integrity); err != nil {
		return Report{}, fmt.Errorf("read json report: %w", err)
	}
	if want := gates.VerdictWithIntegrity(gates.CountedVerdict(results, r.Counts()), r.Integrity); r.Verdict != want {
		return Report{}, fmt.Errorf("read json report: verdict %q, but its gates make it %q", r.Verdict, want)
	}
	return r, nil
}

// readGate checks a gate (or setup step) read back and cleans it. Names become file names and
// lines of every format: one gauntlet would not write (a newline injecting workflow commands, an
// escape sequence) means the file is not a report.
func readGate(g GateReport) (GateReport, error) {
	if !config.ValidGateName(g.Name) {
		return g, fmt.Errorf("gate name %q is not a valid gate name", g.Name)
	}
	for _, n := range slices.Concat(g.Needs, g.NeededBy, []string{g.SkippedBecause}) {
		if n != "" && !config.ValidGateName(n) {
			return g, fmt.Errorf("gate %q names %q, which is not a valid gate name", g.Name, n)
		}
	}
	g = cleanGate(g)
	if g.Findings == nil {
		g.Findings = []gates.Finding{} // a report from before findings existed
	}
	if !knownStatus(g.Status) {
		return g, fmt.Errorf("gate %q has status %q, not one gauntlet writes", g.Name, g.Status)
	}
	return g, nil
}

// cleanIntegrity checks the integrity findings read back and makes their text one line each.
func cleanIntegrity(findings []gates.IntegrityFinding) error {
	for i, f := range findings {
		if f.Level != gates.IntegrityBlock && f.Level != gates.IntegrityWarn {
			return fmt.Errorf("integrity finding %d has level %q, not one gauntlet writes", i+1, f.Level)
		}
		findings[i].Rule, findings[i].File, findings[i].Message = termtext.Line(f.Rule), termtext.Line(f.File), termtext.Line(f.Message)
	}
	return nil
}

// cleanCensus makes a census read back one line per name, as a run's own is.
func cleanCensus(c gates.TestCensus) *gates.TestCensus {
	c.Runner, c.Source = termtext.Line(c.Runner), termtext.Line(c.Source)
	for _, list := range []*[]string{&c.Notes, &c.FailedTests, &c.SkippedTests, &c.FailedUnits} {
		*list = cleanLines(*list)
	}
	return &c
}

func cleanLines(in []string) []string {
	if in == nil {
		return nil
	}
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = termtext.Line(s)
	}
	return out
}

func knownStatus(s gates.Status) bool {
	switch s {
	case gates.StatusPass, gates.StatusFail, gates.StatusWarn, gates.StatusError, gates.StatusSkipped, gates.StatusCancelled:
		return true
	}
	return false
}

// cleanGate makes the text of a gate read back as safe to print as a run's own results are: no
// escape sequences or control characters, one-line values on one line. A report file may come
// from anywhere (a CI artifact), and every format prints these fields.
func cleanGate(g GateReport) GateReport {
	g.Kind = gates.Kind(termtext.Line(string(g.Kind)))
	g.Log = termtext.Line(g.Log)
	g.Reason = termtext.Line(g.Reason)
	g.Tail = termtext.Clean(g.Tail)
	g.Hint = termtext.Clean(g.Hint)
	g.Command = termtext.Clean(g.Command)
	if g.Findings != nil {
		findings := make([]gates.Finding, len(g.Findings))
		for i, f := range g.Findings {
			f.File, f.Severity, f.Rule = termtext.Line(f.File), termtext.Line(f.Severity), termtext.Line(f.Rule)
			f.Message = termtext.Clean(f.Message)
			findings[i] = f
		}
		g.Findings = findings
	}
	g.TestsUncounted = termtext.Line(g.TestsUncounted)
	g.CoverageUnmeasured = termtext.Line(g.CoverageUnmeasured)
	g.Blame = gates.Blame(termtext.Line(string(g.Blame)))
	if d := g.BlameDetail; d != nil {
		c := *d
		for _, list := range []*[]string{&c.Regressions, &c.PreExisting, &c.Flaky} {
			*list = cleanLines(*list)
		}
		c.Why = termtext.Line(c.Why)
		g.BlameDetail = &c
	}
	if g.Coverage != nil {
		c := *g.Coverage
		c.Format, c.Notes = termtext.Line(c.Format), cleanLines(c.Notes)
		g.Coverage = &c
	}
	if g.Tests != nil {
		g.Tests = cleanCensus(*g.Tests)
	}
	if g.Cause != nil {
		c := *g.Cause
		c.ID, c.Summary, c.Fix, c.Line = termtext.Line(c.ID), termtext.Line(c.Summary), termtext.Line(c.Fix), termtext.Line(c.Line)
		g.Cause = &c
	}
	return g
}
