package engine

import (
	"context"
	"slices"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/changes"
	"github.com/gauntlet-dev/gauntlet/internal/findings"
	"github.com/gauntlet-dev/gauntlet/runner"
)

// maxNewOnlyDiffBytes bounds the diff new_only reads to learn which lines the change added.
const maxNewOnlyDiffBytes = 32 << 20

// findingReaders gives each check gate the findings parser its format names (or its command
// suggests). Gates with new_only get the lines the change added, computed once per run; when they
// cannot be known (no git, a diff too large to read whole) nothing is set aside and the exit
// code decides, because blaming nothing on the change is only safe when the change is known.
func findingReaders(ctx context.Context, root, base string, toRun []gates.Gate) runner.ReadersFunc {
	var added changes.AddedLines
	if slices.ContainsFunc(toRun, func(g gates.Gate) bool { return g.NewOnly && isCheck(g) }) {
		added = addedLines(ctx, root, base)
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

func addedLines(ctx context.Context, root, base string) changes.AddedLines {
	patch, err := changes.Diff(ctx, root, changes.DiffOptions{Base: base, MaxBytes: maxNewOnlyDiffBytes})
	if err != nil || patch.Cut {
		return nil
	}
	return changes.ParseAdded(patch.Text)
}
