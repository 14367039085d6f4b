package main

import "github.com/spf13/cobra"

// addVersionFlag makes `gauntlet --version` print exactly what `gauntlet version` prints, as
// install scripts and package managers expect. The flag is declared here, without a shorthand,
// so that cobra does not claim -v (which means --verbose on run).
func addVersionFlag(root *cobra.Command) {
	root.Version = versionText()
	root.Flags().Bool("version", false, "print gauntlet's version (as gauntlet version does)")
	root.SetVersionTemplate("{{.Version}}\n")
}
