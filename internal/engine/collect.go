package engine

import (
	"slices"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/baseline"
	"github.com/gauntlet-dev/gauntlet/internal/findings"
	"github.com/gauntlet-dev/gauntlet/runner"
)

// collector keeps every finding one gate reports, up to baseline.MaxFindings: what a gate prints
// at the base, or for a baseline, is wanted whole rather than capped for a report.
type collector struct {
	findings []gates.Finding
	complete bool
}

func (c *collector) add(f gates.Finding) {
	if len(c.findings) >= baseline.MaxFindings {
		c.complete = false
		return
	}
	c.findings = append(c.findings, f)
}

// collectReaders reads the findings of each gate of gs (run in the tree at root) into its own
// collector, made here before the run so that gates running at once never share one, beside the
// causes catalogue (a gate failed by its environment says nothing about its findings).
func collectReaders(root string, env []string, gs []gates.Gate) (runner.ReadersFunc, map[string]*collector) {
	collectors := make(map[string]*collector, len(gs))
	for _, g := range gs {
		collectors[g.Name] = &collector{complete: true}
	}
	causes := causeReaders(root, slices.Clone(env))
	return func(g gates.Gate) []runner.OutputReader {
		out := causes(g)
		c := collectors[g.Name]
		if c == nil {
			return out
		}
		if r := findings.NewReader(findings.For(g), findings.Options{Root: root, Dir: g.Dir, Collect: c.add}); r != nil {
			out = append(out, r)
		}
		return out
	}, collectors
}
