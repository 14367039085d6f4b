package report

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// The HTML pages are html/template files embedded in the binary, their one stylesheet inlined:
// a page opens from file:// or as a CI artefact and loads nothing, and its Content-Security-Policy
// says so to the browser. Every value goes through html/template's escaping, after the cleaning
// every report gets (termtext: no escape sequences, no control characters).
//
//go:embed html/page.css html/run.html
var htmlFiles embed.FS

// PageCSS is the stylesheet of gauntlet's HTML pages, to inline in a page's <style>.
func PageCSS() template.CSS {
	css, err := htmlFiles.ReadFile("html/page.css")
	if err != nil {
		panic(err) // embedded: present in every build
	}
	return template.CSS(css)
}

// runPage is parsed at first use: every gauntlet call but the one writing the page would pay for
// it at start-up.
var runPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("run.html").ParseFS(htmlFiles, "html/run.html"))
})

// htmlMaxFindings bounds the findings a gate's section lists; the rest are counted.
const htmlMaxFindings = 50

// htmlPrinter prints one self-contained HTML page.
type htmlPrinter struct{}

func (htmlPrinter) Print(w io.Writer, r Report) error { return WriteHTML(w, r) }

// WriteHTML writes the run as one HTML page: the verdict, what the change weakened and which
// environment causes kept gates from being judged (first, as in the stop hook's reason), a
// timeline with a bar per gate and setup step, then each gate to look at with its findings and
// the output's tail, folded.
func WriteHTML(w io.Writer, r Report) error {
	var buf bytes.Buffer
	if err := runPage().Execute(&buf, runView(r)); err != nil {
		return fmt.Errorf("write html report: %w", err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("write html report: %w", err)
	}
	return nil
}

type htmlRun struct {
	CSS              template.CSS
	Verdict          string
	RunID            string
	StartedAt        string
	Duration         string
	Tally            string
	Shard            string
	ConfigDigest     string
	Origin           Origin
	LocalOverrides   []string
	IntegrityHeading string
	Integrity        []htmlIntegrity
	IntegrityBlocks  bool
	Causes           []htmlCause
	Axis             []htmlTick
	Rows             []htmlRow
	Attention        []htmlGate
}

type htmlIntegrity struct{ Level, Place, Rule, Message string }

type htmlCause struct{ Gate, Summary, Fix, Line string }

type htmlTick struct {
	Left  float64
	Label string
}

// htmlRow is one gate's line on the timeline; Left and Width are percent of the time axis.
type htmlRow struct {
	Name, Status, Reason, Duration, Needs, NeededBy string
	Setup, Cached, Ran                              bool
	Left, Width                                     float64
	Mark                                            string
	MarkAt                                          float64
}

type htmlGate struct {
	Name, Anchor, Status, Reason, Hint, Command, Rerun, Fix, Log string
	Config, SkippedBecause, Tests, FindingCount                  string
	Tail                                                         string
	Lines                                                        string
	LogHref                                                      string
	Open, ShortTail                                              bool
	// CauseAbove: the gate's environment cause is in the box of causes, which the header
	// points to rather than saying it again.
	CauseAbove   bool
	Changed      []string
	Findings     []htmlFinding
	MoreFindings int
}

type htmlFinding struct{ Place, Severity, Message, Rule string }

func runView(r Report) htmlRun {
	shown := r.shown()
	v := htmlRun{
		CSS:              PageCSS(),
		Verdict:          termtext.Line(string(r.Verdict)),
		RunID:            termtext.Line(r.RunID),
		StartedAt:        termtext.Line(r.StartedAt),
		Duration:         FormatDuration(r.Duration()),
		Tally:            termtext.Line(setupTally(r.Setup) + tally(r.Gates)),
		Shard:            termtext.Line(r.Shard),
		ConfigDigest:     shortDigest(r.ConfigDigest),
		IntegrityHeading: IntegrityHeadingOf(r.Integrity),
	}
	if r.Origin != nil {
		v.Origin = cleanOrigin(*r.Origin)
	}
	for _, o := range r.LocalOverrides {
		v.LocalOverrides = append(v.LocalOverrides, termtext.Line(o))
	}
	for _, f := range r.Integrity {
		v.Integrity = append(v.Integrity, htmlIntegrity{
			Level: termtext.Line(string(f.Level)), Place: IntegrityPlace(f), Rule: termtext.Line(f.Rule), Message: termtext.Line(f.Message),
		})
		v.IntegrityBlocks = v.IntegrityBlocks || f.Level == gates.IntegrityBlock
	}
	for _, g := range shown {
		if g.Cause != nil {
			v.Causes = append(v.Causes, htmlCause{
				Gate: termtext.Line(g.label()), Summary: termtext.Line(g.Cause.Summary),
				Fix: termtext.Line(g.Cause.Fix), Line: termtext.Line(g.Cause.Line),
			})
		}
	}
	v.Axis, v.Rows = timeline(r.Duration(), shown)
	for _, g := range shown {
		if needsAttention(g.Status) || g.Status == gates.StatusCancelled || g.Status == gates.StatusSkipped && g.SkippedBecause != "" {
			v.Attention = append(v.Attention, gateView(g, v.Origin.LogDir))
		}
	}
	return v
}

// timeline places each gate on an axis as long as the run (or as the latest end, for a report
// whose gates were timed on other clocks, as a merge of shards): a bar from its start for its
// duration; a gate that did not run is a mark at the start, saying why.
func timeline(run time.Duration, shown []GateReport) ([]htmlTick, []htmlRow) {
	if len(shown) == 0 {
		return nil, nil
	}
	span := run.Milliseconds()
	for _, g := range shown {
		span = max(span, g.StartedMS+g.DurationMS)
	}
	span = max(span, 1)
	pct := func(ms int64) float64 { return math.Round(float64(ms)/float64(span)*10000) / 100 }
	rows := make([]htmlRow, 0, len(shown))
	for _, g := range shown {
		row := htmlRow{
			Name:     termtext.Line(g.Name),
			Status:   termtext.Line(string(g.Status)),
			Reason:   pageRowReason(g),
			Duration: FormatDuration(g.Duration()),
			Needs:    termtext.Line(strings.Join(g.Needs, ", ")),
			NeededBy: termtext.Line(strings.Join(g.NeededBy, ", ")),
			Setup:    g.setup,
			Cached:   g.Cached,
			Ran:      !g.Cached && g.Status != gates.StatusSkipped && (g.DurationMS > 0 || g.StartedMS > 0),
			Left:     pct(g.StartedMS),
			Width:    pct(g.DurationMS),
		}
		switch {
		case g.Cached:
			row.Mark, row.Duration = "cached pass, not run", "—"
		case g.Status == gates.StatusSkipped:
			row.Mark, row.Duration = "skipped: "+row.Reason, "—"
		case g.Status == gates.StatusCancelled && !row.Ran:
			row.Mark = "cancelled before it started"
		}
		if row.Left+row.Width > 100 {
			row.Left = max(0, 100-row.Width)
		}
		row.MarkAt = min(row.Left+row.Width, 70)
		rows = append(rows, row)
	}
	step := tickStep(span)
	var axis []htmlTick
	for at := int64(0); at <= span; at += step {
		// A label at the track's very end would hang off it.
		axis = append(axis, htmlTick{Left: min(pct(at), 96), Label: tickLabel(time.Duration(at) * time.Millisecond)})
	}
	return axis, rows
}

// tickSteps are the round intervals the timeline's axis is marked at.
var tickSteps = []time.Duration{
	time.Millisecond, 2 * time.Millisecond, 5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond,
	50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond, 500 * time.Millisecond,
	time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 15 * time.Second, 20 * time.Second,
	30 * time.Second, time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute,
	20 * time.Minute, 30 * time.Minute, time.Hour, 2 * time.Hour,
}

// tickStep is the smallest round interval that marks a span of ms with at most six ticks.
func tickStep(span int64) int64 {
	for _, s := range tickSteps {
		if span/s.Milliseconds() <= 5 {
			return s.Milliseconds()
		}
	}
	return max(1, span/5)
}

// tickLabel names a round duration without the zeros FormatDuration pads with: "0", "200ms",
// "15s", "1m30s", "5m", "2h".
func tickLabel(d time.Duration) string {
	switch {
	case d == 0:
		return "0"
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%ds", d/time.Second)
	}
	d = d.Round(time.Second)
	var b strings.Builder
	for _, u := range []struct {
		unit time.Duration
		name string
	}{{time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}} {
		if n := d / u.unit; n > 0 {
			fmt.Fprintf(&b, "%d%s", n, u.name)
			d -= n * u.unit
		}
	}
	return b.String()
}

// pageRowReason is a gate's reason on its timeline row (the track's title, a skip's mark):
// without the environment cause, which the box of causes above says.
func pageRowReason(g GateReport) string {
	if g.Cached {
		return shownReason(g)
	}
	rest, only := withoutCause(visibleReason(g.Status, g.Reason), g.Cause)
	if only {
		return rest + "environment problem"
	}
	return rest
}

// shortTail is how many lines of output a page shows without folding them.
const shortTail = 10

func gateView(g GateReport, logDir string) htmlGate {
	v := htmlGate{
		Name:           termtext.Line(g.label()),
		Anchor:         anchorOf(g.Name),
		Status:         termtext.Line(string(g.Status)),
		Hint:           termtext.Line(g.Hint),
		Command:        termtext.Line(g.Command),
		Rerun:          termtext.Line(g.rerun()),
		Fix:            termtext.Line(g.Fix),
		Log:            termtext.Line(g.Log),
		LogHref:        logHref(logDir, g.Log),
		SkippedBecause: termtext.Line(g.SkippedBecause),
		Tail:           strings.TrimRight(termtext.Clean(g.Tail), "\n"),
		Lines:          linesPrinted(g.OutputLines),
	}
	// The cause is the box of causes' to say, above the gates: the header points to it.
	rest, _ := withoutCause(visibleReason(g.Status, g.Reason), g.Cause)
	v.Reason, v.CauseAbove = strings.TrimSuffix(rest, ": "), g.Cause != nil
	// What fails the run is open, and so is a gate whose few lines of output say it all; the
	// rest (warnings, errors of the environment with long outputs) folded.
	v.ShortTail = v.Tail != "" && strings.Count(v.Tail, "\n") < shortTail
	v.Open = g.Status == gates.StatusFail || v.ShortTail
	if g.Config != nil {
		v.Config = fmt.Sprintf("%s:%d", termtext.Line(g.Config.File), g.Config.Line)
	}
	for _, f := range g.ChangedFiles {
		v.Changed = append(v.Changed, termtext.Line(f))
	}
	if g.Tests != nil {
		v.Tests = censusLine(g.Tests)
	} else if g.TestsUncounted != "" {
		v.Tests = "not counted: " + termtext.Line(g.TestsUncounted)
	}
	if n := len(g.Findings); n > 0 {
		v.FindingCount = findingCounts(g.Findings)
	}
	for i, f := range gates.ByImportance(g.Findings) {
		if i == htmlMaxFindings {
			v.MoreFindings = len(g.Findings) - htmlMaxFindings
			break
		}
		v.Findings = append(v.Findings, htmlFinding{
			Place:    findingPlace(f),
			Severity: termtext.Line(f.Severity),
			Message:  strings.TrimSpace(termtext.Clean(f.Message)),
			Rule:     termtext.Line(f.Rule),
		})
	}
	return v
}

// logHref is a log's link from the page's folder: logs are relative to the project root, which
// is logDir from the page ("" when the page is written there, or its folder is not known).
func logHref(logDir, log string) string {
	if log == "" {
		return ""
	}
	return path.Join(logDir, filepath.ToSlash(log))
}

// cleanOrigin makes the origin's fields single lines of plain text.
func cleanOrigin(o Origin) Origin {
	return Origin{
		Repository: termtext.Line(o.Repository), Remote: termtext.Line(o.Remote), Branch: termtext.Line(o.Branch),
		Commit: termtext.Line(o.Commit), ConfigFile: termtext.Line(o.ConfigFile), Version: termtext.Line(o.Version),
		LogDir: termtext.Line(o.LogDir),
	}
}

// linesPrinted says how many lines the gate printed: "" when it is not known.
func linesPrinted(n int) string {
	if n <= 0 {
		return ""
	}
	return termtext.Count(n, "line")
}

// findingPlace is "file:line:col", as far as the finding knows it.
func findingPlace(f gates.Finding) string {
	if f.File == "" {
		return ""
	}
	place := termtext.Line(f.File)
	if f.Line > 0 {
		place += fmt.Sprintf(":%d", f.Line)
		if f.Column > 0 {
			place += fmt.Sprintf(":%d", f.Column)
		}
	}
	return place
}

// censusLine phrases a test census: "12 passed, 1 failed (TestX), 2 skipped".
func censusLine(c *gates.TestCensus) string {
	s := fmt.Sprintf("%d passed, %d failed, %d skipped", c.Passed, c.Failed, c.Skipped)
	if len(c.FailedTests) > 0 {
		names := make([]string, len(c.FailedTests))
		for i, n := range c.FailedTests {
			names[i] = termtext.Line(n)
		}
		s += "; failing: " + strings.Join(names, ", ")
	}
	return s
}

// anchorOf makes an id of a gate name; names are already [a-z0-9_-], but a report read back
// may say anything.
func anchorOf(name string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, strings.ToLower(name))
}

func shortDigest(d string) string {
	d = termtext.Line(d)
	if len(d) > 12 {
		return d[:12]
	}
	return d
}

// IntegrityHeadingOf is the heading of fs: IntegrityHeading, unless every finding is lines the
// change wrote that no test runs, which measure the change and weaken nothing.
func IntegrityHeadingOf(fs []gates.IntegrityFinding) string {
	if gates.OnlyUncovered(fs) {
		return "Lines the change wrote that no test runs"
	}
	return IntegrityHeading
}
