package main

import "github.com/spf13/cobra"

// newListCmd is a placeholder until the command is implemented.
func newListCmd(io streams) *cobra.Command {
	return &cobra.Command{Use: "list", Hidden: true, RunE: runE(func(*cobra.Command, []string) error {
		return usagef("gauntlet list is not available in this build")
	})}
}
