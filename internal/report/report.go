package report

import (
	"fmt"
	"slices"
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
	// Setup are the setup steps the run's gates needed, in the same shape as gates; omitted when
	// there were none. A failed step fails the run like a gate.
	Setup []GateReport `json:"setup,omitempty"`
	// ConfigDigest is the sha256 of the config's bytes: reports of shards are merged only when
	// they ran the same config.
	ConfigDigest string `json:"config_digest,omitempty"`
	// Shard is "K/N" when the run was one shard of a split.
	Shard string `json:"shard,omitempty"`
	// ShardsDurationMS, in a merged report, is the sum of the shards' run times (the machine
	// time spent), while DurationMS is the wall time from the first start to the last end.
	ShardsDurationMS int64 `json:"shards_duration_ms,omitempty"`
	// Integrity lists the ways the change weakens the gates rather than fixing the code, each
	// at its level (block or warn); omitted when there are none.
	Integrity []gates.IntegrityFinding `json:"integrity,omitempty"`
	// IntegritySkipped says why the change was not judged for integrity (outside git, no commit
	// yet, integrity: off); omitted when it was.
	IntegritySkipped string `json:"integrity_skipped,omitempty"`
	// LocalOverrides names what .gauntlet.local.yml changed of the gates this run judged ("test:
	// disabled by .gauntlet.local.yml"): a personal file, not in git, that nobody else sees.
	LocalOverrides []string `json:"local_overrides,omitempty"`
	// AllGatesBecause says why every gate ran, on every file, although neither --all nor a gate
	// name asked for it ("nothing changed against main", a CI push with nothing to compare
	// with); omitted when change scoping applied.
	AllGatesBecause string `json:"all_gates_because,omitempty"`
	// ScopedTo says what a CI build's change was measured from when the CI named it ("the pushed
	// range since 1a2b3c4d5e6f", "the pull request against main: the change since its merge-base
	// with 1a2b3c4d5e6f"); omitted otherwise.
	ScopedTo string `json:"scoped_to,omitempty"`
	// NotCounted are the blames whose failures did not fail the verdict (a stop lets pre-existing
	// and flaky failures go; so does `run --new-only`): they weigh as warnings. Omitted when every
	// failure counts.
	NotCounted []gates.Blame `json:"not_counted,omitempty"`
	// Origin says what the run checked and with what, for the pages a person opens later; not
	// part of the JSON report, whose readers have it from their own context. Nil when unknown.
	Origin *Origin `json:"-"`
}

// Origin is what a run checked (repository, branch, commit, config file) and the gauntlet
// that checked it.
type Origin struct {
	Repository string // the project root's folder name
	Remote     string // origin's URL, when there is one
	Branch     string // "" on a detached HEAD or outside git
	Commit     string // HEAD, abbreviated
	ConfigFile string // relative to the project root
	Version    string
	// Root is the project root's absolute path: logs are relative to it.
	Root string
	// LogDir is the path from the page's folder to the project root, slash-separated: a log's
	// link opens from wherever the page was written. Set per page; "" means the root itself.
	LogDir string
}

// Counts says which failures count in r's verdict, by their blame (nil: every one).
func (r Report) Counts() func(gates.Blame) bool {
	if len(r.NotCounted) == 0 {
		return nil
	}
	return func(b gates.Blame) bool { return b == "" || !slices.Contains(r.NotCounted, b) }
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
	// Findings are the problems read from the gate's output (or its review); never null.
	Findings []gates.Finding `json:"findings"`
	// OutputLines is how many lines the gate printed (blank lines at the end aside), so that a
	// report read back can say how many it does not show; 0 when it printed none.
	OutputLines int `json:"output_lines,omitempty"`
	// Cause is the environment failure recognised in the output, for `gauntlet explain` and tools
	// that want it without parsing the reason; omitted when there was none.
	Cause *gates.Cause `json:"cause,omitempty"`
	// Needs are the gates (and setup steps) this gate waits for, as configured.
	Needs []string `json:"needs,omitempty"`
	// SkippedBecause names the need whose failure kept this gate from running; `gauntlet
	// explain` follows it to the cause.
	SkippedBecause string `json:"skipped_because,omitempty"`
	// NeededBy, for a setup step, names the gates of the run that need it.
	NeededBy []string `json:"needed_by,omitempty"`
	// RerunAll says the gate ran on every file ({files} with --all): it reruns with --all.
	RerunAll bool `json:"rerun_all,omitempty"`
	// Fix is the gate's fixer command: `gauntlet fix NAME` runs it and reruns the gate.
	Fix string `json:"fix,omitempty"`
	// ChangedFiles are the files the gate changed in the worktree without writes: true, which
	// failed it.
	ChangedFiles []string `json:"changed_files,omitempty"`
	// Tests is a test gate's census: its tests counted by outcome, the first failing and
	// skipped ones named (docs/census.md); TestsUncounted says why a test gate's tests could not
	// be counted. Both are omitted for other gates.
	Tests          *gates.TestCensus `json:"tests,omitempty"`
	TestsUncounted string            `json:"tests_uncounted,omitempty"`
	// Coverage is a gate's line coverage, for a gate with coverage: (docs/coverage.md);
	// CoverageUnmeasured says why none was read.
	Coverage           *gates.CoverageSummary `json:"coverage,omitempty"`
	CoverageUnmeasured string                 `json:"coverage_unmeasured,omitempty"`
	// StartedMS is when the gate started, in milliseconds after the run started: the HTML
	// report's timeline. Omitted for a gate that did not run (skipped, cached) and for one that
	// started with the run.
	StartedMS int64 `json:"started_ms,omitempty"`
	// Config is where the gate is defined, so that a failure without a finding of its own can
	// still be shown on a line (SARIF); omitted when not known.
	Config *ConfigPlace `json:"config,omitempty"`
	// Blame says whose a failure is, measured against the change's base: regression,
	// pre-existing or flaky (SPEC §12); BlameDetail names the tests it rests on. Omitted for a
	// gate that did not fail, or whose failure was not compared with the base.
	Blame       gates.Blame        `json:"blame,omitempty"`
	BlameDetail *gates.BlameDetail `json:"blame_detail,omitempty"`

	// setup marks a setup step's line among the gates' in the renderings (see shown).
	setup bool
}

// ConfigPlace is a line of the config: File is relative to the project root, with forward
// slashes (absolute when the file is outside it), Line is the line of the gate's name.
type ConfigPlace struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

// shown lists what the renderings show, one line each: the setup steps first (a failed step
// explains the gates it skipped), then the gates.
func (r Report) shown() []GateReport {
	if len(r.Setup) == 0 {
		return r.Gates
	}
	out := make([]GateReport, 0, len(r.Setup)+len(r.Gates))
	for _, s := range r.Setup {
		s.setup = true
		out = append(out, s)
	}
	return append(out, r.Gates...)
}

// label is the name a rendering shows: a setup step says it is one.
func (g GateReport) label() string {
	if g.setup {
		return g.Name + " (setup)"
	}
	return g.Name
}

// rerun is the command that runs the gate again: for a setup step, the gates that need it.
func (g GateReport) rerun() string {
	if g.setup && len(g.NeededBy) > 0 {
		return "gauntlet run " + strings.Join(g.NeededBy, " ")
	}
	if g.RerunAll {
		return "gauntlet run --all " + g.Name
	}
	return "gauntlet run " + g.Name
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
		g := gateReport(res)
		g.StartedMS = startedAfter(started, res.Started)
		r.Gates = append(r.Gates, g)
	}
	return r
}

// startedAfter is when a gate started, in milliseconds after the run: 0 for a gate that never
// started (its time is zero) or that started before the run's clock did.
func startedAfter(run, gate time.Time) int64 {
	if gate.IsZero() || gate.Before(run) {
		return 0
	}
	return gate.Sub(run).Milliseconds()
}

func gateReport(res gates.Result) GateReport {
	g := GateReport{
		Name:               res.Name,
		Kind:               res.Kind,
		Status:             res.Status,
		DurationMS:         res.Duration.Milliseconds(),
		TimedOut:           res.TimedOut,
		Log:                res.Log,
		Reason:             res.Reason,
		Tail:               res.Tail,
		Hint:               res.Hint,
		Command:            res.Command,
		Findings:           res.Findings,
		OutputLines:        res.Lines,
		Cause:              res.Cause,
		Cached:             res.Cached,
		Needs:              res.Needs,
		SkippedBecause:     res.SkippedBecause,
		ChangedFiles:       res.Changed,
		NeededBy:           res.NeededBy,
		RerunAll:           res.RerunAll,
		Fix:                res.Fix,
		Tests:              res.Tests,
		TestsUncounted:     res.TestsUncounted,
		Coverage:           res.Coverage,
		CoverageUnmeasured: res.CoverageUnmeasured,
		Blame:              res.Blame,
		BlameDetail:        res.BlameDetail,
	}
	if g.Findings == nil {
		g.Findings = []gates.Finding{}
	}
	if res.ExitCode >= 0 {
		code := res.ExitCode
		g.ExitCode = &code
	}
	return g
}

// WithSetup adds the results of the run's setup steps, which count in the verdict like gates;
// started is the run's start, as given to New (StartedAt keeps whole seconds only).
func (r Report) WithSetup(started time.Time, setup []gates.Result) Report {
	if len(setup) == 0 {
		return r
	}
	r.Setup = make([]GateReport, 0, len(setup))
	results := make([]gates.Result, 0, len(setup)+len(r.Gates))
	for _, res := range setup {
		s := gateReport(res)
		s.StartedMS = startedAfter(started, res.Started)
		r.Setup = append(r.Setup, s)
		results = append(results, gates.Result{Status: res.Status})
	}
	for _, g := range r.Gates {
		results = append(results, gates.Result{Status: g.Status})
	}
	r.Verdict = gates.VerdictOf(results)
	return r
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

// briefReason is the reason on a gate's one line (the summary's table, the live view, a plain
// finish line): without the environment cause, which the gate's block below says once, in full.
// A timeout's line says after how long; where that limit came from and what the gate printed
// last are its block's to say.
func briefReason(s gates.Status, reason string, cause *gates.Cause, timedOut bool) string {
	reason = visibleReason(s, reason)
	if timedOut && strings.HasPrefix(reason, timedOutAfter) {
		if end := strings.IndexAny(reason[len(timedOutAfter):], " ;"); end >= 0 {
			reason = reason[:len(timedOutAfter)+end]
		}
		return reason
	}
	rest, only := withoutCause(reason, cause)
	if only {
		return rest + "environment problem, said below"
	}
	return rest
}

// withoutCause is a reason less its environment cause, said elsewhere once; only reports that
// nothing but the cause was left (or gates.CouldNotRun, which rest keeps).
func withoutCause(reason string, cause *gates.Cause) (rest string, only bool) {
	if cause == nil || reason == "" {
		return reason, false
	}
	said := termtext.Line(gates.CauseReason(*cause))
	rest = strings.TrimSuffix(strings.TrimSuffix(reason, said), "; ")
	return rest, rest == "" || rest == gates.CouldNotRun
}

// timedOutAfter starts the reason of every timeout (gates.timeoutReason), its limit after it.
const timedOutAfter = "timed out after "

// visibleReason drops the reason of a pass, and one that would only repeat the status
// ("cancelled  review  cancelled").
func visibleReason(s gates.Status, reason string) string {
	reason = termtext.Line(reason)
	if s == gates.StatusPass && strings.Contains(reason, gates.NewOnlyMark) {
		return reason // a pass that set findings aside says so
	}
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

// setupTally names the setup steps that did not pass, for the verdict line: "setup install
// failed; ". Nothing when every step passed, was cached or was not needed.
func setupTally(setup []GateReport) string {
	var parts []string
	for _, s := range setup {
		switch s.Status {
		case gates.StatusFail:
			parts = append(parts, "setup "+s.Name+" failed")
		case gates.StatusError:
			parts = append(parts, "setup "+s.Name+" could not run")
		case gates.StatusCancelled:
			parts = append(parts, "setup "+s.Name+" cancelled")
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, ", ") + "; "
}
