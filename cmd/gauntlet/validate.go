package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/doctor"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// validateOptions are validate's command line and its surroundings.
type validateOptions struct {
	IO         *IOStreams
	configFile string
}

func newValidateCmd(ios *IOStreams, runF func(*validateOptions) error) *cobra.Command {
	opts := &validateOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "validate",
		Short: "Check .gauntlet.yml (and .gauntlet.local.yml) and report every problem",
		Long: `Load the config strictly, as run does, without running anything.

Every problem is printed as FILE:LINE:COL: message, exit code 2. A valid config prints a
confirmation line and exits 0; when stop_hook.max_attempts is above the own cap of a host whose
hook file runs gauntlet (Copilot: 8 blocks; Cursor: the entry's loop_limit), a warning on
stderr says so, still exit 0.

validate reads the config alone and answers the same on every machine; that the programs the
gates run are installed here is what gauntlet doctor checks.`,
		Args: cobra.NoArgs,
		RunE: runE(func(*cobra.Command, []string) error {
			if runF != nil {
				return runF(opts)
			}
			return validate(opts)
		}),
	}
	cmd.Flags().StringVarP(&opts.configFile, "config", "c", "", "check this config file instead of searching for .gauntlet.yml")
	return cmd
}

func validate(opts *validateOptions) error {
	ios := opts.IO
	cfg, err := loadConfig(ios, opts.configFile)
	if err != nil {
		return err
	}
	files := config.DisplayPath(cfg.Path)
	if cfg.LocalPath != "" {
		files += " + " + config.DisplayPath(cfg.LocalPath)
	}
	if _, err = fmt.Fprintf(ios.Out, "ok: %s, %s\n", files, termtext.Count(len(cfg.Gates), "gate")); err != nil {
		return err
	}
	// validate stays static (CI validates on machines without the tools); say where the rest is.
	if _, err = fmt.Fprintln(ios.Out, "  (the config only: gauntlet doctor checks that the gates' programs are installed)"); err != nil {
		return err
	}
	for _, w := range doctor.CapWarnings(cfg) {
		fmt.Fprintf(ios.ErrOut, "gauntlet: warning: %s; fix: %s\n", w.Message, w.Fix)
	}
	return nil
}
