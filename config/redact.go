package config

import (
	"fmt"
	"slices"

	"github.com/gauntlet-dev/gauntlet/internal/redact"
)

// Redactor hides the secret values gates can see: those of the process environment the gates
// inherit (environ) and those the config gives them, top-level and per gate, local override
// included (it is merged into both by now). Disabled gates count too: their env is in the files.
func (c *Config) Redactor(environ []string) *redact.Redactor {
	envs := make([][]string, 0, 2+len(c.Gates)+len(c.Setup))
	envs = append(envs, environ, c.Env)
	for _, g := range c.Gates {
		envs = append(envs, g.Env)
	}
	for _, g := range c.Setup {
		envs = append(envs, g.Env)
	}
	return redact.New(c.Redact, envs...)
}

// validateRedact refuses a variable both hidden and exempt: whichever won, the user would be
// surprised by the other.
func validateRedact(r *rawRedact) []Problem {
	if r == nil {
		return nil
	}
	var problems []Problem
	for _, name := range r.Exempt {
		if slices.Contains(r.Names, name) {
			problems = append(problems, r.keyPos("exempt").problem(fmt.Sprintf(
				"%q is in both %q and %q in redact; keep it in one", name, "names", "exempt")))
		}
	}
	return problems
}
