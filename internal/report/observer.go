package report

import "github.com/gauntlet-dev/gauntlet/runner"

// Progress is the live display the runner reports to.
var _ runner.Observer = (*Progress)(nil)
