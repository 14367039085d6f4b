package engine

import (
	"context"
	"slices"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/findings"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/runner"
)

// findingReaders gives each check gate the findings parser its format names (or its command
// suggests). Gates with new_only get the lines the change added, computed once per run; when they
// cannot be known (no git, a diff too large to read whole) nothing is set aside and the exit
// code decides, because blaming nothing on the change is only safe when the change is known.
func findingReaders(ctx context.Context, snap *snapshot.Snapshot, toRun []gates.Gate) runner.ReadersFunc {
	root := snap.Root()
	var added snapshot.AddedLines
	if slices.ContainsFunc(toRun, func(g gates.Gate) bool { return g.NewOnly && isCheck(g) }) {
		added = addedLines(ctx, snap)
	}
	return func(g gates.Gate) []runner.OutputReader {
		if !isCheck(g) {
			return nil // review and todos gates report their own findings
		}
		opts := findings.Options{Root: root, Dir: g.Dir}
		if g.NewOnly {
			opts.Added = added
		}
		r := findings.NewReader(findings.For(g), opts)
		if r == nil {
			return nil
		}
		return []runner.OutputReader{r}
	}
}

func isCheck(g gates.Gate) bool { return g.Kind == gates.KindCheck || g.Kind == "" }

func addedLines(ctx context.Context, snap *snapshot.Snapshot) snapshot.AddedLines {
	change, err := snap.Change(ctx)
	if err != nil || change.Cut {
		return nil
	}
	return change.Added()
}
