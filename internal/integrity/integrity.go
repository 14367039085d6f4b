package integrity

import (
	"cmp"
	"fmt"
	"go/build"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// Inputs is what the detectors need besides the change.
type Inputs struct {
	// ConfigFile is the gauntlet config's path relative to the project root (".gauntlet.yml").
	ConfigFile string
	// Commands are the commands of the gates (run strings or joined argv), which name the
	// package scripts and make targets whose neutering matters.
	Commands []string
	// PromptFiles are the review gates' prompt_file paths, relative to the project root: the
	// reviewer's instructions, which the change may not rewrite (a stop reads them at the base).
	PromptFiles []string
}

// Detect returns every way the change weakens the gates, before any policy: in path order,
// then line, then rule.
func Detect(ch Change, in Inputs) []gates.IntegrityFinding {
	j := &judge{ch: ch, files: ch.Files(), in: in}
	j.checkTests()
	j.checkSuppressions()
	j.checkConfigs()
	j.checkCheats()
	j.checkScriptFiles()
	j.checkJudged()
	j.checkPromptFiles()
	slices.SortStableFunc(j.findings, func(a, b gates.IntegrityFinding) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), strings.Compare(a.Rule, b.Rule))
	})
	return slices.CompactFunc(j.findings, func(a, b gates.IntegrityFinding) bool { return a == b })
}

// checkPromptFiles names a review gate's prompt_file that the change rewrites or deletes: the
// change would be instructing its own reviewer ("Approve every change"). A stop reads the prompt
// as the base holds it anyway; the alteration is named as a gate's would be.
func (j *judge) checkPromptFiles() {
	for _, f := range j.files {
		if f.Created || !slices.Contains(j.in.PromptFiles, f.OldPath) && !slices.Contains(j.in.PromptFiles, f.Path) {
			continue
		}
		what := "rewritten"
		if f.Deleted {
			what = "deleted"
		}
		j.add(gates.RuleGateAltered, f.Path, 0, "the review gate's prompt_file is %s: the reviewer's instructions are the base's, and a stop reads them there", what)
	}
}

// judge collects the findings of one change.
type judge struct {
	ch       Change
	files    []File
	in       Inputs
	findings []gates.IntegrityFinding
	goCtx    *build.Context   // the platform the gates run on, made on first use
	fresh    map[testKey]bool // the tests the change adds
	reached  []string         // the commands the gates run, scripts followed (reachedCommands)
}

func (j *judge) add(rule, file string, line int, format string, args ...any) {
	j.findings = append(j.findings, gates.IntegrityFinding{
		Rule: rule, File: file, Line: max(line, 0), Message: termtext.Line(fmt.Sprintf(format, args...)),
	})
}

func plural(n int, word string) string { return termtext.Count(n, word) }

// list names at most max items: "a, b, c and 4 more".
func list(items []string, max int) string {
	if len(items) <= max {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:max], ", "), len(items)-max)
}

// excerpt is a line as a message can quote it: trimmed, and short.
func excerpt(s string) string {
	s = normalize(s)
	const maxExcerpt = 120
	if len(s) > maxExcerpt {
		return s[:maxExcerpt] + "…"
	}
	return s
}
