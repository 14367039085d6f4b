package engine

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/census"
	"github.com/gauntlet-dev/gauntlet/runner"
)

// gateCensus is the census of one test gate. Its methods run on the gate's own goroutine, in
// the runner's order (reader, invocation, the reader's Line, Finish and Settle), and attach reads
// it once the runner has returned: nothing here is shared between gates but the stage.
type gateCensus struct {
	stage *censusStage
	gate  gates.Gate
	plan  CensusPlan
	dir   string // the gate's working directory
	// requests are the plan's, as the gate's command runs them; reports[i] is where request i's
	// report is (absolute), "" when it reads the output.
	requests []census.Request
	reports  []string
	// before are the reports that were there before the gate started: one the gate did not
	// write again is not its census.
	before map[string]stamp
	// output reads the census in the gate's output as the user sees it; events, the go test
	// events a filter shows as text.
	output *censusStream
	events *censusStream
	// uncounted says why the gate's tests could not be counted; result is its census.
	uncounted string
	result    *census.Census
	// cover is the gate's coverage, for a gate with coverage:.
	cover *gateCoverage
}

// invocation puts the census requests in the gate's command; nil runs it as declared.
func (gc *gateCensus) invocation() *runner.Invocation {
	reqs := slices.Clone(gc.plan.Requests)
	if why := gc.stage.adjustNode(gc, reqs); why != "" {
		gc.uncounted, gc.requests, gc.reports = why, nil, nil
		return nil
	}
	reports, err := gc.reportPaths(reqs)
	if err != nil {
		gc.uncounted, gc.requests, gc.reports = "the run's directory for test reports could not be made: "+err.Error(), nil, nil
		return nil
	}
	gc.requests, gc.reports = reqs, reports
	gc.snapshotReports(reports)
	ask, profiles, err := gc.askCoverage()
	if err != nil {
		gc.cover.unmeasured = "the run's directory for coverage profiles could not be made: " + err.Error()
	}
	all, files := slices.Concat(reqs, ask), slices.Concat(reports, profiles)
	if !slices.ContainsFunc(all, func(r census.Request) bool { return len(r.Args) > 0 || len(r.Env) > 0 }) {
		return nil // every runner gives its census as the gate declares it
	}
	cmd := gc.command(all, files)
	inv := &runner.Invocation{Run: cmd.Shell, Argv: cmd.Argv, Env: gc.environment(reqs, reports)}
	if show, ok := gc.goShow(reqs); ok {
		show.HideCoverage = len(ask) > 0 && !show.Cover
		gc.events = startCensusStream(census.FormatGo, gc.options())
		inv.Output = func(out io.Writer) io.WriteCloser { return newGoEventsFilter(out, gc.events, show) }
	}
	return inv
}

// environment is what the requests of runners behind a script add to the gate's environment:
// each value after the one the gate already has (the user's own NODE_OPTIONS still hold), the
// report's path quoted as the runner splits the variable.
func (gc *gateCensus) environment(reqs []census.Request, reports []string) []string {
	var out []string
	have := slices.Concat(gc.stage.env, gc.gate.Env, gc.stage.extraEnv)
	for i, r := range reqs {
		for _, e := range r.Env {
			key, value, _ := strings.Cut(e, "=")
			value = strings.ReplaceAll(value, census.EnvWord(census.FilePlaceholder), census.EnvWord(reports[i]))
			if old := lastValue(slices.Concat(have, out), key); old != "" {
				value = old + " " + value
			}
			out = append(out, key+"="+value)
		}
	}
	return out
}

// goShow says how the go test the census asks for -json prints without it, false when the
// command runs none. Of two, the one that shows more is taken; GOFLAGS in the gate's
// environment adds what it asks.
func (gc *gateCensus) goShow(reqs []census.Request) (census.GoShow, bool) {
	var show census.GoShow
	found := false
	for _, r := range reqs {
		if r.Display != census.DisplayGoEvents || len(r.Args) == 0 {
			continue
		}
		found = true
		show.Verbose = show.Verbose || r.Go.Verbose
		show.Streams = show.Streams || r.Go.Streams
		show.FinalFail = show.FinalFail || r.Go.FinalFail
		show.Cover = show.Cover || r.Go.Cover
	}
	env := slices.Concat(gc.stage.env, gc.gate.Env, gc.stage.extraEnv)
	return show.WithGOFLAGS(lastValue(env, "GOFLAGS")), found
}

// command is the gate's command with the requests in place, quoted for sh in a run: string
// (PlanCensus asked for a file argument only where the shell is sh's kind).
func (gc *gateCensus) command(reqs []census.Request, reports []string) census.Command {
	return census.Apply(commandOf(gc.gate), reqs, func(i int) string { return reports[i] }, gates.ShellQuote)
}

// reportPaths says where each request's report is: a file of the run for the ones gauntlet
// names, the command's own path for the others, "" for a census read from the output.
func (gc *gateCensus) reportPaths(reqs []census.Request) ([]string, error) {
	out := make([]string, len(reqs))
	for i, r := range reqs {
		switch r.File {
		case "":
		case census.FilePlaceholder:
			dir, err := gc.stage.temp.open()
			if err != nil {
				return nil, err
			}
			out[i] = filepath.Join(dir, fmt.Sprintf("%s-%d.%s", gc.gate.Name, i, reportExt[r.Format]))
		default:
			out[i] = r.File
			if !filepath.IsAbs(out[i]) {
				out[i] = filepath.Join(gc.dir, out[i])
			}
		}
	}
	return out, nil
}

// reportExt names a report file by its format, for whoever opens it.
var reportExt = map[census.Format]string{census.FormatJUnit: "xml", census.FormatJest: "json", census.FormatGo: "json"}

// reader reads the census that comes in the gate's output (a runner whose text or events the
// user sees as they are: cargo test, go test -json asked by the gate itself).
func (gc *gateCensus) reader() runner.OutputReader {
	for _, r := range gc.plan.Requests {
		if r.File == "" && !(r.Display == census.DisplayGoEvents && len(r.Args) > 0) {
			gc.output = startCensusStream(r.Format, gc.options())
			break
		}
	}
	if gc.plan.Tests != "" {
		gc.snapshotReports(gc.testsReports(gc.stage.readDeadline()))
	}
	if gc.cover != nil && gc.cover.plan.Reports != "" {
		// A coverage report left by an earlier run (the base's, in the same tree) is not this
		// run's: only one written during the gate's run is read.
		gc.snapshotReports(gc.globReports(gc.cover.plan.Reports, gc.stage.readDeadline()))
	}
	return censusReader{gc}
}

func (gc *gateCensus) options() census.Options { return census.Options{Root: gc.dir} }

// source says where the census was read from, for reports.
func (gc *gateCensus) source() string {
	switch {
	case gc.plan.Tests != "":
		return gates.CensusFromTests
	case slices.ContainsFunc(gc.reports, func(p string) bool { return p != "" }):
		return gates.CensusFromReport
	}
	return gates.CensusFromOutput
}

// settle reads the census once the gate has ended: what came in the output, then the reports.
func (gc *gateCensus) settle() {
	var parts []census.Census
	for _, s := range []*censusStream{gc.output, gc.events} {
		if s != nil {
			parts = append(parts, s.close())
		}
	}
	deadline := gc.stage.readDeadline()
	gc.readCoverage(deadline)
	if gc.uncounted != "" {
		return // the command ran as declared: what it printed is no census
	}
	for i, r := range gc.requests {
		if gc.reports[i] != "" {
			parts = append(parts, gc.readReports(r.Format, []string{gc.reports[i]}, deadline))
		}
	}
	if gc.plan.Tests != "" {
		parts = append(parts, gc.readReports(census.FormatJUnit, gc.testsReports(deadline), deadline))
	}
	switch len(parts) {
	case 0:
	case 1:
		gc.result = &parts[0]
	default:
		merged := census.Merge(parts...)
		gc.result = &merged
	}
}

// censusReader is the gate's census among its output readers: it passes the lines on to the
// census read from the output, and reads the rest once the gate has ended. It never changes the
// gate's outcome: a census decides nothing about the gate's own pass or fail.
type censusReader struct{ gc *gateCensus }

func (r censusReader) Line(line []byte) {
	if r.gc.output != nil {
		r.gc.output.line(line)
	}
}

func (censusReader) Finish(*gates.Outcome) {}

// Settle reads the reports, bounded by the run's deadline rather than ctx, which fail-fast may
// have ended while the gate's report is whole on disk.
func (r censusReader) Settle(context.Context, *gates.Outcome) { r.gc.settle() }

// unread is the census of a report that could not be read.
func unread(f census.Format, why string) census.Census {
	return census.Census{Runner: string(f), Notes: []string{why}}
}

// stamp is what tells a file written again from the one that was there.
type stamp struct {
	mod  time.Time
	size int64
}
