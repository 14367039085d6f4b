package main

import "github.com/spf13/cobra"

// newStatusCmd is a placeholder until the command is implemented.
func newStatusCmd(io streams) *cobra.Command {
	return &cobra.Command{Use: "status", Hidden: true, RunE: runE(func(*cobra.Command, []string) error {
		return usagef("gauntlet status is not available in this build")
	})}
}
