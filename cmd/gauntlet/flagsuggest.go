package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gauntlet-dev/gauntlet/internal/suggest"
)

// unknownFlagPrefix starts pflag's error for a long flag the command does not have.
const unknownFlagPrefix = "unknown flag: --"

// withFlagSuggestion adds the closest of cmd's flags to pflag's "unknown flag: --fromat", as
// cobra does for a misspelt command ("Did you mean this?"), which it does not do for flags.
func withFlagSuggestion(cmd *cobra.Command, err error) error {
	got, ok := strings.CutPrefix(err.Error(), unknownFlagPrefix)
	if !ok || strings.ContainsAny(got, " \n") {
		return err
	}
	var names []string
	collect := func(f *pflag.Flag) {
		if !f.Hidden && f.Deprecated == "" {
			names = append(names, f.Name)
		}
	}
	cmd.Flags().VisitAll(collect)
	cmd.InheritedFlags().VisitAll(collect)
	if best := suggest.Closest(got, names); best != "" {
		return fmt.Errorf("%w (did you mean --%s?)", err, best)
	}
	return err
}
