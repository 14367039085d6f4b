package stophook

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/redact"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// The reason leads with what the change broke (SPEC §12): every failing test named, one line
// each, before any gate's detail; then, briefly, what failed but does not block: the flaky tests
// and what the base fails too. The blame is the engine's (gates.Result.Blame); this file only
// reads it.

// Headings of the reason's parts.
const (
	failingHeading     = "Failing:"
	regressionsHeading = "Broken by this change:"
	flakyHeading       = "Flaky (failed, then passed when run again alone; not blocking):"
	preExistingHeading = "Failing before this change (not blocking):"
)

// Caps of the list's lines: an entry names a test and the first line of its failure, no more.
const (
	maxEntryBytes = 300
	// A short part (flaky, pre-existing) takes at most this share of the room, in sixths.
	shortPartSixths = 1
	maxShortPart    = 800
	// The list of failing tests takes at most this share of the room, in thirds: the detail of
	// the first failure must still show.
	listThirds = 2
)

// blamed is a reason's results by blame: main are the failures it is about (the regressions; or,
// when every failure is pre-existing and still blocks, those), flaky and pre the ones it only
// names. measured says whether the engine compared any failure with the base.
type blamed struct {
	main, flaky, pre []gates.Result
	measured         bool
}

func splitByBlame(results []gates.Result) blamed {
	var b blamed
	for _, r := range results {
		b.measured = b.measured || r.Blame != ""
		switch {
		case r.Status != gates.StatusFail:
			b.main = append(b.main, r)
		case r.Blame == gates.BlameFlaky:
			b.flaky = append(b.flaky, r)
		case r.Blame == gates.BlamePreExisting:
			b.pre = append(b.pre, r)
		default:
			b.main = append(b.main, r)
		}
	}
	if !slices.ContainsFunc(b.main, isFail) {
		// Only what does not block the change failed, yet the stop is blocked: the config makes
		// pre-existing failures block (or nothing was measured). They are the reason's subject.
		b.main = append(b.main, b.pre...)
		b.pre = nil
		if !slices.ContainsFunc(b.main, isFail) {
			b.main = append(b.main, b.flaky...)
			b.flaky = nil
		}
	}
	return b
}

// testName is the name of a census test ID ("suite::name"), as findings name it in Rule.
func testName(id string) string {
	if i := strings.LastIndex(id, "::"); i >= 0 {
		return id[i+2:]
	}
	return id
}

// excusedTests are the names of a gate's tests that fail but are not the change's: the base
// fails them too, or they passed when run again.
func excusedTests(r gates.Result) map[string]bool {
	if r.BlameDetail == nil {
		return nil
	}
	out := map[string]bool{}
	for _, id := range slices.Concat(r.BlameDetail.PreExisting, r.BlameDetail.Flaky) {
		out[id], out[testName(id)] = true, true
	}
	return out
}

// changesFindings are the findings of a regression gate that are the change's: not the base's,
// not a pre-existing or flaky test's. A gate that blocks for what the base fails keeps them all.
func changesFindings(r gates.Result) []gates.Finding {
	if r.Blame == gates.BlamePreExisting || r.Blame == gates.BlameFlaky {
		return r.Findings
	}
	excused := excusedTests(r)
	return slices.DeleteFunc(slices.Clone(r.Findings), func(f gates.Finding) bool {
		return f.PreExisting || f.Rule != "" && excused[f.Rule]
	})
}

// failEntry is one line of the list of failures: a test (all its findings), a group of one
// rule's findings, or a gate that names neither.
type failEntry struct {
	key   string
	first gates.Finding
	n     int
}

// failEntries groups a gate's findings by test (their Rule) or, without one, by message, in
// the order of importance; then the failing tests the census names that no finding does.
func failEntries(r gates.Result) []failEntry {
	var entries []*failEntry
	byKey := map[string]*failEntry{}
	for _, f := range gates.ByImportance(changesFindings(r)) {
		key := termtext.Line(f.Rule)
		if key == "" {
			key = "\x00" + f.Severity + "\x00" + strings.Map(digitsAlike, termtext.Line(f.Message))
		}
		if e := byKey[key]; e != nil {
			e.n++
			continue
		}
		e := &failEntry{key: key, first: f, n: 1}
		byKey[key] = e
		entries = append(entries, e)
	}
	for _, id := range failingTestIDs(r) {
		if name := testName(id); byKey[name] == nil && byKey[id] == nil {
			e := &failEntry{key: name}
			byKey[name] = e
			entries = append(entries, e)
		}
	}
	out := make([]failEntry, len(entries))
	for i, e := range entries {
		out[i] = *e
	}
	return out
}

// failingTestIDs are the tests of r that fail and are the change's, as the blame or, without
// one, the census names them.
func failingTestIDs(r gates.Result) []string {
	if r.BlameDetail != nil {
		if r.Blame == gates.BlamePreExisting {
			return r.BlameDetail.PreExisting
		}
		return r.BlameDetail.Regressions
	}
	if r.Tests != nil {
		return r.Tests.FailedTests
	}
	return nil
}

// render writes the entry: "TestX (12 findings) calc_test.go:17: want 5, got 4".
func (e failEntry) render() string {
	var b strings.Builder
	if !strings.HasPrefix(e.key, "\x00") {
		b.WriteString(e.key)
	}
	if e.n > 1 {
		fmt.Fprintf(&b, " (%s findings)", groupDigits(e.n))
	}
	if e.n == 0 {
		return b.String()
	}
	if p := place(e.first); p != "(no file)" {
		b.WriteString(" " + p + ":")
	}
	first, _, _ := strings.Cut(e.first.Message, "\n")
	b.WriteString(" " + termtext.Line(first))
	return strings.TrimSpace(b.String())
}

// maxRuleEntries bounds the entries of a gate that names no failing test (a linter's rules): its
// section lists its findings, the list has to name the other gates' too.
const maxRuleEntries = 8

// gateLines are a gate's lines in the list of failures, and its log, where the rest is.
type gateLines struct {
	lines []string
	log   string
}

// failingLines are the list's lines for the main failures, gate by gate: one per failing test or
// group of findings, "- gate: entry", or "- gate: headline" for a gate that names none.
func failingLines(main []gates.Result, secrets *redact.Redactor) (groups []gateLines, named bool) {
	for _, r := range main {
		entries := failEntries(r)
		named = named || len(entries) > 0
		groups = append(groups, gateLines{lines: entryLines(r, entries, secrets), log: r.Log})
	}
	return groups, named
}

// entryLines writes a gate's entries, at most maxRuleEntries of a gate that names no test.
func entryLines(r gates.Result, entries []failEntry, secrets *redact.Redactor) []string {
	name := termtext.Cap(termtext.Line(r.Name), maxNameBytes)
	if len(entries) == 0 {
		return []string{capAtWord(secrets.Redact("- "+name+": "+termtext.Line(headline(r))), maxEntryBytes)}
	}
	rest := 0
	if len(entries) > maxRuleEntries && len(failingTestIDs(r)) == 0 && r.Tests == nil {
		entries, rest = entries[:maxRuleEntries], len(entries)-maxRuleEntries
	}
	lines := make([]string, 0, len(entries)+1)
	for _, e := range entries {
		lines = append(lines, capAtWord(secrets.Redact("- "+name+": "+e.render()), maxEntryBytes))
	}
	if rest > 0 {
		lines = append(lines, moreLine(rest, r.Log))
	}
	return lines
}

// listsEachFinding says whether the list of failures names each of the findings of r (a
// failed gate) on an entry of its own, with its place and message: none grouped with another,
// none left out for the entries' cap.
func listsEachFinding(r gates.Result) bool {
	if r.Status != gates.StatusFail {
		return false
	}
	entries := failEntries(r)
	return len(entries) <= maxRuleEntries && !slices.ContainsFunc(entries, func(e failEntry) bool { return e.n > 1 })
}

// failingBlock writes the heading and each gate's lines within room bytes, shared fairly so that
// one gate's hundred tests cannot keep another gate's failure from being named.
func failingBlock(heading string, groups []gateLines, room int) string {
	need := make([]int, len(groups))
	for i, g := range groups {
		need[i] = joinedLen(g.lines) + 1
	}
	shares := fairShares(room-len(heading), need)
	parts := []string{heading}
	for i, g := range groups {
		if part := fitLines(g.lines, shares[i], g.log); part != "" {
			parts = append(parts, part)
		}
	}
	if len(parts) == 1 {
		return ""
	}
	return strings.Join(parts, "\n")
}

// flakyLines name each flaky test (or gate, when it names none) on a line of its gate.
func flakyLines(b blamed, secrets *redact.Redactor) []string {
	var lines []string
	for _, r := range slices.Concat(b.flaky, b.main) {
		var tests []string
		if r.BlameDetail != nil {
			tests = r.BlameDetail.Flaky
		}
		if len(tests) == 0 && r.Blame != gates.BlameFlaky {
			continue
		}
		lines = append(lines, shortLine(r, testNames(tests), secrets))
	}
	return lines
}

// preExistingLines say, for each gate that fails as the base does (or has tests or findings the
// base fails too), which tests and how many findings; never the findings themselves.
func preExistingLines(b blamed, secrets *redact.Redactor) []string {
	var lines []string
	for _, r := range slices.Concat(b.pre, b.main) {
		if r.Status != gates.StatusFail {
			continue
		}
		var parts []string
		found := 0
		for _, f := range r.Findings {
			if f.PreExisting {
				found++
			}
		}
		if d := r.BlameDetail; d != nil {
			parts = append(parts, testNames(d.PreExisting)...)
			found = max(found, d.PreExistingFindings)
		}
		if found > 0 {
			parts = append(parts, termtext.Count(found, "finding"))
		}
		if len(parts) == 0 && r.Blame != gates.BlamePreExisting {
			continue
		}
		line := shortLine(r, parts, secrets)
		if r.Blame == gates.BlamePreExisting && r.BlameDetail != nil && r.BlameDetail.Why != "" {
			line += " (" + termtext.Line(r.BlameDetail.Why) + ")"
		}
		lines = append(lines, capAtWord(secrets.Redact(line), maxEntryBytes))
	}
	return lines
}

// shortLine is "- gate: a, b, c" (or "- gate: headline" when parts is empty), with its log.
func shortLine(r gates.Result, parts []string, secrets *redact.Redactor) string {
	what := strings.Join(parts, ", ")
	if what == "" {
		what = headline(r)
	}
	line := "- " + termtext.Cap(termtext.Line(r.Name), maxNameBytes) + ": " + termtext.Line(what)
	if log := termtext.Line(r.Log); log != "" {
		line = termtext.Cap(line, maxEntryBytes-len(log)-8) + " (log: " + log + ")"
	}
	return capAtWord(secrets.Redact(line), maxEntryBytes)
}

func testNames(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = termtext.Line(testName(id))
	}
	return out
}

// listBlock writes heading and as many of lines as fit in room bytes (its newlines included);
// "" when not even the heading and one line fit.
func listBlock(heading string, lines []string, room int, log string) string {
	part := fitLines(lines, room-len(heading)-1, log)
	if part == "" {
		return ""
	}
	return heading + "\n" + part
}

// fitLines keeps as many of lines as fit in room bytes (a newline after each), the rest counted
// behind the log's path: "… 12 more, see .gauntlet/logs/…/test.log".
func fitLines(lines []string, room int, log string) string {
	if joinedLen(lines) <= room-1 {
		return strings.Join(lines, "\n")
	}
	var b strings.Builder
	for i, l := range lines {
		more := ""
		if rest := len(lines) - i - 1; rest > 0 {
			more = moreLine(rest, log) + "\n"
		}
		if b.Len()+len(l)+1+len(more) > room {
			if m := moreLine(len(lines)-i, log); i > 0 || len(m)+1 <= room {
				b.WriteString(m + "\n")
			}
			break
		}
		b.WriteString(l + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func moreLine(n int, log string) string {
	line := "… " + groupDigits(n) + " more"
	if log = termtext.Cap(termtext.Line(log), maxLogPathBytes); log != "" {
		line += ", see " + log
	}
	return line
}

// firstLog is the log of the first main failure that has one: where the list's rest is.
func firstLog(results []gates.Result) string {
	for _, r := range results {
		if r.Status == gates.StatusFail && r.Log != "" {
			return r.Log
		}
	}
	return ""
}

// reasonParts are the lists a reason writes around its gates' sections, each within its room.
type reasonParts struct {
	failing, flaky, pre string
}

// cost is the room the parts take, a blank line before each included.
func (p reasonParts) cost() int {
	n := 0
	for _, s := range []string{p.failing, p.flaky, p.pre} {
		if s != "" {
			n += len(s) + 2
		}
	}
	return n
}

// blameParts writes the list of failures (when it says more than the sections' headings would:
// a test or finding named, or several gates) and the short parts, within room.
func blameParts(b blamed, room int, secrets *redact.Redactor) reasonParts {
	var p reasonParts
	short := min(maxShortPart, room*shortPartSixths/6)
	if len(b.flaky) > 0 || slices.ContainsFunc(b.main, hasFlakyTests) {
		p.flaky = listBlock(flakyHeading, flakyLines(b, secrets), short, firstLog(b.flaky))
	}
	if pre := preExistingLines(b, secrets); len(pre) > 0 && len(b.pre)+len(b.main) > 0 && !allPreExisting(b) {
		p.pre = listBlock(preExistingHeading, pre, short, firstLog(b.pre))
	}
	groups, named := failingLines(only(b.main, gates.StatusFail), secrets)
	if named || len(groups) > 1 {
		heading := failingHeading
		if b.measured {
			heading = regressionsHeading
		}
		p.failing = failingBlock(heading, groups, (room-p.cost())*listThirds/3)
	}
	return p
}

func hasFlakyTests(r gates.Result) bool { return r.BlameDetail != nil && len(r.BlameDetail.Flaky) > 0 }

// allPreExisting says whether the main failures are themselves pre-existing (they block by the
// config): then nothing is "not blocking".
func allPreExisting(b blamed) bool {
	for _, r := range b.main {
		if r.Status == gates.StatusFail && r.Blame != gates.BlamePreExisting {
			return false
		}
	}
	return true
}
