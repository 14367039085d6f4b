package doctor

import (
	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/engine"
)

// censusChecks warn of the enabled test gates whose tests cannot be counted: without a census,
// a test the change skipped or removed is seen only by the integrity rules' reading of the diff;
// and of gates whose coverage: cannot be read, which compare no coverage.
func censusChecks(cfg *config.Config) []Check {
	var out []Check
	for _, g := range cfg.Gates {
		plan := engine.PlanCensusIn(g, cfg.Root)
		if !g.Enabled || !plan.TestGate {
			continue
		}
		if plan.Uncounted != "" {
			out = append(out, Check{Name: "tests", Level: Warn,
				Message: g.Name + ": its tests cannot be counted: " + plan.Uncounted,
				Fix:     "in gate " + g.Name + ", " + engine.UncountedFix})
		}
		if cov := engine.PlanCoverage(g, plan); cov.Unmeasured != "" {
			out = append(out, Check{Name: "coverage", Level: Warn,
				Message: g.Name + ": its coverage is not read: " + cov.Unmeasured,
				Fix:     "in gate " + g.Name + ", name the coverage report the gate writes in coverage: PATH, or drop coverage:"})
		}
	}
	return out
}
