package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gauntlet-dev/gauntlet/config"
)

func newValidateCmd(io streams) *cobra.Command {
	var configFile string
	cmd := &cobra.Command{
		Use:   "validate",
		Short: "Check .gauntlet.yml (and .gauntlet.local.yml) and report every problem",
		Long: `Load the config strictly, as run does, without running anything.

Every problem is printed as FILE:LINE:COL: message, exit code 2. A valid config prints one
confirmation line and exits 0.`,
		Args: cobra.NoArgs,
		RunE: runE(func(*cobra.Command, []string) error {
			cfg, err := loadConfig(configFile)
			if err != nil {
				return err
			}
			files := config.DisplayPath(cfg.Path)
			if cfg.LocalPath != "" {
				files += " + " + config.DisplayPath(cfg.LocalPath)
			}
			_, err = fmt.Fprintf(io.Out, "ok: %s, %s\n", files, plural(len(cfg.Gates), "gate"))
			return err
		}),
	}
	cmd.Flags().StringVarP(&configFile, "config", "c", "", "check this config file instead of searching for .gauntlet.yml")
	return cmd
}
