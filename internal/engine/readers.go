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
// suggests). Gates with new_only get the lines the change added, computed once per run, and the
// base to compare the other findings with (judge); when the change cannot be known (no git, a
// diff too large to read whole) nothing is set aside and the exit code decides, because blaming
// nothing on the change is only safe when the change is known. Gates whose output may name an
// environment cause get the base under the same environment, to tell the failures the cause
// explains from those it does not.
func findingReaders(root string, judge *baseJudge, added snapshot.AddedLines) runner.ReadersFunc {
	return func(g gates.Gate) []runner.OutputReader {
		if !isCheck(g) {
			return nil // review and todos gates report their own findings
		}
		opts := findings.Options{Root: root, Dir: g.Dir, Gate: g}
		if g.Causes {
			opts.SameEnvironment = judge.setUnderCause(g)
		}
		if g.NewOnly && added != nil {
			opts.Added = added
			opts.Base = judge.setFor(g)
		}
		r := findings.NewReader(findings.For(g), opts)
		if r == nil {
			return nil
		}
		return []runner.OutputReader{r}
	}
}

func isCheck(g gates.Gate) bool { return g.Kind == gates.KindCheck || g.Kind == "" }

// newOnlyChange reads the lines the run's change adds, for the new_only gates among toRun. nil
// means there are none, or the change is not known.
func newOnlyChange(ctx context.Context, snap *snapshot.Snapshot, toRun []gates.Gate) snapshot.AddedLines {
	if !slices.ContainsFunc(toRun, func(g gates.Gate) bool { return g.NewOnly && isCheck(g) }) {
		return nil
	}
	change, err := snap.Change(ctx)
	if err != nil || change.Cut {
		return nil
	}
	return change.Added()
}

// diffCommit is the commit the snapshot's change is measured from; "" when there is none.
func diffCommit(ctx context.Context, snap *snapshot.Snapshot) string {
	from, _, hasBase, err := snap.DiffBase(ctx)
	if err != nil || !hasBase {
		return ""
	}
	if from == "HEAD" {
		tree, err := snap.Tree(ctx)
		if err != nil || tree.Head == snapshot.NoCommit {
			return ""
		}
		return tree.Head
	}
	return from
}
