package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/census"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/runner"
)

// censusReadTime bounds the reading of a gate's reports when the run has no deadline of its own:
// a census of 100,000 tests reads in about a second.
const censusReadTime = time.Minute

// censusStage reads the test census of each test gate of a run (docs/census.md). Before the run
// it plans each gate's census (PlanCensus); as a gate starts, it gives the runner the command
// that asks the gate's test runners for their census (invocations) and reads what comes in the
// output (readers); once the gate has ended, it reads the reports the gate wrote, within the
// run's deadline. Each census goes on its gate's result as a summary (attach) and stays whole
// in memory (Run.Census), for the comparison with the base.
type censusStage struct {
	root     string
	deadline time.Time // the run's, zero when it has none
	env      []string  // every gate's base environment, for a probe of a runner's version
	extraEnv []string
	temp     *runTemp
	gates    map[string]*gateCensus
	nodeProbe
	// covdata memoizes, per go and directory, the covdata executable go test's coverage runs.
	covdataMu sync.Mutex
	covdata   map[covdataKey]string
}

// newCensusStage plans the census of every test gate of toRun. The run's temp directory, where
// runners write their reports, is made when a gate first needs it.
func newCensusStage(ctx context.Context, root string, sd *state.Dir, runID string, env, extraEnv []string, toRun []gates.Gate) *censusStage {
	s := &censusStage{root: root, env: env, extraEnv: extraEnv, temp: &runTemp{sd: sd, runID: runID}, gates: map[string]*gateCensus{}}
	s.deadline, _ = ctx.Deadline()
	for _, g := range toRun {
		if plan := PlanCensusIn(g, root); plan.TestGate {
			gc := &gateCensus{stage: s, gate: g, plan: plan, dir: filepath.Join(root, g.Dir), uncounted: plan.Uncounted}
			if cp := PlanCoverage(g, plan); cp.Measured() || cp.Unmeasured != "" {
				gc.cover = &gateCoverage{plan: cp, unmeasured: cp.Unmeasured}
			}
			s.gates[g.Name] = gc
		}
	}
	return s
}

// invocations asks a test gate's runners for their census as the gate starts.
func (s *censusStage) invocations(g gates.Gate) *runner.Invocation {
	if gc := s.gates[g.Name]; gc != nil {
		return gc.invocation()
	}
	return nil
}

// readers read the census in a test gate's output, and its reports once it has ended.
func (s *censusStage) readers(g gates.Gate) []runner.OutputReader {
	if gc := s.gates[g.Name]; gc != nil {
		return []runner.OutputReader{gc.reader()}
	}
	return nil
}

// attach puts each test gate's census, or why there is none, on its result. Results of gates the
// stage did not see (answered from the cache or a background judge) are left as they are.
func (s *censusStage) attach(results []gates.Result) []gates.Result {
	for i := range results {
		gc := s.gates[results[i].Name]
		if gc != nil {
			results[i].Coverage, results[i].CoverageUnmeasured = coverageSummary(gc)
		}
		switch {
		case gc == nil:
		case gc.result != nil:
			results[i].Tests = summarize(*gc.result, gc.source())
		case gc.uncounted != "":
			results[i].TestsUncounted = gc.uncounted
		}
	}
	return results
}

// censuses are the censuses read, whole, by gate.
func (s *censusStage) censuses() map[string]census.Census {
	out := map[string]census.Census{}
	for name, gc := range s.gates {
		if gc.result != nil {
			out[name] = *gc.result
		}
	}
	return out
}

// Census is the whole test census of a gate this run ran, as read when it ended; false when the
// gate is no test gate, its tests could not be counted, or it did not run here.
func (r *Run) Census(gate string) (census.Census, bool) {
	c, ok := r.censuses[gate]
	return c, ok
}

// close removes the run's temp directory, and ends the reading of any output a gate's Settle
// did not (a panic in a reader before it), so that no reader's goroutine outlives the run. The
// runner has returned by then.
func (s *censusStage) close() {
	for _, gc := range s.gates {
		for _, st := range []*censusStream{gc.output, gc.events} {
			if st != nil {
				st.close()
			}
		}
	}
	s.temp.remove()
}

// readDeadline is when reading a gate's reports must end.
func (s *censusStage) readDeadline() time.Time {
	limit := time.Now().Add(censusReadTime)
	if !s.deadline.IsZero() && s.deadline.Before(limit) {
		return s.deadline
	}
	return limit
}

// runTemp is the run's directory for the reports runners write, made once, at first need, by
// whichever gate needs it first.
type runTemp struct {
	sd    *state.Dir
	runID string

	mu      sync.Mutex
	tried   bool
	removed bool
	root    *os.Root
	path    string
	err     error
}

// open makes the directory, once, and returns its absolute path.
func (t *runTemp) open() (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case t.removed:
		return "", errors.New("the run is over")
	case !t.tried && t.sd == nil:
		t.tried, t.err = true, errors.New("no state directory")
	case !t.tried:
		t.tried = true
		t.root, t.path, t.err = t.sd.NewRunTemp(t.runID)
	}
	return t.path, t.err
}

// dir is the directory's path, "" while no gate made it.
func (t *runTemp) dir() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.path
}

func (t *runTemp) remove() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.removed = true
	if t.root == nil {
		return
	}
	t.root.Close()
	t.root = nil
	_ = t.sd.RemoveRunTemp(t.runID)
}

// summarize is what reports show of a census: counts, and the first failing and skipped tests.
func summarize(c census.Census, source string) *gates.TestCensus {
	out := &gates.TestCensus{Runner: c.Runner, Source: source, Complete: c.Complete}
	for _, t := range c.Tests {
		switch t.Outcome {
		case census.Pass:
			out.Passed++
		case census.Fail:
			out.Failed++
			out.FailedTests = appendCapped(out.FailedTests, t.ID)
		case census.Skip:
			out.Skipped++
			out.SkippedTests = appendCapped(out.SkippedTests, t.ID)
		}
	}
	for _, u := range c.Failed {
		suite := u.Suite
		if suite == "" {
			suite = "the whole run"
		}
		out.FailedUnits = appendCapped(out.FailedUnits, suite+": "+u.Reason)
	}
	for _, n := range c.Notes {
		out.Notes = appendCapped(out.Notes, n)
	}
	return out
}

func appendCapped(list []string, s string) []string {
	if len(list) >= gates.MaxCensusIDs {
		return list
	}
	return append(list, s)
}
