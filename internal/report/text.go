package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// DefaultTailLines is how many lines of a gate's output the text summary shows by default.
const DefaultTailLines = 20

// TextOptions tunes the text summary.
type TextOptions struct {
	Color bool
	// TailLines is how many output lines to show per gate needing attention: 0 means
	// DefaultTailLines, a negative number none.
	TailLines int
	// FirstFailure names the gate whose failure triggered fail-fast; its block comes first,
	// because the other gates' states are consequences of it.
	FirstFailure string
	// Interrupted: the run was stopped by Ctrl-C or a signal. The verdict line says so instead of
	// the verdict its cancelled gates make, so that the summary gives one verdict, the true one.
	Interrupted bool
	// ByStatus: the view showed each gate's end already (a plain run's finish lines, or the live
	// block a terminal keeps on screen), so the summary names the gates on one line per status
	// instead of a table that repeats them, and each block says where its gate's log is.
	ByStatus bool
}

// textPrinter prints the human summary with its options.
type textPrinter struct{ opts TextOptions }

func (p textPrinter) Print(w io.Writer, r Report) error { return WriteText(w, r, p.opts) }

// WriteText writes the human summary of a run: one line per gate, a block with hint, output and
// rerun command for each gate needing attention, and the verdict last where the eye lands.
func WriteText(w io.Writer, r Report, opts TextOptions) error {
	if opts.TailLines == 0 {
		opts.TailLines = DefaultTailLines
	}
	var b strings.Builder
	shown := r.shown()
	if opts.ByStatus {
		writeStatusLines(&b, shown, opts.Color)
	} else {
		writeGateLines(&b, shown, opts.Color)
	}
	writeIntegrity(&b, r.Integrity, opts.Color)
	for _, g := range attentionOrder(shown, opts.FirstFailure) {
		b.WriteString("\n")
		writeGateBlock(&b, g, g.Name == opts.FirstFailure, opts)
	}
	if len(shown) > 0 {
		b.WriteString("\n")
	}
	if len(r.LocalOverrides) > 0 {
		// Named every time: the file is personal and not in git, so nobody else sees what it
		// turned off or loosened.
		b.WriteString("local overrides (.gauntlet.local.yml, not in git):\n")
		for _, o := range r.LocalOverrides {
			b.WriteString("  " + termtext.Line(o) + "\n")
		}
	}
	if r.AllGatesBecause != "" {
		// One line: the run did not scope, and a reader of "pass" must know it checked everything.
		b.WriteString("gauntlet: " + termtext.Line(r.AllGatesBecause) + ": every gate ran\n")
	}
	if r.ScopedTo != "" {
		// One line: a CI log must say what the skipped gates were skipped against.
		b.WriteString("gauntlet: scoped to " + termtext.Line(r.ScopedTo) + "\n")
	}
	if noneRan(r.Gates) {
		// A pass of nothing must not read as "all is well": on a clean tree change scoping skips
		// every gate, which is what a first run after init meets.
		b.WriteString("gauntlet: no gate ran: nothing they watch has changed against the base; run them all with: gauntlet run --all\n")
	}
	verdict := paint(string(r.Verdict), opts.Color, verdictAttrs[r.Verdict]...)
	if opts.Interrupted {
		verdict = paint("interrupted", opts.Color, verdictAttrs[gates.VerdictError]...)
	}
	fmt.Fprintf(&b, "gauntlet: %s — %s%s (%s)\n", verdict, setupTally(r.Setup), tally(r.Gates), FormatDuration(r.Duration()))
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write text report: %w", err)
	}
	return nil
}

func writeGateLines(b *strings.Builder, gs []GateReport, colour bool) {
	var statusWidth, nameWidth, durationWidth int
	for _, g := range gs {
		statusWidth = max(statusWidth, len(g.Status))
		nameWidth = max(nameWidth, len(g.label()))
		durationWidth = max(durationWidth, len(gateDuration(g)))
	}
	for _, g := range gs {
		status := fmt.Sprintf("%-*s", statusWidth, g.Status)
		fmt.Fprintf(b, "%s  %-*s  %*s", paint(status, colour, statusAttrs[g.Status]...), nameWidth, g.label(), durationWidth, gateDuration(g))
		if reason := rowReason(g); reason != "" {
			b.WriteString("  " + reason)
		}
		if g.Log != "" {
			fmt.Fprintf(b, "  (log: %s)", termtext.Line(g.Log))
		}
		b.WriteString("\n")
	}
}

// statusOrder is the order of the summary's lines by status: what needs attention first.
var statusOrder = []gates.Status{gates.StatusFail, gates.StatusError, gates.StatusWarn, gates.StatusPass,
	gates.StatusCancelled, gates.StatusSkipped}

// writeStatusLines names the gates on one line per status, "fail  test, lint": the finish lines
// above gave each gate's time and reason, except why a gate was skipped, which no line said.
func writeStatusLines(b *strings.Builder, gs []GateReport, colour bool) {
	names := map[gates.Status][]string{}
	for _, g := range gs {
		name := g.label()
		if reason := rowReason(g); g.Status == gates.StatusSkipped && reason != "" {
			name += " (" + reason + ")"
		} else if g.Cached {
			name += " (cached)"
		}
		names[g.Status] = append(names[g.Status], name)
	}
	width := len(gates.StatusCancelled)
	for _, s := range statusOrder {
		if len(names[s]) > 0 {
			status := fmt.Sprintf("%-*s", width, s)
			fmt.Fprintf(b, "%s  %s\n", paint(status, colour, statusAttrs[s]...), strings.Join(names[s], ", "))
		}
	}
}

// rowReason is a gate's reason on its row of the table: what its block says in full, the row
// says without the environment cause.
func rowReason(g GateReport) string {
	if g.Cached {
		return shownReason(g)
	}
	return blameWords(g) + briefReason(g.Status, g.Reason, g.Cause, g.TimedOut)
}

// blameWords marks a failure that is not the change's, as measured against the base (blame.md):
// a red main stays red in `run`, and says which of its failures were there before.
func blameWords(g GateReport) string {
	switch {
	case g.Status != gates.StatusFail:
		return ""
	case g.Blame == gates.BlamePreExisting:
		return "[pre-existing] "
	case g.Blame == gates.BlameFlaky:
		return "[flaky] "
	}
	return ""
}

// attentionOrder lists the gates that get a block, the root failure first.
func attentionOrder(gs []GateReport, first string) []GateReport {
	var root, rest []GateReport
	for _, g := range gs {
		switch {
		case !needsAttention(g.Status):
		case first != "" && g.Name == first:
			root = append(root, g)
		default:
			rest = append(rest, g)
		}
	}
	return append(root, rest...)
}

func writeGateBlock(b *strings.Builder, g GateReport, root bool, opts TextOptions) {
	fmt.Fprintf(b, "=== %s: %s", g.label(), paint(string(g.Status), opts.Color, statusAttrs[g.Status]...))
	if reason := shownReason(g); reason != "" {
		fmt.Fprintf(b, " (%s)", reason)
	}
	if root {
		b.WriteString(" — first failure, stopped the run (fail-fast)")
	}
	b.WriteString("\n")
	if hint := termtext.Line(g.Hint); hint != "" {
		fmt.Fprintf(b, "hint: %s\n", hint)
	}
	if gates.FixerMends(gates.Result{Name: g.Name, Status: g.Status, TimedOut: g.TimedOut, Command: g.Command, Fix: g.Fix,
		Findings: g.Findings, Cause: g.Cause}) {
		fmt.Fprintf(b, "fix: gauntlet fix %s\n", g.Name)
	}
	if opts.ByStatus && g.Log != "" {
		fmt.Fprintf(b, "log: %s\n", termtext.Line(g.Log))
	}
	writeFindings(b, g)
	if opts.TailLines > 0 && !outputIsFindings(g, opts.TailLines) {
		if len(g.Findings) > 0 {
			b.WriteString("output:\n")
		}
		writeTail(b, g, opts)
	}
	fmt.Fprintf(b, "rerun: %s\n", g.rerun())
}

func writeTail(b *strings.Builder, g GateReport, opts TextOptions) {
	tail := strings.TrimRight(termtext.Clean(g.Tail), "\n")
	if strings.TrimSpace(tail) == "" {
		if !strings.Contains(shownReason(g), gates.PrintedNothing) { // the header said so
			b.WriteString("    (no output)\n")
		}
		return
	}
	kept := strings.Split(tail, "\n")
	lines := kept[max(0, len(kept)-opts.TailLines):]
	// A note hiding one line takes the room of the line: the line is shown instead.
	if max(g.OutputLines, len(kept))-len(lines) == 1 && len(lines) < len(kept) {
		lines = kept[len(kept)-len(lines)-1:]
	}
	// Counted from everything the gate printed when the report says, not from the kept tail.
	if hidden := max(g.OutputLines, len(kept)) - len(lines); hidden > 0 {
		note := fmt.Sprintf("    ... %s not shown", termtext.Count(hidden, "earlier line"))
		if g.Log != "" {
			note += "; full output in " + termtext.Line(g.Log)
		}
		b.WriteString(paint(note, opts.Color, statusAttrs[gates.StatusSkipped]...) + "\n")
	}
	for _, line := range lines {
		b.WriteString("    " + line + "\n")
	}
}

// IntegrityHeading introduces the integrity findings wherever they are shown: they are about the
// change, not about any gate.
const IntegrityHeading = "The change weakens the gates rather than fixing the code"

// writeIntegrity lists the integrity findings after the gate lines, before the gates' details:
// a green gate list must not hide that the change made it green by weakening a gate.
func writeIntegrity(b *strings.Builder, fs []gates.IntegrityFinding, colour bool) {
	if len(fs) == 0 {
		return
	}
	level := "warning"
	attrs := statusAttrs[gates.StatusWarn]
	if gates.Blocking(fs) {
		level, attrs = "blocking", statusAttrs[gates.StatusFail]
	}
	fmt.Fprintf(b, "\n%s (%s, %s):\n", paint(IntegrityHeading, colour, attrs...), termtext.Count(len(fs), "finding"), level)
	for _, f := range fs {
		fmt.Fprintf(b, "  %s  %s  [%s] %s\n", f.Level, IntegrityPlace(f), f.Rule, termtext.Line(f.Message))
	}
}

// IntegrityPlace is "file:line", or the file alone for a finding about the whole file.
func IntegrityPlace(f gates.IntegrityFinding) string {
	file := termtext.Line(f.File)
	if f.Line > 0 {
		return fmt.Sprintf("%s:%d", file, f.Line)
	}
	return file
}

// noneRan reports a run whose every gate was skipped by change scoping (not by a failed need).
func noneRan(gs []GateReport) bool {
	for _, g := range gs {
		if g.Status != gates.StatusSkipped || g.SkippedBecause != "" {
			return false
		}
	}
	return len(gs) > 0
}
