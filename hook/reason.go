package hook

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/redact"
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
	results := failingResults(failed)
	total = max(total, len(results))

	sections := make([]reasonSection, len(results))
	for i, r := range results {
		sections[i] = newReasonSection(r, secrets)
	}
	header := reasonHeader(len(results), total, at)

	var b strings.Builder
	b.WriteString(header)
	b.WriteString("\n")
	left := MaxReasonBytes - b.Len()

	// Fixed parts first, in order, while they fit with room for the footer naming the rest.
	shown := 0
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
	var footer string
	if shown < len(sections) {
		rest := make([]string, 0, len(sections)-shown)
		for _, s := range sections[shown:] {
			rest = append(rest, s.name)
		}
		footer = moreGatesLine(rest, left-2)
		left -= len(footer) + 2
	}

	budgets := shareFairly(left, sections[:shown])
	for i, s := range sections[:shown] {
		b.WriteString("\n")
		b.WriteString(s.fixed)
		b.WriteString("\n")
		if tail := cutTail(s.tail, budgets[i]-1); tail != "" {
			b.WriteString(tail)
			b.WriteString("\n")
		}
	}
	if footer != "" {
		b.WriteString("\n")
		b.WriteString(footer)
		b.WriteString("\n")
	}
	// A secret could still span two parts; redacting can lengthen the text, so cap it after.
	return termtext.Cap(secrets.Redact(strings.TrimRight(b.String(), "\n")), MaxReasonBytes)
}

func failingResults(results []gates.Result) []gates.Result {
	var out []gates.Result
	for _, r := range results {
		if r.Status == gates.StatusFail {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return results
	}
	return out
}

func reasonHeader(failed, total int, at Attempt) string {
	attempt := ""
	switch {
	case at.N > 0 && at.Max > 0:
		attempt = fmt.Sprintf(" (attempt %d of %d)", at.N, at.Max)
	case at.N > 0:
		attempt = fmt.Sprintf(" (attempt %d)", at.N)
	}
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

// reasonSection is one failed gate: the lines always shown, and its output lines, which get
// whatever room is left.
type reasonSection struct {
	name  string
	fixed string
	tail  []string
}

func newReasonSection(r gates.Result, secrets *redact.Redactor) reasonSection {
	name := termtext.Cap(secrets.Line(r.Name), maxNameBytes)
	if name == "" {
		name = "(unnamed)"
	}
	lines := []string{"## " + name + ": " + termtext.Cap(secrets.Line(headline(r)), maxHeadlineBytes)}
	if hint := strings.TrimSpace(secrets.Text(r.Hint)); hint != "" {
		lines = append(lines, "hint: "+termtext.Cap(hint, maxHintBytes))
	}
	lines = append(lines, "rerun: gauntlet run "+name)
	if log := secrets.Line(r.Log); log != "" {
		lines = append(lines, "log: "+termtext.Cap(log, maxLogPathBytes))
	}

	var tail []string
	if text := strings.TrimRight(secrets.Text(r.Tail), " \t\n"); text != "" {
		tail = strings.Split(text, "\n")
	}
	return reasonSection{name: name, fixed: strings.Join(lines, "\n"), tail: tail}
}

// fixedCost is the bytes the section takes without output: its lines and the blank line and
// newline around them.
func (s reasonSection) fixedCost() int { return len(s.fixed) + 2 }

// headline says how the gate failed: the exit code when there is one, else the runner's reason
// (a timeout, a signal, a review's findings).
func headline(r gates.Result) string {
	switch {
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

// shareFairly splits room among the sections' tails by max-min fairness: short tails are shown
// whole and what they leave goes to the longer ones. Each budget includes the tail's newline.
func shareFairly(room int, sections []reasonSection) []int {
	budgets := make([]int, len(sections))
	need := make([]int, len(sections))
	order := make([]int, 0, len(sections))
	for i, s := range sections {
		if len(s.tail) == 0 {
			continue
		}
		need[i] = len(cutTail(s.tail, MaxReasonBytes)) + 1
		order = append(order, i)
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
func cutTail(lines []string, budget int) string {
	if budget <= 0 || len(lines) == 0 {
		return ""
	}
	n := len(lines)
	if n <= maxTailLines && joinedLen(lines) <= budget {
		return strings.Join(lines, "\n")
	}
	kept, size := 0, 0
	for kept < n && kept < maxTailLines {
		add := len(lines[n-1-kept])
		if kept > 0 {
			add++
		}
		total := size + add
		if cut := n - kept - 1; cut > 0 {
			total += len(cutMarker(cut, false)) + 1
		}
		if total > budget {
			break
		}
		size += add
		kept++
	}
	if kept > 0 {
		return cutMarker(n-kept, false) + "\n" + strings.Join(lines[n-kept:], "\n")
	}
	marker := cutMarker(n-1, true)
	room := budget - len(marker) - 1
	if room < minPartialLineBytes {
		return ""
	}
	return marker + "\n" + termtext.LastBytes(lines[n-1], room)
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
