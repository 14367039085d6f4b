package main

import "github.com/spf13/cobra"

// newSchemaCmd is a placeholder until the command is implemented.
func newSchemaCmd(io streams) *cobra.Command {
	return &cobra.Command{Use: "schema", Hidden: true, RunE: runE(func(*cobra.Command, []string) error {
		return usagef("gauntlet schema is not available in this build")
	})}
}
