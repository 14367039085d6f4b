package report

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// maxTextFindings is how many findings a gate's block in the text summary lists; the rest are
// counted, and `gauntlet explain` lists them all.
const maxTextFindings = 10

// FindingLine writes a finding the way compilers do, on one line: "file:line:col: severity:
// message [rule]". Only the message's first line is shown; the rest is in the JSON report.
func FindingLine(f gates.Finding) string {
	var b strings.Builder
	if f.File != "" {
		b.WriteString(termtext.Line(f.File))
		if f.Line > 0 {
			fmt.Fprintf(&b, ":%d", f.Line)
			if f.Column > 0 {
				fmt.Fprintf(&b, ":%d", f.Column)
			}
		}
		b.WriteString(": ")
	}
	b.WriteString(f.Severity + ": ")
	first, rest, _ := strings.Cut(f.Message, "\n")
	b.WriteString(termtext.Line(first))
	if strings.TrimSpace(rest) != "" {
		b.WriteString(" …")
	}
	if f.Rule != "" {
		b.WriteString(" [" + termtext.Line(f.Rule) + "]")
	}
	return b.String()
}

// findingCounts phrases how many findings of each severity: "2 errors, 1 warning".
func findingCounts(fs []gates.Finding) string {
	counts := map[string]int{}
	for _, f := range fs {
		counts[f.Severity]++
	}
	var parts []string
	for _, s := range []struct{ sev, one, many string }{
		{"error", "error", "errors"}, {"warning", "warning", "warnings"}, {"info", "info", "infos"},
	} {
		switch n := counts[s.sev]; n {
		case 0:
		case 1:
			parts = append(parts, "1 "+s.one)
		default:
			parts = append(parts, fmt.Sprintf("%d %s", n, s.many))
		}
	}
	return strings.Join(parts, ", ")
}

func writeFindings(b *strings.Builder, g GateReport) {
	if len(g.Findings) == 0 {
		return
	}
	fmt.Fprintf(b, "findings (%s):\n", findingCounts(g.Findings))
	shown := gates.ByImportance(g.Findings)
	if len(shown) > maxTextFindings {
		shown = shown[:maxTextFindings]
	}
	for _, f := range shown {
		b.WriteString("    " + FindingLine(f) + "\n")
	}
	if more := len(g.Findings) - len(shown); more > 0 {
		fmt.Fprintf(b, "    ... %d more: gauntlet explain %s\n", more, g.Name)
	}
}

// outputIsFindings says whether a gate's output, all of it within the tail shown, is only the
// lines its listed findings came from (go vet's one finding): shown under output: again, it
// would say each finding twice. An output with any other line, or longer, is shown as it is.
func outputIsFindings(g GateReport, tailLines int) bool {
	return len(g.Findings) <= maxTextFindings && OutputIsFindings(g.Findings, g.Tail, g.OutputLines, tailLines)
}

// OutputIsFindings says whether tail, the end of an output of outputLines lines (0: not
// counted), is the whole output, at most tailLines lines, and every line of it that is not
// blank is a line one of fs came from. Then a place that lists fs has no need to show the output
// too: the run report and the stop hook's block reason both leave it out by this one rule.
func OutputIsFindings(fs []gates.Finding, tail string, outputLines, tailLines int) bool {
	if len(fs) == 0 || strings.TrimSpace(tail) == "" {
		return false
	}
	kept := strings.Split(strings.TrimRight(termtext.Clean(tail), "\n"), "\n")
	if outputLines > len(kept) || len(kept) > tailLines {
		return false
	}
	for _, line := range kept {
		if strings.TrimSpace(line) != "" && !slices.ContainsFunc(fs, func(f gates.Finding) bool { return findingFrom(f, line) }) {
			return false
		}
	}
	return true
}

// findingFrom says whether line is the output line f was read from: its place and its message.
func findingFrom(f gates.Finding, line string) bool {
	first, _, _ := strings.Cut(f.Message, "\n")
	if first == "" || !strings.Contains(line, strings.TrimSpace(first)) {
		return false
	}
	if f.File != "" && !strings.Contains(line, filepath.Base(f.File)) {
		return false
	}
	return f.Line <= 0 || strings.Contains(line, fmt.Sprintf(":%d", f.Line))
}
