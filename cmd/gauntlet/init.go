package main

import "github.com/spf13/cobra"

// newInitCmd is a placeholder until the command is implemented.
func newInitCmd(io streams) *cobra.Command {
	return &cobra.Command{Use: "init", Hidden: true, RunE: runE(func(*cobra.Command, []string) error {
		return usagef("gauntlet init is not available in this build")
	})}
}
