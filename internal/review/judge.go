package review

import (
	"fmt"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// maxMessageBytes keeps one finding on one readable line.
const maxMessageBytes = 1000

// judgeVerdict keeps the findings on lines the change adds and decides the gate: it fails when
// the reviewer failed the change and a finding remains. A failing verdict whose findings were
// all outside the diff passes: the change is not to blame for code it did not add.
func judgeVerdict(v *Verdict, added snapshot.AddedLines, root string) Judgement {
	var kept, dropped []Finding
	for _, f := range v.Findings {
		if file, ok := onAddedLine(f, added, root); ok {
			f.File = file
			kept = append(kept, f)
		} else {
			dropped = append(dropped, f)
		}
	}
	// Dropped findings are only counted: listing them would put code the change did not touch
	// in front of the agent as if it had to be fixed.
	var lines []string
	var found []gates.Finding
	for _, f := range kept {
		lines = append(lines, formatFinding(f))
		found = append(found, asFinding(f))
	}

	droppedNote := ""
	if len(dropped) > 0 {
		droppedNote = fmt.Sprintf(" (%d outside the diff dropped)", len(dropped))
	}
	switch {
	case v.Status == "fail" && len(kept) > 0:
		return Judgement{Status: gates.StatusFail, Reason: termtext.Count(len(kept), "finding") + droppedNote, Lines: lines, Findings: found}
	case v.Status == "fail" && len(dropped) > 0:
		reason := fmt.Sprintf("passed: the reviewer failed the change, but its findings (%d) were all outside the diff and dropped",
			len(dropped))
		return Judgement{Status: gates.StatusPass, Reason: reason, Lines: append(lines, reason)}
	case v.Status == "fail":
		reason := "the reviewer failed the change without naming a finding"
		return Judgement{Status: gates.StatusFail, Reason: reason, Lines: append(lines, reason)}
	case len(kept) > 0:
		reason := "passed with " + termtext.Count(len(kept), "finding") + " noted" + droppedNote
		return Judgement{Status: gates.StatusPass, Reason: reason, Lines: append(lines, reason), Findings: found}
	default:
		reason := "passed: no findings" + droppedNote
		return Judgement{Status: gates.StatusPass, Reason: reason, Lines: append(lines, reason)}
	}
}

// onAddedLine finds the finding's file among the added lines (see snapshot.AddedLines.Locate).
func onAddedLine(f Finding, added snapshot.AddedLines, root string) (string, bool) {
	return added.Locate(f.File, int(f.Line), root)
}

// formatFinding writes a finding as compilers write errors: "file:line: severity: message".
func formatFinding(f Finding) string {
	var b strings.Builder
	b.WriteString(termtext.Short(f.File, 300))
	if b.Len() == 0 {
		b.WriteString("(no file)")
	}
	if f.Line > 0 {
		fmt.Fprintf(&b, ":%d", f.Line)
	}
	b.WriteString(": ")
	if sev := termtext.Short(f.Severity, 20); sev != "" {
		b.WriteString(strings.ToLower(sev) + ": ")
	}
	msg := termtext.Short(f.Message, maxMessageBytes)
	if msg == "" {
		msg = "(no message)"
	}
	b.WriteString(msg)
	return b.String()
}

// asFinding puts a reviewer's finding into the shape every report shows. Reviewers name
// severities freely ("high", "nit"); they are folded into error, warning and info.
func asFinding(f Finding) gates.Finding {
	return gates.Finding{
		File:     f.File,
		Line:     int(f.Line),
		Severity: reviewSeverity(f.Severity),
		Message:  termtext.Short(f.Message, maxMessageBytes),
		Rule:     "review",
	}
}

func reviewSeverity(s string) string {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "warning", "warn", "medium", "moderate", "minor":
		return "warning"
	case "info", "note", "low", "nit", "suggestion", "style":
		return "info"
	default:
		return "error"
	}
}
