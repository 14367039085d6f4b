package engine

import (
	"github.com/gauntlet-dev/gauntlet/causes"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/runner"
)

// outputReaders gives each gate the readers of its output: the catalogue of environment causes,
// unless the config turned it off for the gate (config resolves causes: for check gates only).
func outputReaders(g gates.Gate) []runner.OutputReader {
	if !g.Causes {
		return nil
	}
	return []runner.OutputReader{causes.NewReader()}
}
