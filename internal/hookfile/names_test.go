package hookfile

import "github.com/gauntlet-dev/gauntlet/internal/hosts"

// Short names for the hosts in this package's tests.
const (
	Claude  = hosts.Claude
	Codex   = hosts.Codex
	Cursor  = hosts.Cursor
	Gemini  = hosts.Gemini
	Copilot = hosts.Copilot
)

func Hosts() []hosts.Name { return hosts.Names() }
