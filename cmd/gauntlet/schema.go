package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gauntlet-dev/gauntlet/config"
)

// schemaOptions are schema's surroundings; it has no flags.
type schemaOptions struct {
	IO *IOStreams
}

func newSchemaCmd(ios *IOStreams, runF func(*schemaOptions) error) *cobra.Command {
	opts := &schemaOptions{IO: ios}
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of .gauntlet.yml, for editors",
		Long: `Print the JSON Schema (draft 2020-12) of .gauntlet.yml on stdout.

Editors with a YAML language server pick it up from a first line such as
  # yaml-language-server: $schema=./gauntlet.schema.json`,
		Args: cobra.NoArgs,
		RunE: runE(func(*cobra.Command, []string) error {
			if runF != nil {
				return runF(opts)
			}
			return printSchema(opts)
		}),
	}
}

func printSchema(opts *schemaOptions) error {
	data, err := config.JSONSchema()
	if err != nil {
		return err
	}
	if _, err := opts.IO.Out.Write(data); err != nil {
		return fmt.Errorf("write schema: %w", err)
	}
	return nil
}
