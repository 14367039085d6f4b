package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/engine"
	"github.com/gauntlet-dev/gauntlet/internal/report"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// errNoLastRun means there is nothing to explain: no run was recorded yet. errNotInLastRun
// means the gate asked about did not take part in it.
var (
	errNoLastRun    = errors.New("no run recorded yet")
	errNotInLastRun = errors.New("not in the last run")
)

type explainOptions struct {
	IO         *IOStreams
	color      string
	configFile string
	json       bool
	gate       string
}

func newExplainCmd(ios *IOStreams, runF func(*explainOptions) error) *cobra.Command {
	opts := &explainOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "explain [GATE]",
		Short: "Show the findings and causes of the last run's failed gates, without running them again",
		Long: `Show what the last run (.gauntlet/last-run.json) found in each gate that failed, warned or
could not run: every finding (file, line, severity, message, rule), the environment cause when
one was recognised, the reason and the log. With GATE, that gate whatever its status. --json
prints the same as JSON, for tools and agents.

Exit codes: 0 when the last run could be read, 2 when there is none or GATE is not in it.`,
		Args: cobra.MaximumNArgs(1),
		RunE: runE(func(_ *cobra.Command, args []string) error {
			if err := checkColor(opts.color); err != nil {
				return err
			}
			if len(args) == 1 {
				opts.gate = args[0]
			}
			if runF != nil {
				return runF(opts)
			}
			return explain(opts)
		}),
	}
	f := cmd.Flags()
	addColorFlag(f, &opts.color)
	f.StringVarP(&opts.configFile, "config", "c", "", "the project of this config file instead of searching for .gauntlet.yml")
	f.BoolVar(&opts.json, "json", false, "print the explanation as JSON")
	return cmd
}

// explained is one gate as explain shows it; the JSON output is a list of these.
type explained struct {
	Name     string          `json:"name"`
	Status   gates.Status    `json:"status"`
	Reason   string          `json:"reason"`
	Cause    *gates.Cause    `json:"cause"`
	Findings []gates.Finding `json:"findings"`
	Hint     string          `json:"hint,omitempty"`
	Log      string          `json:"log"`
	Tail     string          `json:"tail,omitempty"`
	// SkippedBecause names the need that kept the gate from running; its own explanation
	// follows in the list.
	SkippedBecause string `json:"skipped_because,omitempty"`
	// Setup is set for a setup step, which the gates of NeededBy need.
	Setup    bool     `json:"setup,omitempty"`
	NeededBy []string `json:"needed_by,omitempty"`
	// Tests is a test gate's census; TestsUncounted says why its tests could not be counted.
	Tests          *gates.TestCensus `json:"tests,omitempty"`
	TestsUncounted string            `json:"tests_uncounted,omitempty"`
	// Coverage is a gate's line coverage; CoverageUnmeasured says why none was read.
	Coverage           *gates.CoverageSummary `json:"coverage,omitempty"`
	CoverageUnmeasured string                 `json:"coverage_unmeasured,omitempty"`
}

type explanation struct {
	RunID   string        `json:"run_id"`
	Verdict gates.Verdict `json:"verdict"`
	Gates   []explained   `json:"gates"`
	// Integrity are the ways the change weakens the gates; shown first, whatever GATE asks.
	Integrity []gates.IntegrityFinding `json:"integrity,omitempty"`
}

func explain(opts *explainOptions) error {
	ios := opts.IO
	root, err := projectRoot(ios, opts.configFile)
	if err != nil {
		return err
	}
	r, data, err := readExplainedRun(root, ios.ErrOut)
	if err != nil {
		return err
	}
	ex := explanation{RunID: r.RunID, Verdict: r.Verdict, Gates: []explained{}}
	if opts.gate == "" {
		ex.Integrity = r.Integrity
	}
	// Setup steps first: a failed step explains the gates it kept from running.
	all := slices.Concat(r.Setup, r.Gates)
	ex.Gates = explainGates(all, opts.gate, storedCauses(data), setupNames(r.Setup))
	if opts.gate != "" && len(ex.Gates) == 0 {
		return fmt.Errorf("gate %q is %w %s (its gates: %s)", opts.gate, errNotInLastRun, r.RunID, gateNameList(all))
	}
	if opts.json {
		enc := json.NewEncoder(ios.Out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(ex)
	}
	return writeExplanation(ios.Out, ex, ios.ColorEnabled(opts.color, ios.StdoutTTY))
}

// readExplainedRun reads the last run's report, and the stored bytes it came from.
func readExplainedRun(root string, stderr io.Writer) (report.Report, []byte, error) {
	data, err := readLastRun(root, stderr)
	if errors.Is(err, fs.ErrNotExist) {
		return report.Report{}, nil, fmt.Errorf("%w in %s (gauntlet run records one)", errNoLastRun, config.DisplayPath(filepath.Join(root, state.Name)))
	}
	if err != nil {
		return report.Report{}, nil, err
	}
	r, err := report.ReadJSON(bytes.NewReader(data))
	if err != nil {
		where := config.DisplayPath(filepath.Join(root, state.Name, engine.LastRunFile))
		return report.Report{}, nil, fmt.Errorf("last run %s: %w", where, err)
	}
	return r, data, nil
}

func setupNames(steps []report.GateReport) map[string]bool {
	setup := map[string]bool{}
	for _, s := range steps {
		setup[s.Name] = true
	}
	return setup
}

// gateNameList names the run's gates for an error, "none" when it had none.
func gateNameList(all []report.GateReport) string {
	if len(all) == 0 {
		return "none"
	}
	names := make([]string, 0, len(all))
	for _, g := range all {
		names = append(names, g.Name)
	}
	return strings.Join(names, ", ")
}

// explainGates explains the gate asked for, or every gate that did not pass, each followed by
// the chain of needs that made it skip.
func explainGates(all []report.GateReport, asked string, causes map[string]*gates.Cause, setup map[string]bool) []explained {
	byName := map[string]report.GateReport{}
	for _, g := range all {
		byName[g.Name] = g
	}
	out := []explained{}
	for _, g := range all {
		if !isExplained(g, asked) || slices.ContainsFunc(out, func(e explained) bool { return e.Name == g.Name }) {
			continue // not asked for, or already explained as the cause of a skip
		}
		out = append(out, explainGate(g, causes, setup))
		for _, need := range skipChain(g, byName) {
			out = append(out, explainGate(need, causes, setup))
		}
	}
	return out
}

// isExplained reports whether explain shows g: the gate asked for, or with none asked, each
// gate that failed, errored or warned.
func isExplained(g report.GateReport, asked string) bool {
	return g.Name == asked || asked == "" && slices.Contains([]gates.Status{gates.StatusFail, gates.StatusError, gates.StatusWarn}, g.Status)
}

// skipChain follows a gate skipped for its need to that need, and on to the gate that failed.
// Each step is a gate that finished earlier, so the chain ends.
func skipChain(g report.GateReport, byName map[string]report.GateReport) []report.GateReport {
	var chain []report.GateReport
	for seen := map[string]bool{g.Name: true}; g.SkippedBecause != "" && !seen[g.SkippedBecause]; {
		need, ok := byName[g.SkippedBecause]
		if !ok {
			break
		}
		seen[need.Name] = true
		chain = append(chain, need)
		g = need
	}
	return chain
}

func explainGate(g report.GateReport, causes map[string]*gates.Cause, setup map[string]bool) explained {
	e := explained{Name: g.Name, Status: g.Status, Reason: g.Reason, Cause: causes[g.Name], Findings: g.Findings, Hint: g.Hint, Log: g.Log,
		SkippedBecause: g.SkippedBecause, NeededBy: g.NeededBy, Setup: setup[g.Name], Tests: g.Tests, TestsUncounted: g.TestsUncounted,
		Coverage: g.Coverage, CoverageUnmeasured: g.CoverageUnmeasured}
	if len(g.Findings) == 0 && e.Cause == nil && g.SkippedBecause == "" {
		// Nothing was recognised in the output: its last lines are all there is to go on.
		e.Tail = lastLines(termtext.Clean(g.Tail), report.DefaultTailLines)
	}
	return e
}

// storedCauses reads each gate's environment cause from the stored report, where a run that
// recognised one keeps it beside the findings.
func storedCauses(data []byte) map[string]*gates.Cause {
	type named struct {
		Name  string       `json:"name"`
		Cause *gates.Cause `json:"cause"`
	}
	var stored struct {
		Gates []named `json:"gates"`
		Setup []named `json:"setup"`
	}
	out := map[string]*gates.Cause{}
	if json.Unmarshal(data, &stored) != nil {
		return out
	}
	for _, g := range slices.Concat(stored.Setup, stored.Gates) {
		if g.Cause != nil {
			out[g.Name] = g.Cause
		}
	}
	return out
}

func writeExplanation(w io.Writer, ex explanation, colored bool) error {
	var b strings.Builder
	writeIntegrityFindings(&b, ex.Integrity)
	if len(ex.Integrity) > 0 && len(ex.Gates) > 0 {
		b.WriteString("\n")
	}
	if len(ex.Gates) == 0 && len(ex.Integrity) == 0 {
		fmt.Fprintf(&b, "last run %s: %s, no gate failed\n", ex.RunID, ex.Verdict)
	}
	for i, g := range ex.Gates {
		if i > 0 {
			b.WriteString("\n")
		}
		writeExplainedGate(&b, g, colored)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeIntegrityFindings lists the ways the change weakens the gates, then what each rule means.
func writeIntegrityFindings(b *strings.Builder, fs []gates.IntegrityFinding) {
	if len(fs) == 0 {
		return
	}
	fmt.Fprintf(b, "%s (%s):\n", report.IntegrityHeadingOf(fs), termtext.Count(len(fs), "finding"))
	var rules []string
	for _, f := range fs {
		fmt.Fprintf(b, "  %s  %s  [%s] %s\n", f.Level, report.IntegrityPlace(f), f.Rule, termtext.Line(f.Message))
		if !slices.Contains(rules, f.Rule) {
			rules = append(rules, f.Rule)
		}
	}
	for _, rule := range rules {
		fmt.Fprintf(b, "  %s: %s\n", rule, gates.IntegrityRuleSummary[rule])
	}
	if gates.OnlyUncovered(fs) {
		b.WriteString("  Add a test that runs them, or remove the code if nothing needs it; docs/coverage.md says how they are measured.\n")
		return
	}
	b.WriteString("  Restore what the change weakened, or, if it was asked for, say so; docs/integrity.md lists the rules.\n")
}

// saidByCause says whether a gate's reason is its environment cause and fix, which the lines
// under it say: a cause is said once.
func saidByCause(g explained) bool {
	return g.Cause != nil && termtext.Line(g.Reason) == termtext.Line(gates.CauseReason(*g.Cause))
}

// writeExplainedGate says what happened to one gate and what to do about it.
func writeExplainedGate(b *strings.Builder, g explained, colored bool) {
	status := report.PaintStatus(string(g.Status), g.Status, colored)
	if g.Setup {
		fmt.Fprintf(b, "%s (setup step of %s): %s", g.Name, strings.Join(g.NeededBy, ", "), status)
	} else {
		fmt.Fprintf(b, "%s: %s", g.Name, status)
	}
	if reason := termtext.Line(g.Reason); reason != "" && reason != string(g.Status) && !saidByCause(g) {
		fmt.Fprintf(b, " (%s)", reason)
	}
	b.WriteString("\n")
	if c := g.Cause; c != nil {
		fmt.Fprintf(b, "  cause: %s\n", termtext.Line(c.Summary))
		if fix := termtext.Line(c.Fix); fix != "" {
			fmt.Fprintf(b, "  fix: %s\n", fix)
		}
	}
	if hint := termtext.Line(g.Hint); hint != "" {
		fmt.Fprintf(b, "  hint: %s\n", hint)
	}
	writeCensus(b, g)
	writeExplainedFindings(b, g.Findings)
	if g.SkippedBecause != "" {
		fmt.Fprintf(b, "  did not run: see %s below\n", termtext.Line(g.SkippedBecause))
		return
	}
	if len(g.Findings) == 0 && g.Cause == nil && g.Status != gates.StatusPass && g.Status != gates.StatusSkipped {
		writeUnrecognised(b, g.Tail, g.Reason)
	}
	if g.Log != "" {
		fmt.Fprintf(b, "  log: %s\n", termtext.Line(g.Log))
	}
}

// writeExplainedFindings lists a gate's findings with their whole messages: a failing
// assertion's detail is often on its later lines.
func writeExplainedFindings(b *strings.Builder, fs []gates.Finding) {
	if len(fs) > 0 {
		fmt.Fprintf(b, "  findings (%d):\n", len(fs))
	}
	for _, f := range fs {
		b.WriteString("    " + report.FindingLine(f) + "\n")
		if _, rest, ok := strings.Cut(termtext.Clean(f.Message), "\n"); ok {
			for _, l := range strings.Split(strings.TrimRight(rest, "\n"), "\n") {
				b.WriteString("        " + l + "\n")
			}
		}
	}
}

// writeUnrecognised shows the last lines of a failing gate whose output nothing was recognised in.
func writeUnrecognised(b *strings.Builder, tail, reason string) {
	if strings.TrimSpace(tail) == "" {
		// Nothing to recognise anything in: said once, where the reason does not say it.
		if !strings.Contains(reason, "printed nothing") {
			b.WriteString("  it printed nothing\n")
		}
		return
	}
	b.WriteString("  no findings were recognised in its output; its last lines:\n")
	for _, l := range strings.Split(tail, "\n") {
		b.WriteString("    " + l + "\n")
	}
}

// writeCensus says what a test gate's census counted, or why its tests could not be counted.
func writeCensus(b *strings.Builder, g explained) {
	if g.TestsUncounted != "" {
		fmt.Fprintf(b, "  tests: cannot be counted: %s\n  to count them: %s\n", termtext.Line(g.TestsUncounted), engine.UncountedFix)
	}
	writeCoverage(b, g)
	c := g.Tests
	if c == nil {
		return
	}
	fmt.Fprintf(b, "  tests: %d passed, %d failed, %d skipped (%s, from the %s)\n", c.Passed, c.Failed, c.Skipped, c.Runner, censusSources[c.Source])
	for _, list := range []struct {
		label string
		ids   []string
	}{{"failed", c.FailedTests}, {"skipped", c.SkippedTests}, {"failed as a whole", c.FailedUnits}} {
		if len(list.ids) > 0 {
			fmt.Fprintf(b, "    %s: %s\n", list.label, strings.Join(list.ids, ", "))
		}
	}
	if !c.Complete {
		fmt.Fprintf(b, "    the count is incomplete: %s\n", strings.Join(c.Notes, "; "))
	}
}

// censusSources say where a census was read from, as explain words it.
var censusSources = map[string]string{
	gates.CensusFromOutput: "runner's output",
	gates.CensusFromReport: "report the runner was asked for",
	gates.CensusFromTests:  "reports tests: names",
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	out := strings.Join(lines, "\n")
	if strings.TrimSpace(out) == "" {
		return ""
	}
	return out
}

// writeCoverage says what a gate with coverage: covered, or why its coverage was not read.
func writeCoverage(b *strings.Builder, g explained) {
	if g.CoverageUnmeasured != "" {
		fmt.Fprintf(b, "  coverage: not read: %s\n", termtext.Line(g.CoverageUnmeasured))
	}
	if c := g.Coverage; c != nil {
		fmt.Fprintf(b, "  coverage: %d of %d lines covered in %s (%s)\n", c.Covered, c.Lines, termtext.Count(c.Files, "file"), termtext.Line(c.Format))
	}
}
