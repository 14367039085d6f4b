package report

import (
	"fmt"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// GitHub shows at most this many annotations of each level per step; more are dropped silently.
const maxAnnotationsPerLevel = 10

// annotation is one workflow command: ::level file=...,line=...,title=...::message.
type annotation struct {
	level   string // error, warning or notice
	finding *gates.Finding
	gate    GateReport
}

// annotationPlan chooses what to annotate within GitHub's limits. A gate needing attention
// without findings gets its one gate-level annotation first (it has nothing else to show); then
// findings are dealt round-robin across gates, errors before warnings within each, so that every
// failing gate is seen before any gate gets a second annotation. The rest are counted.
type annotationPlan struct {
	chosen  []annotation
	omitted map[string]int // gate -> findings not annotated
}

func planAnnotations(gs []GateReport) annotationPlan {
	plan := annotationPlan{omitted: map[string]int{}}
	used := map[string]int{}
	var queues [][]annotation
	for _, g := range gs {
		if !needsAttention(g.Status) {
			continue // a passing gate's findings are in the reports, not on the pull request
		}
		if len(g.Findings) == 0 {
			a := annotation{level: gateLevel(g.Status), gate: g}
			used[a.level]++
			plan.chosen = append(plan.chosen, a)
			continue
		}
		var q []annotation
		for _, f := range gates.ByImportance(g.Findings) {
			q = append(q, annotation{level: findingLevel(g.Status, f.Severity), finding: &f, gate: g})
		}
		queues = append(queues, q)
	}
	for round := 0; ; round++ {
		any := false
		for _, q := range queues {
			if round >= len(q) {
				continue
			}
			any = true
			a := q[round]
			if used[a.level] >= maxAnnotationsPerLevel {
				plan.omitted[a.gate.Name]++
				continue
			}
			used[a.level]++
			plan.chosen = append(plan.chosen, a)
		}
		if !any {
			return plan
		}
	}
}

func gateLevel(s gates.Status) string {
	if s == gates.StatusWarn {
		return "warning"
	}
	return "error"
}

// findingLevel: an error finding of a gate that only warns is a warning, like the gate; infos
// are notices.
func findingLevel(s gates.Status, severity string) string {
	switch {
	case severity == "error" && (s == gates.StatusFail || s == gates.StatusError):
		return "error"
	case severity == "error" || severity == "warning":
		return "warning"
	default:
		return "notice"
	}
}

func (a annotation) write(b *strings.Builder) {
	if a.finding == nil {
		message := termtext.Line(a.gate.Reason)
		if hint := termtext.Line(a.gate.Hint); hint != "" {
			message += "\nhint: " + hint
		}
		fmt.Fprintf(b, "::%s title=%s::%s\n", a.level, escapeProperty("gauntlet: "+a.gate.label()), escapeData(message))
		return
	}
	f := a.finding
	var props []string
	if f.File != "" {
		props = append(props, "file="+escapeProperty(termtext.Line(f.File)))
		if f.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", f.Line))
			if f.Column > 0 {
				props = append(props, fmt.Sprintf("col=%d", f.Column))
			}
		}
	}
	title := "gauntlet: " + a.gate.label()
	if f.Rule != "" {
		title += " (" + termtext.Line(f.Rule) + ")"
	}
	props = append(props, "title="+escapeProperty(title))
	fmt.Fprintf(b, "::%s %s::%s\n", a.level, strings.Join(props, ","), escapeData(termtext.Clean(f.Message)))
}
