package engine

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/census"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// A gate's `tests:` report is a file in the project that the gate's command writes: gauntlet did
// not open the channel, the project's script did. While the script is the project's, what it
// writes is the runner's report; a script the change edits can write any report it likes (every
// test passing) and exit 0. Such a report is not believed as the census, and is named.

// reportWriter is the file the change edits (or adds) that gate g's command runs, when g's census
// comes from the reports its `tests:` names; "" otherwise.
func reportWriter(ctx context.Context, snap *snapshot.Snapshot, g gates.Gate) string {
	if snap == nil || PlanCensus(g).Tests == "" {
		return ""
	}
	ch, err := snap.Change(ctx)
	if err != nil {
		return ""
	}
	named := commandFiles(g)
	for _, f := range ch.Files {
		if f.Status != snapshot.Deleted && named[f.Path] {
			return f.Path
		}
	}
	return ""
}

// commandFiles are the root-relative paths g's command names: each word that is no option, as a
// path from the gate's directory (`sh ./test.sh`, `scripts/ci.sh`, `python3 check.py`,
// `powershell -File scripts\ci.ps1`).
func commandFiles(g gates.Gate) map[string]bool {
	words := g.Argv
	if len(words) == 0 {
		words = strings.FieldsFunc(g.Run, func(c rune) bool { return strings.ContainsRune(" \t\n;&|()<>", c) })
	}
	out := map[string]bool{}
	for _, w := range words {
		// A Windows gate names its script with backslashes (scripts\ci.ps1, .\run.cmd); the
		// change's files are slash paths.
		w = strings.ReplaceAll(strings.Trim(w, `'"`), `\`, "/")
		if w == "" || strings.HasPrefix(w, "-") || strings.Contains(w, "$") || path.IsAbs(w) {
			continue
		}
		out[path.Clean(path.Join(g.Dir, w))] = true
	}
	return out
}

// reportNotBelieved is the finding for a gate whose report a script the change edits writes: the
// tests that passed at the base are not seen to run here.
func reportNotBelieved(r gates.Result, g gates.Gate, script string, base census.Census, level gates.IntegrityLevel) []gates.IntegrityFinding {
	passed := 0
	for _, t := range base.Tests {
		if t.Outcome == census.Pass {
			passed++
		}
	}
	if passed == 0 || level == gates.IntegrityOff {
		return nil
	}
	return []gates.IntegrityFinding{{Rule: gates.RuleTestsLost, File: script, Level: level,
		Message: fmt.Sprintf("%s: the tests: report %s is written by %s, which the change edits: it is not the runner's own report, so the %s that passed at the base are not seen to run here",
			r.Name, g.Tests, script, termtext.Count(passed, "test"))}}
}
