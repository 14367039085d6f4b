package doctor

import (
	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/engine"
)

// censusChecks warn of the enabled test gates whose tests cannot be counted: without a census,
// a test the change skipped or removed is seen only by the integrity rules' reading of the diff.
func censusChecks(cfg *config.Config) []Check {
	var out []Check
	for _, g := range cfg.Gates {
		plan := engine.PlanCensus(g)
		if !g.Enabled || !plan.TestGate || plan.Uncounted == "" {
			continue
		}
		out = append(out, Check{Name: "tests", Level: Warn,
			Message: g.Name + ": its tests cannot be counted: " + plan.Uncounted,
			Fix:     "in gate " + g.Name + ", " + engine.UncountedFix})
	}
	return out
}
