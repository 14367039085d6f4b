package main

import "github.com/spf13/cobra"

// newCleanCmd is a placeholder until the command is implemented.
func newCleanCmd(io streams) *cobra.Command {
	return &cobra.Command{Use: "clean", Hidden: true, RunE: runE(func(*cobra.Command, []string) error {
		return usagef("gauntlet clean is not available in this build")
	})}
}
