// Package findings reads problems (file, line, message) out of a gate's output as it streams, with
// a parser named by the gate's `format` or detected from its command.
package findings

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/baseline"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

const (
	// MaxFindings is how many findings one gate keeps; the rest are counted. Errors displace
	// warnings once the cap is reached, so that one error after thousands of warnings is kept.
	MaxFindings = 1000
	// MaxMessageBytes keeps one finding's message readable and the report bounded.
	MaxMessageBytes = 1000
	// maxFileBytes and maxRuleBytes bound the other text fields a parser copies from a line.
	maxFileBytes = 512
	maxRuleBytes = 128
	// maxLineBytes is how much of one output line a parser looks at: a 64 KiB minified-JS line
	// holds no finding a person would read, and regexps over it would cost for nothing.
	maxLineBytes = 8 << 10
)

// Severities of a finding.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
	SeverityInfo    = "info"
)

// Options says how one gate's output is read.
type Options struct {
	// Root is the absolute project root; Dir is the gate's directory relative to it. Tools print
	// paths relative to where they run, reports want them relative to the root.
	Root, Dir string
	// Added, when set, is new_only: a finding on an added or modified line (or about a file the
	// change touches, when it has no line) is the change's; any other is only a candidate for
	// "pre-existing", which Base decides in Settle.
	Added snapshot.AddedLines
	// Base is asked, once the gate failed by its exit code with candidates, for what the base
	// produces: a candidate is set aside only when the base has the same finding and failed too.
	// nil (or an error) sets nothing aside.
	Base func(ctx context.Context) (*baseline.Set, error)
	// SameEnvironment is asked, once an environment cause stands for a gate that reported
	// failures, for what the gate reports at the base under the same environment (the cause's
	// id). Failures the base does not have are not explained by the cause, and the gate is
	// judged as if there were none. nil, or an error (a base that could not be judged, or failed
	// by another cause), leaves the cause standing.
	SameEnvironment func(ctx context.Context, cause string) (*baseline.Set, error)
	// Gate is the gate read, whose outcome Settle judges (gates.JudgedByExitCode).
	Gate gates.Gate
	// Collect, when set, receives every finding (cleaned, new_only aside) instead of the reader
	// keeping them: the findings of a base run or of a baseline are bounded by their collector.
	Collect func(gates.Finding)
	// Max caps the kept findings; 0 means MaxFindings.
	Max int
}

// maxCandidates bounds the findings outside the change a new_only reader keeps for comparing
// with the base; those past it count as the change's.
const maxCandidates = 10_000

// Reader is a runner.OutputReader that fills Outcome.Findings (and IgnoredFindings).
type Reader struct {
	opts    Options
	parser  parser
	seq     int
	errs    []ranked // kept errors
	others  []ranked // kept warnings and infos
	seen    map[string]bool
	dropped int // over the cap
	ignored int // set aside by new_only

	candidates []ranked // new_only: findings outside the change, until Settle decides
	overflow   int      // candidates past maxCandidates

	// ownState counts the findings located in gauntlet's own state directory, ownFirst is the
	// first of them (see inOwnState).
	ownState int
	ownFirst gates.Finding

	broken bool // a parser panicked; it reads no more
	// filter, when the parsers have one, tells the lines they could take from bytes alone.
	filter prefilter
	// tasks reads a workspace task runner's prefixes (turbo's "web:lint: ", nx's "> nx run");
	// folder is the folder of the package the line being parsed is of, "" for none.
	tasks  *workspaceTasks
	folder string
}

type ranked struct {
	seq int
	f   gates.Finding
}

// NewReader reads with the parsers spec names (see Parse); nil when spec reads nothing.
func NewReader(spec Spec, opts Options) *Reader {
	if len(spec.parsers) == 0 {
		return nil
	}
	if opts.Max <= 0 {
		opts.Max = MaxFindings
	}
	r := &Reader{opts: opts, seen: map[string]bool{}}
	ps := make(multi, 0, len(spec.parsers))
	for _, mk := range spec.parsers {
		ps = append(ps, mk(r.add, opts))
	}
	r.parser = ps
	if len(ps) == 1 {
		r.parser = ps[0]
	}
	r.filter, _ = r.parser.(prefilter)
	r.tasks = newWorkspaceTasks(opts.Root, opts.Dir)
	return r
}

// Line implements runner.OutputReader. It runs on the goroutine that drains the gate's pipe,
// where a panic would end gauntlet itself: a parser that panics is switched off for the rest of
// the gate, and the findings it had are kept.
//
// A line no parser can take costs a byte scan and nothing else (see prefilter), and once the
// cap holds nothing but errors no finding can get in any more: nothing is parsed past it.
func (r *Reader) Line(line []byte) {
	if r.broken || len(r.errs) >= r.opts.Max {
		return
	}
	if len(line) > maxLineBytes {
		line = line[:maxLineBytes]
	}
	if r.tasks.may(line) {
		r.taskLine(strings.TrimRight(string(line), "\r"))
		return
	}
	if r.filter != nil && !r.filter.may(line) {
		return
	}
	defer r.recoverParser()
	r.parser.line(strings.TrimRight(string(line), "\r"))
}

// taskLine parses a line that may carry a workspace task's prefix: without it, and with the
// findings it yields put under the package's folder.
func (r *Reader) taskLine(s string) {
	s, r.folder = r.tasks.strip(s)
	defer func() { r.folder = "" }()
	if r.filter != nil && !r.filter.may([]byte(s)) {
		return
	}
	defer r.recoverParser()
	r.parser.line(s)
}

// Origin implements runner.OriginReader: the lines that follow come from origin (go test's
// package of each line, read from its -json events), which the parsers that can use it read
// rather than guess it from the text's order.
func (r *Reader) Origin(origin string) {
	if o, ok := r.parser.(originParser); ok && !r.broken {
		o.origin(origin)
	}
}

// Finish implements runner.OutputReader. The candidates of new_only are not findings yet: Settle
// decides what they are.
func (r *Reader) Finish(o *gates.Outcome) {
	if !r.broken {
		func() {
			defer r.recoverParser()
			r.parser.flush()
		}()
	}
	o.Findings = r.Findings()
	o.IgnoredFindings = r.ignored
	if r.ownState > 0 && r.opts.Gate.Causes && o.Cause == nil && o.ExitCode > 0 && len(r.errs)+len(r.others)+len(r.candidates)+r.overflow+r.dropped == 0 {
		f := r.ownFirst
		o.Cause = &gates.Cause{ID: CauseOwnState, Summary: OwnStateSummary, Fix: OwnStateFix,
			Line: fmt.Sprintf("%s:%d: %s", f.File, f.Line, f.Message)}
	}
}

// CauseOwnState names the cause of a gate that failed only on what it read in gauntlet's own state
// directory: the logs and reports of earlier runs hold their output, so a tool that walks the
// project, hidden directories included (codespell --check-hidden, grep -r), finds there again
// what it reported then. Such a finding is not the project's, and is not kept; a gate with no
// other finding did not fail because of the code (unless the gate turned causes off).
const (
	CauseOwnState   = "reads-gauntlet-state"
	OwnStateSummary = "the gate read gauntlet's own state directory (" + state.Name + "/), where earlier runs' output is kept, and reported nothing else"
	OwnStateFix     = "exclude " + state.Name + " from what the tool reads (codespell: --skip=./" + state.Name + ")"
)

// inOwnState says whether a finding's file (relative to the project root) is in gauntlet's own
// state directory.
func inOwnState(file string) bool {
	return file == state.Name || strings.HasPrefix(file, state.Name+"/")
}

// Settle implements runner.Settler for new_only. A gate judged by its exit code that failed with
// findings outside the change asks for the base's findings: each candidate the base has too (same
// identity at the line it had before the change) is set aside, provided the gate failed at the
// base; every other candidate is a finding of the change. A gate judged otherwise (it passed, an
// environment cause, a timeout) keeps every candidate as a finding: nothing is claimed
// pre-existing that was not compared.
func (r *Reader) Settle(ctx context.Context, o *gates.Outcome) {
	base := r.baseFor(ctx, o)
	if r.opts.Added == nil || len(r.candidates) == 0 && r.overflow == 0 {
		return
	}
	candidates := r.candidates
	r.candidates = nil
	defer func() { r.keepCandidates(candidates, o) }()
	if !gates.JudgedByExitCode(r.opts.Gate, *o) {
		return
	}
	set, note := r.failedBase(ctx, base)
	if set == nil {
		o.NewOnlyNote = note
		return
	}
	o.NewOnlyBase = set.Source
	candidates = r.setAsidePreexisting(set, candidates)
}

// baseFor is where Settle finds the base's findings. An environment cause the gate's failures
// reject (unexplained) was checked against a base run under this environment: new_only compares
// with that same run.
func (r *Reader) baseFor(ctx context.Context, o *gates.Outcome) func(context.Context) (*baseline.Set, error) {
	base := r.opts.Base
	if o.Cause == nil || r.opts.SameEnvironment == nil {
		return base
	}
	if set := r.unexplained(ctx, o); set != nil && base != nil {
		return func(context.Context) (*baseline.Set, error) { return set.Clone(), nil }
	}
	return base
}

// keepCandidates keeps the candidates Settle did not set aside as findings, and puts the
// findings in the outcome.
func (r *Reader) keepCandidates(candidates []ranked, o *gates.Outcome) {
	for _, c := range candidates {
		r.keep(c)
	}
	r.dropped += r.overflow
	o.Findings = r.Findings()
	o.IgnoredFindings = r.ignored
}

// failedBase is the base's set of findings when the candidates may be compared with it: there
// is a base, it failed, and the candidates are all known. Otherwise nil, and the note that says
// why every candidate counts.
func (r *Reader) failedBase(ctx context.Context, base func(context.Context) (*baseline.Set, error)) (*baseline.Set, string) {
	switch {
	case base == nil:
		return nil, "findings outside the change count: there is no base to compare them with"
	case r.overflow > 0:
		return nil, fmt.Sprintf("more than %d findings outside the change: they were not compared with the base, and count", maxCandidates)
	}
	set, err := base(ctx)
	switch {
	case err != nil:
		return nil, "findings outside the change count: " + err.Error()
	case !set.Failed:
		return nil, "the gate passes at " + set.Source + ": every finding counts"
	}
	return set, ""
}

// setAsidePreexisting sets aside (counts as ignored) each candidate the base has too, and
// returns the others.
func (r *Reader) setAsidePreexisting(set *baseline.Set, candidates []ranked) []ranked {
	kept := candidates[:0]
	for _, c := range candidates {
		if set.Take(c.f) {
			r.ignored++
		} else {
			kept = append(kept, c)
		}
	}
	return kept
}

// unexplained checks the environment cause o names against the gate's failures. The base, run
// here under the same environment, either fails by the same cause, and the failures it does not
// have are not the cause's, or is judged by its exit code, and the cause came with the change:
// none of the failures is the environment's. Either way, failures the cause does not explain
// take it from the outcome (CauseRejected says why), so that the gate is judged by its exit
// code. A cause stands when there is nothing to compare: no failure, no base, or a base that
// could not be judged here. It returns the base's set when the cause was rejected.
func (r *Reader) unexplained(ctx context.Context, o *gates.Outcome) *baseline.Set {
	var failures []gates.Finding
	for _, k := range slices.Concat(r.errs, r.candidates) {
		if k.f.Severity == SeverityError {
			failures = append(failures, k.f)
		}
	}
	if len(failures) == 0 {
		return nil
	}
	set, err := r.opts.SameEnvironment(ctx, o.Cause.ID)
	if err != nil {
		return nil
	}
	total := len(failures) + r.dropped + r.overflow
	summary := strings.TrimSuffix(o.Cause.Summary, ".")
	if set.Cause != o.Cause.ID {
		how := "passes"
		if set.Failed {
			how = "fails by its exit code"
		}
		o.CauseRejected = fmt.Sprintf("the output says %s, but the gate %s at %s under the same environment: treated as the gate's own failure",
			summary, how, set.Source)
		o.Cause = nil
		return set
	}
	compare := set.Clone()
	n := 0
	for _, f := range failures {
		if !compare.Take(f) {
			n++
		}
	}
	// Failures past the caps were not compared one by one: past what the base had, they are new.
	if extra := r.dropped + r.overflow; extra > 0 && set.Complete {
		n = max(n, total-set.Len())
	}
	if n == 0 {
		return nil
	}
	o.CauseRejected = fmt.Sprintf("the output says %s, but %s did not happen at %s under the same environment: treated as the gate's own failure",
		summary, ofFailures(n, total), set.Source)
	o.Cause = nil
	return set
}

func ofFailures(n, total int) string {
	if n == total && n == 1 {
		return "the failure"
	}
	if n == total {
		return fmt.Sprintf("all %d failures", n)
	}
	return fmt.Sprintf("%d of %d failures", n, total)
}

func (r *Reader) recoverParser() {
	if p := recover(); p != nil {
		r.broken = true
	}
}

// Findings are the kept findings in the order they were printed.
func (r *Reader) Findings() []gates.Finding {
	all := slices.Concat(r.errs, r.others)
	slices.SortFunc(all, func(a, b ranked) int { return cmp.Compare(a.seq, b.seq) })
	out := make([]gates.Finding, len(all))
	for i, k := range all {
		out[i] = k.f
	}
	return out
}

// Dropped is how many findings did not fit under the cap.
func (r *Reader) Dropped() int { return r.dropped }

// add is what every parser emits into: it cleans the finding, applies new_only, removes repeats
// (several parsers may read the same line) and keeps within the cap.
func (r *Reader) add(f gates.Finding) {
	f = r.clean(f)
	if f.Message == "" && f.File == "" {
		return
	}
	if inOwnState(f.File) {
		if r.ownState == 0 {
			r.ownFirst = f
		}
		r.ownState++
		return
	}
	if r.opts.Collect != nil {
		r.opts.Collect(f)
		return
	}
	loc, key := findingKeys(f)
	if r.seen[key] || (f.Rule == "" && r.seen[loc+"\x00\x01"]) {
		return
	}
	if r.opts.Added != nil && !r.isNew(f) {
		r.markSeen(f)
		if len(r.candidates) >= maxCandidates {
			r.overflow++
			return
		}
		r.candidates = append(r.candidates, ranked{seq: r.seq, f: f})
		r.seq++
		return
	}
	r.keep(ranked{seq: r.seq, f: f})
	r.seq++
}

// findingKeys tell repeats apart: one finding per place and message (loc), but per test too
// (key): tests that share an assertion line (a table-driven helper) are each a failure to fix. A
// finding without a rule, from another parser reading the same line, repeats one with it.
func findingKeys(f gates.Finding) (loc, key string) {
	loc = f.File + "\x00" + itoa(f.Line) + "\x00" + itoa(f.Column) + "\x00" + f.Message
	return loc, loc + "\x00" + f.Rule
}

// markSeen remembers a finding, so that its repeats are not taken again.
func (r *Reader) markSeen(f gates.Finding) {
	loc, key := findingKeys(f)
	r.seen[key] = true
	if f.Rule != "" {
		r.seen[loc+"\x00\x01"] = true // some rule has it
	}
}

// keep holds a finding within the cap.
func (r *Reader) keep(k ranked) {
	f := k.f
	switch {
	case len(r.errs)+len(r.others) < r.opts.Max:
	case f.Severity == SeverityError && len(r.others) > 0:
		// The latest non-error makes room: errors are what a gate fails on.
		last := r.others[len(r.others)-1]
		_, key := findingKeys(last.f)
		delete(r.seen, key)
		r.others = r.others[:len(r.others)-1]
		r.dropped++
	default:
		r.dropped++
		return
	}
	r.markSeen(f)
	if f.Severity == SeverityError {
		r.errs = append(r.errs, k)
	} else {
		r.others = append(r.others, k)
	}
}

// isNew says whether a finding is the change's by its place alone: on a line the change added
// or modified, which has no counterpart at the base. Any other finding (on an old line, about a
// whole file, without a file, in a file outside the project) is a candidate that only the base's
// own findings can excuse.
func (r *Reader) isNew(f gates.Finding) bool {
	if f.File == "" || f.Line <= 0 {
		return false
	}
	_, ok := r.opts.Added.Locate(f.File, f.Line, r.opts.Root)
	return ok
}

func (r *Reader) clean(f gates.Finding) gates.Finding {
	f.File = termtext.Cap(strings.TrimSpace(f.File), maxFileBytes)
	if r.folder != "" && f.File != "" && !path.IsAbs(filepath.ToSlash(f.File)) {
		f.File = path.Join(r.folder, filepath.ToSlash(f.File)) // a workspace package's tool
	}
	f.File = r.rootRelative(f.File)
	f.Message = termtext.Cap(strings.TrimSpace(termtext.Clean(f.Message)), MaxMessageBytes)
	f.Rule = termtext.Cap(termtext.Line(f.Rule), maxRuleBytes)
	f.Line = max(f.Line, 0)
	f.Column = max(f.Column, 0)
	if f.Line == 0 {
		f.Column = 0
	}
	switch f.Severity {
	case SeverityError, SeverityWarning, SeverityInfo:
	default:
		f.Severity = SeverityError
	}
	return f
}

// rootRelative rewrites a path the tool printed relative to the gate's dir (or absolute) as
// relative to the project root. A path outside the root is made absolute when the root is known
// (a report resolving "../x.go" against the checkout would point at another file), and stays as
// printed otherwise.
func (r *Reader) rootRelative(file string) string {
	if file == "" {
		return ""
	}
	file = filepath.ToSlash(file)
	if path.IsAbs(file) {
		if r.opts.Root == "" {
			return path.Clean(file)
		}
		rel, err := filepath.Rel(r.opts.Root, filepath.FromSlash(file))
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			return path.Clean(file)
		}
		return filepath.ToSlash(rel)
	}
	joined := path.Join(filepath.ToSlash(r.opts.Dir), file)
	if joined == ".." || strings.HasPrefix(joined, "../") {
		if r.opts.Root == "" {
			return path.Clean(file)
		}
		return filepath.ToSlash(filepath.Join(r.opts.Root, filepath.FromSlash(joined)))
	}
	return joined
}
