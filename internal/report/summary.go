package report

import (
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/gauntlet-dev/gauntlet/internal/termtext"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// StepSummary writes the run as GitHub-flavoured Markdown for $GITHUB_STEP_SUMMARY: the verdict,
// a table of every gate, and the output of each gate a reader must look at, folded.
func StepSummary(w io.Writer, r Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### gauntlet: %s\n\n", r.Verdict)
	fmt.Fprintf(&b, "%s%s in %s (run %s)\n\n", setupTally(r.Setup), tally(r.Gates), FormatDuration(r.Duration()), markdownCell(r.RunID))
	shown := r.shown()
	if len(shown) > 0 {
		b.WriteString("| gate | status | duration | reason |\n| --- | --- | --- | --- |\n")
		for _, g := range shown {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n",
				markdownCell(g.label()), markdownCell(string(g.Status)), gateDuration(g), markdownCell(shownReason(g)))
		}
	}
	plan := planAnnotations(shown)
	for _, g := range shown {
		if !needsAttention(g.Status) {
			continue
		}
		writeSummaryFindings(&b, g, plan.omitted[g.Name])
		tail := strings.TrimRight(termtext.Clean(g.Tail), "\n")
		if strings.TrimSpace(tail) == "" {
			tail = "(no output)"
		}
		fence := codeFence(tail)
		fmt.Fprintf(&b, "\n<details><summary>%s (%s)</summary>\n\n%stext\n%s\n%s\n\n</details>\n",
			html.EscapeString(g.label()), g.Status, fence, tail, fence)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write step summary: %w", err)
	}
	return nil
}

// markdownCell keeps a value inside its table cell: one line, pipes and backslashes escaped, and
// HTML neutralised because GitHub renders it in summaries.
func markdownCell(s string) string {
	s = html.EscapeString(termtext.Line(s))
	return strings.NewReplacer(`\`, `\\`, "|", `\|`).Replace(s)
}

// codeFence returns a backtick fence longer than any backtick run in s, so s cannot close it.
func codeFence(s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

func gateDuration(g GateReport) string {
	return durationText(g.Status, g.Duration())
}

// maxSummaryFindings bounds the findings listed per gate in the step summary.
const maxSummaryFindings = 50

// writeSummaryFindings lists a gate's findings outside its folded output, so that the ones
// GitHub's annotation limit left out are still one click away.
func writeSummaryFindings(b *strings.Builder, g GateReport, notAnnotated int) {
	if len(g.Findings) == 0 {
		return
	}
	fmt.Fprintf(b, "\n**%s**: %s", html.EscapeString(g.Name), findingCounts(g.Findings))
	if notAnnotated > 0 {
		fmt.Fprintf(b, " (%d not annotated: GitHub shows %d errors and %d warnings per step)", notAnnotated, maxAnnotationsPerLevel, maxAnnotationsPerLevel)
	}
	b.WriteString("\n\n")
	shown := gates.ByImportance(g.Findings)
	if len(shown) > maxSummaryFindings {
		shown = shown[:maxSummaryFindings]
	}
	for _, f := range shown {
		b.WriteString("- " + markdownCell(FindingLine(f)) + "\n")
	}
	if more := len(g.Findings) - len(shown); more > 0 {
		fmt.Fprintf(b, "- ... %d more in the JSON report\n", more)
	}
}
