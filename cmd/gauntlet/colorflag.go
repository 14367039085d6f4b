package main

import (
	"slices"

	"github.com/spf13/pflag"
)

// colorUsage is the one description of --color, the same on every command that has it.
const colorUsage = "colour the output: auto, always or never (NO_COLOR is honoured by auto)"

// addColorFlag gives a command that prints for people the --color every such command has.
func addColorFlag(f *pflag.FlagSet, p *string) {
	f.StringVar(p, "color", "auto", colorUsage)
}

// checkColor refuses a --color value that is none of auto, always and never.
func checkColor(when string) error {
	if !slices.Contains([]string{"auto", "always", "never"}, when) {
		return usagef("--color must be auto, always or never, got %q", when)
	}
	return nil
}
