package stophook

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/redact"
	"github.com/gauntlet-dev/gauntlet/internal/report"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// IntegrityReason is the part of a block reason about the change weakening the gates: a heading
// that says so and what to do, then one line per finding, within limit bytes. It comes first in
// the reason: a gate made green by weakening it is the one thing the agent must not miss.
func IntegrityReason(fs []gates.IntegrityFinding, at Attempt, limit int, secrets *redact.Redactor) string {
	attempt := ""
	switch {
	case at.N > 0 && at.Max > 0:
		attempt = fmt.Sprintf(" (attempt %d of %d)", at.N, at.Max)
	case at.N > 0:
		attempt = fmt.Sprintf(" (attempt %d)", at.N)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "gauntlet: %s%s. Restore what it weakened and fix the code instead; if the user asked for this change, keep it and say so plainly in your final message.\n",
		report.IntegrityHeading, attempt)
	lines := make([]string, 0, len(fs))
	for _, f := range fs {
		if f.Level != gates.IntegrityBlock {
			continue
		}
		lines = append(lines, fmt.Sprintf("- %s  [%s] %s", report.IntegrityPlace(f), f.Rule, termtext.Short(termtext.Line(f.Message), maxFindingBytes)))
	}
	for i, l := range lines {
		more := fmt.Sprintf("- ...and %d more (gauntlet explain)", len(lines)-i)
		if b.Len()+len(l)+1+len(more) > limit {
			b.WriteString(more)
			break
		}
		b.WriteString(l)
		b.WriteString("\n")
	}
	return termtext.Cap(secrets.Redact(strings.TrimRight(b.String(), "\n")), limit)
}

// integrityNotice names integrity findings in a one-line message: "the change weakens the gates
// (2 integrity findings: test-skipped, suppression-added)".
func integrityNotice(fs []gates.IntegrityFinding) string {
	if gates.OnlyUncovered(fs) {
		return fmt.Sprintf("lines the change wrote are run by no test (%s: change-uncovered, gauntlet explain)", termtext.Count(len(fs), "finding"))
	}
	return fmt.Sprintf("the change weakens the gates (%s: %s)", termtext.Count(len(fs), "integrity finding"), integrityRules(fs))
}

// integrityRules lists the rule ids of the findings, each once.
func integrityRules(fs []gates.IntegrityFinding) string {
	var rules []string
	for _, f := range fs {
		if !slices.Contains(rules, f.Rule) {
			rules = append(rules, f.Rule)
		}
	}
	return strings.Join(rules, ", ")
}
