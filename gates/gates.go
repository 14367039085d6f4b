// Package gates holds the pure vocabulary of a run: what a gate is, what happened to it, and how
// outcomes become a verdict. It does no I/O so that every rule here is table-testable.
package gates

import (
	"regexp"
	"time"
)

// Kind says how a gate is executed.
type Kind string

const (
	KindCheck  Kind = "check"
	KindReview Kind = "review"
	KindTodos  Kind = "todos"
)

// Severity says whether a failing gate fails the run or only warns.
type Severity string

const (
	SeverityError Severity = "error"
	SeverityWarn  Severity = "warn"
)

// When restricts a gate to local runs, CI runs, or both.
type When string

const (
	WhenAlways When = "always"
	WhenLocal  When = "local"
	WhenCI     When = "ci"
)

// Status is the classified outcome of one gate; the strings are part of the JSON report.
type Status string

const (
	StatusPass      Status = "pass"
	StatusFail      Status = "fail"
	StatusWarn      Status = "warn"
	StatusError     Status = "error"
	StatusSkipped   Status = "skipped"
	StatusCancelled Status = "cancelled"
)

// Verdict is the outcome of a whole run.
type Verdict string

const (
	VerdictPass  Verdict = "pass"
	VerdictWarn  Verdict = "warn"
	VerdictFail  Verdict = "fail"
	VerdictError Verdict = "error"
)

// DefaultMaxDiffBytes caps the diff a review gate sends when it sets no max_diff_bytes.
const DefaultMaxDiffBytes = 256 << 10

// DefaultInfraExitCodes are the shell's "found but not executable" and "not found" codes: the
// environment is broken, not the code under test.
var DefaultInfraExitCodes = []int{126, 127}

// Gate is one validated gate, free of any YAML detail.
type Gate struct {
	Name string
	Kind Kind
	// Exactly one of Run (executed with `sh -c`) and Argv (executed directly) is set for checks.
	Run  string
	Argv []string
	// Shell names the shell that runs Run (see oscmd.Shells); "" is sh, which on Windows is Git
	// for Windows' sh when it is installed, else cmd.
	Shell string
	// Dir is relative to the repository root ("" is the root itself); config guarantees it stays inside.
	Dir string
	// Env holds "KEY=VALUE" entries: the config-wide env first, then the gate's own, so later wins.
	Env     []string
	Timeout time.Duration
	// TimeoutFrom says where Timeout came from (TimeoutFromFlag, ...), for the reason of a
	// timeout; "" says nothing.
	TimeoutFrom string
	Paths       []string
	Exclude     []string
	// Glob narrows the files {files} gives the gate to those it matches too (a formatter for Go
	// files in a gate whose paths also hold go.mod); nil: every file paths gives.
	Glob           []string
	Severity       Severity
	OnTimeout      Status // StatusFail or StatusError
	InfraExitCodes []int
	InfraPatterns  []*regexp.Regexp
	Hint           string
	When           When
	Enabled        bool
	Review         *Review // set for kind review only
	// Cache lets a pass be answered from the per-gate cache while the gate's inputs are unchanged.
	Cache bool
	// Inputs are the globs of the files the gate's result depends on; none means its Paths, and
	// neither means the whole tree.
	Inputs []string
	// Session says the result depends on the agent's session (it reads the transcript, say): it
	// is never answered from another session's pass. See SessionDependent.
	Session bool
	// Format names how findings are read from the output: built-in parser names or errorformat
	// lines; nil means detected from the command, ["none"] reads none.
	Format []string
	// NewOnly makes findings on lines the change did not add or modify not fail the gate.
	NewOnly bool
	// Writes says the gate is meant to change the worktree (it generates files); any other gate
	// that changes it fails, naming the files.
	Writes bool
	// Causes applies the built-in catalogue of environment-failure signatures to the gate's
	// output (config key causes, default true).
	Causes bool
	// Fix is the command (run with `sh -c`, like Run) that repairs what the gate finds: the
	// writing form of the same tool (gofmt -w for gofmt -l). `gauntlet fix` runs it; "" is none.
	Fix string
	// Setup marks a setup step: a command gates name in Needs, run at most once per run and only
	// for them, reported apart from the gates, and allowed to write to the worktree (installed
	// dependencies, generated code).
	Setup bool
	// Needs names the gates (and setup steps) that must pass, or warn, before this gate starts;
	// when one of them does not, this gate is skipped. Config guarantees the names exist and
	// draw no cycle.
	Needs []string
	// AfterBase: the change added this gate to the config at the session's base (a stop judged by
	// the base's config): it starts only once every gate the base defines has finished, whatever
	// their results, so that nothing it does to the tree (`git stash`, a restored file) is what
	// the base's gates read.
	AfterBase bool
	// Speculative lets a background judge run the gate while the agent still works; false keeps
	// it for the stop.
	Speculative bool
	// Tests is a root-relative path or doublestar glob of the JUnit XML reports the gate writes:
	// its test census is read from them, and its command is run as declared. "" lets gauntlet
	// ask a runner it recognises in the command for its census (internal/census); Off counts
	// none.
	Tests string
	// Files are the files a command that names {files} runs on (internal/filesarg), relative to
	// the gate's Dir: set by the engine from the change (or every tracked file with --all), never
	// by the config; nil for a gate whose command does not name {files}.
	Files []string
	// Coverage turns on the coverage comparison with the base (docs/coverage.md): CoverageAuto
	// asks the runner the command runs (go test's -coverprofile), anything else is a
	// root-relative path or doublestar glob of the reports the gate writes (a Go cover profile,
	// lcov, coverage.py's JSON). "" measures what comes cheaply, as CoverageAuto does where the
	// command runs a go test gauntlet can add to, and nothing elsewhere; Off compares none.
	Coverage string
}

// CoverageAuto, as a gate's coverage:, asks the gate's test runner for its coverage.
const CoverageAuto = "auto"

// Off, as a gate's tests: or coverage:, opts the gate out of what gauntlet measures by default
// (SPEC §12 "Measured by default"): tests: off counts none of its tests (and so covers none),
// coverage: off reads no coverage.
const Off = "off"

// SessionDependent says whether the gate's result depends on the agent's session: it said so,
// or it is a todos gate, which judges the session's todo list.
func (g Gate) SessionDependent() bool { return g.Session || g.Kind == KindTodos }

// Review holds the keys of a review gate.
type Review struct {
	CLI          string
	Prompt       string
	PromptFile   string
	Model        string
	MaxDiffBytes int64
}

// Command is the gate's command as a user would type it, for display and reports.
func (g Gate) Command() string {
	if g.Run != "" {
		return g.Run
	}
	return shellJoin(g.Argv)
}

// Outcome is what happened to a gate's process, before any judgement.
type Outcome struct {
	// StartErr is set when the process could not be started at all.
	StartErr error
	// ExitCode is the process's exit code, or -1 when it did not exit normally.
	ExitCode int
	// TimedOut is set when the gate's own timeout stopped it.
	TimedOut bool
	// Cancelled is set when the gate was stopped from outside (fail-fast, interrupt) or never started.
	Cancelled bool
	// StopSignal names the signal (SIGTERM, SIGINT, SIGHUP) a cancelled gate died of when whoever
	// stopped gauntlet signalled the gate too, before gauntlet could.
	StopSignal string
	// InfraMatch is the first output line that matched one of the gate's infra_patterns.
	InfraMatch string
	// Internal is set when gauntlet itself failed while running the gate (a recovered panic): the
	// gate's own outcome is unknown.
	Internal error
	// CaptureErr is set when the gate ran to its end but gauntlet could not keep all of its output
	// (a full disk under the log): the outcome stands, and the problem is reported beside it.
	CaptureErr error
	// Judged is the verdict of a gate that judges itself (review, todos) instead of being judged
	// by its exit code.
	Judged *Judgement
	// Findings are what the gate's output reader extracted (see runner.OutputReader).
	Findings []Finding
	// Cause is set when an output reader recognised an environment failure.
	Cause *Cause
	// CauseRejected says why an environment failure recognised in the output was not believed
	// (its probe of the environment disagreed); the gate is then judged as if there were none.
	CauseRejected string
	// IgnoredFindings counts the findings a new_only gate set aside because the base produced
	// the same findings (NewOnlyBase names it); they are not in Findings.
	IgnoredFindings int
	// NewOnlyBase names what new_only compared the findings with ("the merge-base 1a2b3c4d5e6f");
	// NewOnlyNote says why findings outside the change count when they could not be set aside.
	NewOnlyBase, NewOnlyNote string
	// Lines is how many lines the gate printed, however many were kept.
	Lines int
	// LastLine is the last line the gate printed, cleaned and cut short; set for a timeout.
	LastLine string
	// Excerpt is the output around the first line that looked like an error; nil when none did.
	Excerpt *Excerpt
}

// Excerpt is a stretch of a gate's output kept because it holds the first line that looked like
// an error: the end of a long output is often noise printed after the failure.
type Excerpt struct {
	Start int      // 1-based number of the output line Lines[0] is
	Match int      // 1-based number of the line that looked like an error
	Lines []string // cleaned of escape sequences
}

// Judgement is what a self-judging gate concluded: pass, fail or error, why, and the lines it
// prints as its output (findings, open todo items).
type Judgement struct {
	Status Status
	Reason string
	Lines  []string
	// Findings are the problems the judgement is about (a review's findings on added lines).
	Findings []Finding
}

// Result is a classified gate outcome, as reports show it.
type Result struct {
	Name     string
	Kind     Kind
	Status   Status
	ExitCode int // -1 when there is none (skipped, not started, killed by a signal)
	Duration time.Duration
	TimedOut bool
	Log      string // path of the log file relative to the repository root; "" when none
	Reason   string // one line: why the gate has this status
	Tail     string // the last lines of the gate's output
	Hint     string
	Command  string
	Started  time.Time
	// Findings are the problems read from the gate's output, in the order they were printed.
	Findings []Finding
	// Cause is the environment failure recognised in the output, when there was one.
	Cause *Cause
	// Cached is set when the result was answered from the per-gate cache without running.
	Cached bool
	// Lines is how many lines the gate printed, so that what is cut can be counted from the log.
	Lines int
	// Excerpt is the output around the first line that looked like an error, when one did.
	Excerpt *Excerpt
	// Needs are the gate's needs, as configured.
	Needs []string
	// SkippedBecause names the need whose failure (or own skip) made this gate skipped.
	SkippedBecause string
	// Fix is the gate's fixer command, so that a failure can say `gauntlet fix NAME`.
	Fix string
	// Setup marks the result of a setup step; NeededBy names the gates of the run that need it.
	Setup    bool
	NeededBy []string
	// Changed are the files (root-relative) the gate changed in the worktree without saying
	// writes: true, which fails it.
	Changed []string
	// Tests is the census of a test gate's tests, when one was read; TestsUncounted says why a
	// test gate's tests could not be counted. Neither changes the gate's status.
	Tests          *TestCensus
	TestsUncounted string
	// RerunAll says the gate ran on every file ({files} with --all): the command that reruns it
	// says --all too, or it would run on the change's files only.
	RerunAll bool
	// Coverage is what a gate with coverage: covered, when it was read; CoverageUnmeasured says
	// why it was not.
	Coverage           *CoverageSummary
	CoverageUnmeasured string
	// Blame says whose a failure is (regression, pre-existing, flaky) when the engine measured it
	// against the base; empty for a gate that did not fail, or was not compared (a failure with
	// no blame is the change's). BlameDetail names the tests it rests on.
	Blame       Blame
	BlameDetail *BlameDetail
}
