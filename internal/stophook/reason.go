package stophook

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/redact"
	"github.com/gauntlet-dev/gauntlet/internal/report"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// MaxReasonBytes bounds a block reason, in bytes (so also in characters): hosts put it in the
// agent's context, where a 100,000-line test log would crowd out the work itself.
const MaxReasonBytes = 8000

// Per-gate caps on the parts shown before any output, so that one huge hint cannot crowd out
// the other gates, and on the output lines shown even when there is room for more: the end of
// the output says what went wrong, the log has the rest.
const (
	maxNameBytes     = 100
	maxHeadlineBytes = 300
	maxHintBytes     = 600
	maxLogPathBytes  = 300
	maxTailLines     = 80
	maxCauseBytes    = 500
	maxFindings      = 50
	maxFindingBytes  = 400
	// A piece of a line shorter than this says nothing useful; the log path has to do.
	minPartialLineBytes = 40
	// Room kept for the "...and N more failed gates" line when not every gate fits.
	footerReserve = 160
)

// Attempt says which block of how many allowed this is.
type Attempt struct{ N, Max int }

// BlockReason writes the agent's next instruction after failed gates: which gates failed, what
// to do about each, and the end of their output, within MaxReasonBytes whatever the input. Only
// results with status fail are listed (all of them, if none has). total is the number of gates
// that ran. Secrets are redacted before anything is cut, so a cut cannot expose part of one.
func BlockReason(failed []gates.Result, total int, at Attempt, secrets *redact.Redactor) string {
	return blockReason(failed, total, at, secrets, MaxReasonBytes)
}

// blockReason is BlockReason within limit bytes (stop_hook.reason_limit, or the room integrity
// findings leave it): the failures the change made first, one line each, then each failed gate's
// detail, then what failed without blocking (flaky, pre-existing), then what to do next.
func blockReason(failed []gates.Result, total int, at Attempt, secrets *redact.Redactor, limit int) string {
	limit = min(limit, MaxReasonBytes)
	split := splitByBlame(failingResults(failed))
	results := split.main
	setup := setupNames(results)
	gatesFailed := len(results) - len(setup)
	total = max(total, gatesFailed)

	sections := make([]reasonSection, len(results))
	for i, r := range results {
		sections[i] = newReasonSection(r, secrets)
	}
	header := reasonHeader(gatesFailed, total, at)
	if len(setup) > 0 {
		header = setupReasonHeader(setup, gatesFailed, total, at)
	}

	var b strings.Builder
	b.WriteString(header + "\n")
	writeLines(&b, notRunLine(failed, secrets))
	if slices.ContainsFunc(failed, isFail) {
		writeLines(&b, errorLine(failed, secrets))
	}
	closing := nextLine(results, secrets)
	left := limit - b.Len() - len(closing) - 2
	parts := blameParts(split, left, secrets)
	left -= parts.cost()
	writePart(&b, parts.failing)

	shown, left := fitSections(sections, left)
	footer := ""
	if shown < len(sections) {
		footer = moreGatesLine(sectionNames(sections[shown:]), left-2)
		left -= len(footer) + 2
	}
	writeSections(&b, sections[:shown], shareFairly(left, sections[:shown]))
	if footer != "" {
		b.WriteString("\n")
		writeLines(&b, footer)
	}
	writePart(&b, parts.flaky)
	writePart(&b, parts.pre)
	b.WriteString("\n")
	b.WriteString(closing)
	// A secret could still span two parts; redacting can lengthen the text, so cap it after.
	return capReason(secrets.Redact(strings.TrimRight(b.String(), "\n")), limit)
}

// writePart writes a part of the reason after a blank line, when there is one.
func writePart(b *strings.Builder, part string) {
	if part != "" {
		b.WriteString("\n" + part + "\n")
	}
}

// setupNames are the names of the setup steps among results, as a reason shows them.
func setupNames(results []gates.Result) []string {
	var setup []string
	for _, r := range results {
		if r.Setup {
			setup = append(setup, termtext.Cap(termtext.Line(r.Name), maxNameBytes))
		}
	}
	return setup
}

// writeLines writes each line that is not empty, ended by a newline.
func writeLines(b *strings.Builder, lines ...string) {
	for _, line := range lines {
		if line != "" {
			b.WriteString(line)
			b.WriteString("\n")
		}
	}
}

// fitSections says how many sections' fixed parts fit in left, in order, each with room for the
// footer naming the rest, and the room left after them.
func fitSections(sections []reasonSection, left int) (shown, rest int) {
	for i, s := range sections {
		need := s.fixedCost()
		if i < len(sections)-1 {
			need += footerReserve
		}
		if need > left {
			break
		}
		left -= s.fixedCost()
		shown++
	}
	return shown, left
}

func sectionNames(sections []reasonSection) []string {
	names := make([]string, 0, len(sections))
	for _, s := range sections {
		names = append(names, s.name)
	}
	return names
}

// writeSections writes each section shown: its fixed part, its cause when it has no findings,
// and its body within its budget.
func writeSections(b *strings.Builder, sections []reasonSection, budgets []int) {
	for i, s := range sections {
		b.WriteString("\n" + s.fixed + "\n")
		if len(s.findings) == 0 {
			writeLines(b, s.cause)
		}
		writeLines(b, s.body(budgets[i]-1))
	}
}

// nextPrefix starts the closing line, which every cap of a reason keeps.
const nextPrefix = "Next: "

// capReason is termtext.Cap for a block reason: what has to go is cut from the middle (findings
// and output), never the first lines, which say what failed, nor the closing Next: line and the
// notes after it, which say what to do.
func capReason(reason string, limit int) string {
	if len(reason) <= limit {
		return reason
	}
	i := strings.LastIndex(reason, "\n"+nextPrefix)
	if i < 0 {
		return termtext.Cap(reason, limit)
	}
	end := reason[i:]
	if len(end) > limit/2 {
		end = termtext.Cap(end, limit/2)
	}
	return termtext.Cap(reason[:i], limit-len(end)) + end
}

func failingResults(results []gates.Result) []gates.Result {
	var out []gates.Result
	for _, r := range results {
		if r.Status == gates.StatusFail {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return slices.DeleteFunc(slices.Clone(results), skippedForNeed)
	}
	return out
}

func isFail(r gates.Result) bool { return r.Status == gates.StatusFail }

func skippedForNeed(r gates.Result) bool {
	return r.Status == gates.StatusSkipped && r.SkippedBecause != ""
}

// maxErrorLineBytes bounds the line naming the gates whose environment broke.
const maxErrorLineBytes = 1500

// errorLine names the gates that ran but could not be judged because their environment broke
// (a missing tool, an unreachable registry), each distinct cause once with the gates it hit: the
// agent is not to fix them, but must know they were not judged.
func errorLine(results []gates.Result, secrets *redact.Redactor) string {
	groups := groupByReason(only(results, gates.StatusError))
	if len(groups) == 0 {
		return ""
	}
	return termtext.Cap(secrets.Redact("Could not be judged, their environment broke (not the agent's to fix; they run again at the next stop): "+strings.Join(groups, "; ")+"."), maxErrorLineBytes)
}

// groupByReason writes "a, b (reason)" for each distinct reason, in the order the gates come.
func groupByReason(results []gates.Result) []string {
	var order []string
	byReason := map[string][]string{}
	for _, r := range results {
		reason := oneLine(r.Reason)
		if _, ok := byReason[reason]; !ok {
			order = append(order, reason)
		}
		byReason[reason] = append(byReason[reason], termtext.Line(r.Name))
	}
	out := make([]string, 0, len(order))
	for _, reason := range order {
		part := strings.Join(byReason[reason], ", ")
		if reason != "" {
			part += " (" + reason + ")"
		}
		out = append(out, part)
	}
	return out
}

// maxNextLineBytes bounds the closing line; the gates it names are cut before it grows past this.
const maxNextLineBytes = 400

// nextLine closes the reason with what to do next: fix, check with the failed gates alone, stop.
func nextLine(failed []gates.Result, secrets *redact.Redactor) string {
	var names []string
	what := "what is listed above"
	for _, r := range failed {
		if r.Status == gates.StatusFail {
			names = append(names, termtext.Line(r.Name))
			if len(r.Findings) > 0 {
				what = "the findings above"
			}
		}
	}
	check := "`gauntlet run`"
	if len(names) > 0 {
		cmd := "gauntlet run " + strings.Join(names, " ")
		if len(cmd) > maxNextLineBytes-120 {
			cmd = "gauntlet run"
		}
		check = "`" + cmd + "`"
	}
	return termtext.Cap(secrets.Redact("Next: fix "+what+", check with "+check+", then stop again."), maxNextLineBytes)
}

// newOnly reports a gate that set findings from before the change aside (new_only) and still
// has new ones: its output mixes both.
func newOnly(r gates.Result) bool {
	return len(r.Findings) > 0 && strings.Contains(r.Reason, gates.NewOnlyMark)
}

// ignoredNoteOf is the new_only note in a gate's reason: "200 pre-existing findings on lines the
// change did not touch ignored".
func ignoredNoteOf(reason string) string {
	for part := range strings.SplitSeq(reason, "; ") {
		if strings.Contains(part, gates.NewOnlyMark) {
			return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(part), gates.NewOnlyMark))
		}
	}
	return ""
}

// maxFindingOutputLines bounds the output lines shown for the new findings of a new_only gate,
// and findingContext the lines after a finding's own that belong to it (a compiler's notes).
const (
	maxFindingOutputLines = 60
	findingContext        = 3
)

// findingOutput keeps the output lines of the findings: each line naming a finding's place
// (file:line), and the indented or blank-free lines right after it up to the next place named.
func findingOutput(lines []string, fs []gates.Finding) []string {
	places := placesOf(fs)
	if len(places) == 0 {
		return nil
	}
	var out []string
	for i := 0; i < len(lines) && len(out) < maxFindingOutputLines; i++ {
		if !namesPlace(lines[i], places) {
			continue
		}
		out = append(out, lines[i])
		for j := i + 1; j < len(lines) && j <= i+findingContext && len(out) < maxFindingOutputLines; j++ {
			if !continuesFinding(lines[j], places) {
				break
			}
			out = append(out, lines[j])
			i = j
		}
	}
	return out
}

// placesOf are the findings' places as tools print them: "a.go:7".
func placesOf(fs []gates.Finding) []string {
	var places []string
	for _, f := range fs {
		if f.File != "" && f.Line > 0 {
			places = append(places, fmt.Sprintf("%s:%d", filepath.Base(f.File), f.Line))
		}
	}
	return places
}

// maxSelfEvidentLines bounds the output whose lines stand for the findings they show.
const maxSelfEvidentLines = 10

// selfEvident says whether tail is the whole output of r, short, and names each finding's place.
func selfEvident(r gates.Result, tail []string) bool {
	return r.Lines > 0 && r.Lines == len(tail) && len(tail) <= maxSelfEvidentLines && showsEveryFinding(tail, r.Findings)
}

// showsEveryFinding says whether each finding has a place (file:line) that a line of the output
// names.
func showsEveryFinding(lines []string, fs []gates.Finding) bool {
	places := placesOf(fs)
	if len(places) == 0 || len(places) != len(fs) {
		return false
	}
	for _, p := range places {
		if !slices.ContainsFunc(lines, func(l string) bool { return namesPlace(l, []string{p}) }) {
			return false
		}
	}
	return true
}

// namesPlace says whether line names one of the places.
func namesPlace(line string, places []string) bool {
	for _, p := range places {
		if i := strings.Index(line, p); i >= 0 {
			// The place ends there: "a.go:7" must not match "a.go:71".
			if end := i + len(p); end == len(line) || line[end] < '0' || line[end] > '9' {
				return true
			}
		}
	}
	return false
}

// continuesFinding says whether line belongs to the finding named above it: indented, not blank,
// naming no place of its own.
func continuesFinding(line string, places []string) bool {
	return strings.TrimSpace(line) != "" && !namesPlace(line, places) && (line[0] == ' ' || line[0] == '\t')
}

// maxNotRunBytes bounds the line naming the gates a failed need kept from running.
const maxNotRunBytes = 1000

// notRunLine names the gates that did not run because a gate they need failed, so that the
// agent knows they are still to be judged once it is fixed: "Not run: test (needs build, which
// failed)."
func notRunLine(results []gates.Result, secrets *redact.Redactor) string {
	var parts []string
	for _, r := range results {
		if skippedForNeed(r) {
			parts = append(parts, termtext.Line(r.Name)+" ("+termtext.Line(r.Reason)+")")
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return termtext.Cap(secrets.Redact("Not run until what they need passes: "+strings.Join(parts, ", ")+"."), maxNotRunBytes)
}

func reasonHeader(failed, total int, at Attempt) string {
	attempt := attemptNote(at)
	them := "them"
	if failed == 1 {
		them = "it"
	}
	noun := "gates"
	if total == 1 {
		noun = "gate"
	}
	return fmt.Sprintf("gauntlet: %d of %d %s failed%s. Fix %s, then stop again.", failed, total, noun, attempt, them)
}

func attemptNote(at Attempt) string {
	switch {
	case at.N > 0 && at.Max > 0:
		return fmt.Sprintf(" (attempt %d of %d)", at.N, at.Max)
	case at.N > 0:
		return fmt.Sprintf(" (attempt %d)", at.N)
	}
	return ""
}

// setupReasonHeader leads with the failed setup steps: the gates that need them did not run,
// and what broke is the step.
func setupReasonHeader(setup []string, gatesFailed, total int, at Attempt) string {
	noun := "setup step " + setup[0]
	if len(setup) > 1 {
		noun = "setup steps " + strings.Join(setup, ", ")
	}
	what := noun + " failed"
	if gatesFailed > 0 {
		gateNoun := "gates"
		if total == 1 {
			gateNoun = "gate"
		}
		what += fmt.Sprintf(" and %d of %d %s failed", gatesFailed, total, gateNoun)
	}
	them := "them"
	if len(setup)+gatesFailed == 1 {
		them = "it"
	}
	return fmt.Sprintf("gauntlet: %s%s. Fix %s, then stop again.", what, attemptNote(at), them)
}

// reasonSection is one failed gate: the lines always shown, then what gets whatever room is
// left: its findings, and its output around the first error and at the end.
type reasonSection struct {
	name     string
	fixed    string
	cause    string   // "environment: ... (fix: ...)", always shown when set
	findings []string // rendered, errors first, without duplicates, repeats grouped
	counts   []int    // how many findings each of findings stands for
	excerpt  []string // the output around the first line that looked like an error
	exStart  int      // line number of excerpt[0]
	tail     []string
	// tailStart is the line number of tail[0] and total the lines the gate printed, both 0 when
	// the result does not say (a result recorded before gauntlet counted lines).
	tailStart, total int
}

func newReasonSection(r gates.Result, secrets *redact.Redactor) reasonSection {
	name := termtext.Cap(termtext.Line(r.Name), maxNameBytes)
	if name == "" {
		name = "(unnamed)"
	}
	s := reasonSection{name: name, fixed: strings.Join(sectionHead(r, name, secrets), "\n")}
	r.Findings = changesFindings(r)
	s.findings, s.counts = findingLines(r.Findings, secrets)
	if r.Cause != nil {
		s.cause = termtext.Cap(secrets.Redact(termtext.Line(gates.CauseReason(*r.Cause))), maxCauseBytes)
	}

	if text := strings.TrimRight(secrets.Redact(termtext.Clean(r.Tail)), " \t\n"); text != "" {
		s.tail = strings.Split(text, "\n")
	}
	if newOnly(r) {
		// The raw output holds the errors that were there before the change, which the agent is
		// not asked to fix: show the lines of the new findings only, and say where the rest is.
		s.tail = findingOutput(s.tail, r.Findings)
		s.fixed += "\nnew_only: " + termtext.Cap(secrets.Redact(termtext.Line(ignoredNoteOf(r.Reason))), maxHeadlineBytes) +
			"; the output below is only the lines of the new findings, the log has everything"
		return s
	}
	if s.cause == "" && selfEvident(r, s.tail) {
		// A short output, whole, with every finding on a line of its own: it is the findings.
		s.findings, s.counts = nil, nil
		if listsEachFinding(r) && report.OutputIsFindings(r.Findings, r.Tail, r.Lines, maxSelfEvidentLines) {
			// Nothing but those lines (go vet's), each named in the list of failures already:
			// said there, once. An output with any other line stays whole. The excerpt of its
			// first error is one of those lines too.
			s.tail = nil
			return s
		}
	}
	if r.Lines >= len(s.tail) && r.Lines > 0 {
		s.total = r.Lines
		s.tailStart = r.Lines - len(s.tail) + 1
		s.withExcerpt(r.Excerpt, secrets)
	}
	s.excerpt = withoutPassingTests(s.excerpt)
	s.tail = withoutPassingTests(s.tail)
	return s
}

// sectionHead is the fixed head of a gate's section: its headline, the fix and hint, the files it
// rewrote, how to run it again, its log.
func sectionHead(r gates.Result, name string, secrets *redact.Redactor) []string {
	label, rerun := name, name
	if r.Setup {
		// A step is run again through the gates that need it.
		label = name + " (setup)"
		if len(r.NeededBy) > 0 {
			rerun = termtext.Cap(termtext.Line(strings.Join(r.NeededBy, " ")), maxNameBytes)
		}
	}
	lines := []string{"## " + label + ": " + termtext.Cap(secrets.Redact(termtext.Line(headline(r))), maxHeadlineBytes)}
	if gates.FixerMends(r) {
		// A command beside the advice: the gate's own fixer repairs what it found (formatting),
		// and says which files it changed. For anything else it cannot mend, it is not offered.
		lines = append(lines, "fix: run `gauntlet fix "+name+"`")
	}
	if hint := strings.TrimSpace(termtext.Clean(r.Hint)); hint != "" {
		lines = append(lines, "hint: "+termtext.Cap(secrets.Redact(hint), maxHintBytes))
	}
	if len(r.Changed) > 0 {
		lines = append(lines, "changed files: "+termtext.Cap(secrets.Redact(termtext.Line(strings.Join(r.Changed, ", "))), maxHintBytes)+
			" (the gate rewrote them: check what changed before going on; a check must not write files)")
	}
	lines = append(lines, "rerun: gauntlet run "+rerun)
	if log := termtext.Line(r.Log); log != "" {
		lines = append(lines, "log: "+termtext.Cap(secrets.Redact(log), maxLogPathBytes))
	}
	return lines
}

// withExcerpt adds the excerpt of the output's first errors when it starts before the tail, and
// drops from the tail what the excerpt already shows.
func (s *reasonSection) withExcerpt(ex *gates.Excerpt, secrets *redact.Redactor) {
	if ex == nil || ex.Start < 1 || len(ex.Lines) == 0 || ex.Start >= s.tailStart {
		return
	}
	s.exStart = ex.Start
	for _, l := range ex.Lines {
		s.excerpt = append(s.excerpt, secrets.Redact(termtext.Clean(l)))
	}
	// The tail repeats what the excerpt already shows when they overlap.
	if end := s.exStart + len(s.excerpt); end > s.tailStart {
		s.tail = s.tail[min(end-s.tailStart, len(s.tail)):]
		s.tailStart = end
	}
}

// passingTest is a test runner's line for a test that passed (pytest -v, with or without
// xdist's worker prefix): a verbose run prints one per test, and none is what failed.
var passingTest = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:\S+::\S.*\s(?:PASSED|SKIPPED|XFAIL)(?:\s.*)?|\[gw\d+\] \[\s*\d+%\] (?:PASSED|SKIPPED|XFAIL) \S+::.*)$`)
})

const passingSuffix = " of passing tests left out]"

// withoutPassingTests replaces each run of passing tests' lines with one line saying how many
// it stands for; lineSpan counts them back, so the cut markers still count the lines printed.
func withoutPassingTests(lines []string) []string {
	out := lines[:0:0]
	run := 0
	end := func() {
		if run > 0 {
			out = append(out, fmt.Sprintf("[... %s %s%s", groupDigits(run), lineWord(run), passingSuffix))
			run = 0
		}
	}
	for _, l := range lines {
		if strings.Contains(l, "::") || strings.HasPrefix(l, "[gw") {
			if passingTest().MatchString(strings.TrimRight(l, " ")) {
				run++
				continue
			}
		}
		end()
		out = append(out, l)
	}
	end()
	return out
}

// lineSpan is the number of output lines a shown line stands for: 1, or the count of a run of
// passing tests' lines left out.
func lineSpan(l string) int {
	if !strings.HasSuffix(l, passingSuffix) || !strings.HasPrefix(l, "[... ") {
		return 1
	}
	num, _, _ := strings.Cut(strings.TrimPrefix(l, "[... "), " ")
	n, err := strconv.Atoi(strings.ReplaceAll(num, ",", ""))
	if err != nil || n < 1 {
		return 1
	}
	return n
}

func spanOf(lines []string) int {
	n := 0
	for _, l := range lines {
		n += lineSpan(l)
	}
	return n
}

// fixedCost is the bytes the section takes without findings or output: its lines, the cause when
// there are no findings to put it after, and the blank line and newline around them.
func (s reasonSection) fixedCost() int {
	n := len(s.fixed) + 2
	if s.cause != "" {
		n += len(s.cause) + 1
	}
	return n
}

// need is the room the section's findings and output take when nothing is cut (the output is
// still held to maxTailLines), including the newline after them.
func (s reasonSection) need() int {
	body := s.body(MaxReasonBytes)
	if body == "" {
		return 0
	}
	return len(body) + 1
}

// body renders the findings, the cause after them, and the output within budget bytes. Findings
// come first but leave the output at least 40% of the room it needs, because the output is the
// only place a failure without findings shows at all.
func (s reasonSection) body(budget int) string {
	if budget <= 0 {
		return ""
	}
	output := s.output(MaxReasonBytes)
	findingsRoom := budget
	if output != "" {
		findingsRoom = budget - min(len(output)+1, budget*4/10)
	}
	var parts []string
	if found := s.findingsBlock(findingsRoom); found != "" {
		parts = append(parts, found)
	}
	if s.cause != "" && len(s.findings) > 0 {
		// Room for it is in fixedCost: it is shown even when no finding fits.
		parts = append(parts, s.cause)
	}
	used := 0
	for _, p := range parts {
		used += len(p) + 1
	}
	if out := s.output(budget - used); out != "" {
		parts = append(parts, out)
	}
	return strings.Join(parts, "\n")
}

// findingsBlock lists as many findings as fit in budget bytes, saying how many did not.
func (s reasonSection) findingsBlock(budget int) string {
	if len(s.findings) == 0 {
		return ""
	}
	total := 0
	for _, n := range s.counts {
		total += n
	}
	head := fmt.Sprintf("findings (%s):", groupDigits(total))
	var b strings.Builder
	b.WriteString(head)
	shown, left := 0, total
	for i, f := range s.findings {
		more := ""
		if rest := left - s.counts[i]; rest > 0 {
			more = fmt.Sprintf("\n[... %s more %s]", groupDigits(rest), findingWord(rest))
		}
		if shown == maxFindings || b.Len()+1+len(f)+len(more) > budget {
			break
		}
		b.WriteString("\n" + f)
		shown++
		left -= s.counts[i]
	}
	if shown == 0 {
		return ""
	}
	if left > 0 {
		fmt.Fprintf(&b, "\n[... %s more %s]", groupDigits(left), findingWord(left))
	}
	return b.String()
}

func findingWord(n int) string {
	if n == 1 {
		return "finding"
	}
	return "findings"
}

// output renders the gate's output within budget bytes: the lines around the first error, then
// the last lines, each cut that falls between them marked with the number of lines it hides,
// counted from everything the gate printed.
func (s reasonSection) output(budget int) string {
	if len(s.excerpt) == 0 {
		return cutTailAfter(s.tail, budget, s.hiddenBefore(s.tailStart))
	}
	if len(s.tail) == 0 {
		head, _ := cutHead(s.excerpt, budget, s.exStart-1, s.total-(s.exStart+spanOf(s.excerpt)-1), true)
		return head
	}
	// The excerpt gets half the room unless the tail needs less.
	tailNeed := len(cutTailAfter(s.tail, MaxReasonBytes, 0)) + 1
	headRoom := max(budget/2, budget-tailNeed)
	head, shown := cutHead(s.excerpt, headRoom, s.exStart-1, 0, false)
	if head == "" {
		return cutTailAfter(s.tail, budget, s.hiddenBefore(s.tailStart))
	}
	// The tail's marker counts everything between the two, excerpt lines cut included.
	gap := s.tailStart - (s.exStart + spanOf(s.excerpt[:shown]))
	tail := cutTailAfter(s.tail, budget-len(head)-1, gap)
	if tail == "" {
		return head
	}
	return head + "\n" + tail
}

func (s reasonSection) hiddenBefore(line int) int {
	if line <= 1 {
		return 0
	}
	return line - 1
}

// headline says how the gate failed: the exit code when there is one, else the runner's reason
// (a timeout, a signal, a review's findings).
func headline(r gates.Result) string {
	if r.Cause != nil {
		// The cause has a line of its own.
		cause := gates.CauseReason(*r.Cause)
		r.Reason = strings.TrimSuffix(strings.TrimSuffix(r.Reason, cause), "; ")
	}
	switch {
	case strings.Contains(r.Reason, gates.BasePassesMark):
		return r.Reason
	case r.TimedOut && strings.HasPrefix(r.Reason, "timed out"):
		return r.Reason
	case r.TimedOut:
		return "timed out"
	case r.ExitCode > 0:
		return fmt.Sprintf("exit code %d", r.ExitCode)
	case strings.TrimSpace(r.Reason) != "":
		return r.Reason
	default:
		return "failed"
	}
}

// moreGatesLine names the gates that did not fit, as many as room allows.
func moreGatesLine(names []string, room int) string {
	noun := "gates"
	if len(names) == 1 {
		noun = "gate"
	}
	line := fmt.Sprintf("...and %s more failed %s: ", groupDigits(len(names)), noun)
	const ellipsis = ", ..."
	for i, n := range names {
		sep := ", "
		if i == 0 {
			sep = ""
		}
		reserve := len(ellipsis)
		if i == len(names)-1 {
			reserve = 0
		}
		if len(line)+len(sep)+len(n)+reserve > room {
			if i == 0 {
				return termtext.Cap(strings.TrimSuffix(line, ": "), room)
			}
			return line + ellipsis
		}
		line += sep + n
	}
	return line
}

// shareFairly splits room among the sections' findings and output by max-min fairness: short
// ones are shown whole and what they leave goes to the longer ones, so a single failed gate may
// use nearly all of it. Each budget includes the newline after the section.
func shareFairly(room int, sections []reasonSection) []int {
	need := make([]int, len(sections))
	for i, s := range sections {
		need[i] = s.need()
	}
	return fairShares(room, need)
}

// fairShares splits room among needs by max-min fairness: each gets what it needs or an equal
// share of what the smaller ones left, whichever is less.
func fairShares(room int, need []int) []int {
	budgets := make([]int, len(need))
	order := make([]int, 0, len(need))
	for i, n := range need {
		if n > 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return need[a] - need[b] })
	for k, i := range order {
		if room <= 0 {
			break
		}
		share := room / (len(order) - k)
		budgets[i] = min(need[i], share)
		room -= budgets[i]
	}
	return budgets
}

// cutTail keeps the last output lines that fit in budget bytes, saying how many were cut. When
// even the last line does not fit, it keeps that line's end, where the error usually is.
func cutTail(lines []string, budget int) string { return cutTailAfter(lines, budget, 0) }

// cutTailAfter is cutTail for lines that follow hidden lines of output not shown at all, which
// its marker counts too.
func cutTailAfter(lines []string, budget, hidden int) string {
	if budget <= 0 || len(lines) == 0 {
		return ""
	}
	n := len(lines)
	hidden = max(hidden, 0)
	if n <= maxTailLines && joinedLen(lines) <= budget && hidden == 0 {
		return strings.Join(lines, "\n")
	}
	// before is the printed lines the first i shown lines stand for.
	total := spanOf(lines)
	before := func(i int) int { return total - spanOf(lines[i:]) }
	kept := tailLinesFitting(lines, budget, hidden, before)
	if kept > 0 {
		if hidden+n-kept == 0 {
			return strings.Join(lines, "\n")
		}
		return cutMarker(hidden+before(n-kept), false) + "\n" + strings.Join(lines[n-kept:], "\n")
	}
	marker := cutMarker(hidden+before(n-1), true)
	room := budget - len(marker) - 1
	if room < minPartialLineBytes {
		return ""
	}
	return marker + "\n" + termtext.LastBytes(lines[n-1], room)
}

// tailLinesFitting is how many of the last lines (at most maxTailLines) fit in budget with the
// marker saying how many were cut before them.
func tailLinesFitting(lines []string, budget, hidden int, before func(int) int) int {
	n := len(lines)
	kept, size := 0, 0
	for kept < n && kept < maxTailLines {
		add := len(lines[n-1-kept])
		if kept > 0 {
			add++
		}
		need := size + add
		if cut := hidden + before(n-kept-1); cut > 0 {
			need += len(cutMarker(cut, false)) + 1
		}
		if need > budget {
			break
		}
		size += add
		kept++
	}
	return kept
}

// cutHead keeps the first lines that fit in budget bytes, after a marker counting the before
// lines not shown and, when mark is set, with a marker counting the cut ones and the after lines
// not shown. The lines are an excerpt whose point is its start; "" when not even its first line
// fits. It also returns how many of the lines it kept.
func cutHead(lines []string, budget, before, after int, mark bool) (string, int) {
	var lead string
	if before > 0 {
		lead = cutMarker(before, false) + "\n"
	}
	laterLines := func(kept int) int {
		if !mark {
			return 0
		}
		return spanOf(lines[kept:]) + max(after, 0)
	}
	size, kept := len(lead), 0
	for kept < len(lines) {
		add := len(lines[kept])
		if kept > 0 {
			add++
		}
		if size+add+laterMarkerCost(laterLines(kept+1)) > budget {
			break
		}
		size += add
		kept++
	}
	if kept == 0 {
		return "", 0
	}
	out := lead + strings.Join(lines[:kept], "\n")
	if rest := laterLines(kept); rest > 0 {
		out += "\n" + laterMarker(rest)
	}
	return out, kept
}

// laterMarkerCost is the room the marker of rest later lines takes, its newline included; none
// when there are none.
func laterMarkerCost(rest int) int {
	if rest <= 0 {
		return 0
	}
	return len(laterMarker(rest)) + 1
}

func laterMarker(lines int) string {
	return fmt.Sprintf("[... %s more %s cut; see the log]", groupDigits(lines), lineWord(lines))
}

func joinedLen(lines []string) int {
	n := len(lines) - 1
	for _, l := range lines {
		n += len(l)
	}
	return n
}

func cutMarker(lines int, partial bool) string {
	switch {
	case partial && lines == 0:
		return "[... start of this line cut; see the log]"
	case partial:
		return fmt.Sprintf("[... %s earlier %s and the start of this line cut; see the log]", groupDigits(lines), lineWord(lines))
	default:
		return fmt.Sprintf("[... %s earlier %s cut; see the log]", groupDigits(lines), lineWord(lines))
	}
}

func lineWord(n int) string {
	if n == 1 {
		return "line"
	}
	return "lines"
}

// groupDigits writes 9950 as "9,950".
func groupDigits(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return s
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// maxGroupPlaces is how many more places a line of repeated findings names after its first.
const maxGroupPlaces = 3

// findingLines renders findings one per line, errors before warnings before the rest, each shown
// once, in the order they were printed otherwise. Findings of one severity, rule and message
// (numbers aside) at several places are one line, with their count and the first places: 97
// copies of a lint message say no more than one does. counts holds how many findings each line
// stands for.
func findingLines(fs []gates.Finding, secrets *redact.Redactor) (lines []string, counts []int) {
	sorted := gates.ByImportance(fs)
	seen := make(map[string]bool, len(sorted))
	type group struct {
		first  gates.Finding
		places []string
		n      int
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, f := range sorted {
		line := findingLine(f)
		if seen[line] {
			continue
		}
		seen[line] = true
		key := f.Severity + "\x00" + f.Rule + "\x00" + strings.Map(digitsAlike, termtext.Line(f.Message))
		if g := byKey[key]; g != nil {
			g.n++
			if len(g.places) < maxGroupPlaces {
				g.places = append(g.places, place(f))
			}
			continue
		}
		g := &group{first: f, n: 1}
		byKey[key] = g
		groups = append(groups, g)
	}
	for _, g := range groups {
		line := capAtWord(secrets.Redact(findingLine(g.first)), maxFindingBytes)
		if g.n > 1 {
			also := strings.Join(g.places, ", ")
			if rest := g.n - 1 - len(g.places); rest > 0 {
				also += fmt.Sprintf(" and %s more", groupDigits(rest))
			}
			line += termtext.Cap(secrets.Redact(fmt.Sprintf(" (%s times; also %s)", groupDigits(g.n), also)), maxFindingBytes)
		}
		lines = append(lines, line)
		counts = append(counts, g.n)
	}
	return lines, counts
}

func digitsAlike(r rune) rune {
	if r >= '0' && r <= '9' {
		return '0'
	}
	return r
}

// place is where a finding is: "file:line:col", as much as the tool said.
func place(f gates.Finding) string {
	p := termtext.Cap(termtext.Line(f.File), maxLogPathBytes)
	if p == "" {
		return "(no file)"
	}
	if f.Line > 0 {
		p += ":" + strconv.Itoa(f.Line)
		if f.Column > 0 {
			p += ":" + strconv.Itoa(f.Column)
		}
	}
	return p
}

// capAtWord is termtext.Cap cut at the last space within n bytes, unless that would lose more
// than a fifth of the room (one very long word): a word cut in two reads as another word.
func capAtWord(s string, n int) string {
	const ellipsis = "…"
	if len(s) <= n || n <= len(ellipsis) {
		return termtext.Cap(s, n)
	}
	cut := termtext.FirstBytes(s, n-len(ellipsis))
	if s[len(cut)] != ' ' {
		if i := strings.LastIndexByte(cut, ' '); i >= len(cut)*4/5 {
			cut = cut[:i]
		}
	}
	return strings.TrimRight(cut, " ") + ellipsis
}

// findingLine is "file:line:col: severity: message [rule]", leaving out what the tool did not say.
func findingLine(f gates.Finding) string {
	var b strings.Builder
	b.WriteString("- ")
	if file := termtext.Line(f.File); file != "" {
		b.WriteString(file)
		if f.Line > 0 {
			fmt.Fprintf(&b, ":%d", f.Line)
			if f.Column > 0 {
				fmt.Fprintf(&b, ":%d", f.Column)
			}
		}
		b.WriteString(": ")
	}
	if sev := termtext.Line(f.Severity); sev != "" {
		b.WriteString(sev + ": ")
	}
	b.WriteString(termtext.Line(f.Message))
	if rule := termtext.Line(f.Rule); rule != "" {
		b.WriteString(" [" + rule + "]")
	}
	return b.String()
}
