package main

import "github.com/spf13/cobra"

// addVersionFlag makes `gauntlet --version` print exactly what `gauntlet version` prints, as
// install scripts and package managers expect. The flag is declared here, without a shorthand,
// so that cobra does not claim -v (which means --verbose on run).
func addVersionFlag(root *cobra.Command) {
	// The newline is part of the version, not of the template: the text goes out in one write,
	// so that a reader that stops after the first line (head -1) never makes a later write fail.
	root.Version = versionText() + "\n"
	root.Flags().Bool("version", false, "print gauntlet's version (as gauntlet version does)")
	root.SetVersionTemplate("{{.Version}}")
}
