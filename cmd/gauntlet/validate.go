package main

import "github.com/spf13/cobra"

// newValidateCmd is a placeholder until the command is implemented.
func newValidateCmd(io streams) *cobra.Command {
	return &cobra.Command{Use: "validate", Hidden: true, RunE: runE(func(*cobra.Command, []string) error {
		return usagef("gauntlet validate is not available in this build")
	})}
}
