package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gauntlet-dev/gauntlet/internal/hosts"
	"github.com/gauntlet-dev/gauntlet/internal/report"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// registerCompletions teaches shell completion gate names and flag values. It goes by command
// and flag names over the whole tree, so that a command added later (explain, doctor) gets the
// same completion as soon as it has the argument or flag.
func registerCompletions(root *cobra.Command, ios *IOStreams) {
	var walk func(*cobra.Command)
	walk = func(cmd *cobra.Command) {
		switch cmd.Name() {
		case "run", "list", "explain", "fix":
			if cmd.ValidArgsFunction == nil && takesArgs(cmd) {
				cmd.ValidArgsFunction = completeGateNames(ios)
			}
		}
		flags := cmd.Flags()
		if flags.Lookup("format") != nil && (cmd.Name() == "run" || cmd.Name() == "merge") {
			formats := make([]string, len(report.Formats))
			for i, f := range report.Formats {
				formats[i] = string(f)
			}
			_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(formats, cobra.ShellCompDirectiveNoFileComp))
		}
		if flags.Lookup("color") != nil {
			_ = cmd.RegisterFlagCompletionFunc("color", cobra.FixedCompletions([]string{"auto", "always", "never"}, cobra.ShellCompDirectiveNoFileComp))
		}
		if f := flags.Lookup("host"); f != nil {
			names := strings.Split(hosts.NameList(","), ",")
			if f.DefValue == "auto" {
				names = append([]string{"auto"}, names...)
			}
			_ = cmd.RegisterFlagCompletionFunc("host", cobra.FixedCompletions(names, cobra.ShellCompDirectiveNoFileComp))
		}
		for _, c := range cmd.Commands() {
			walk(c)
		}
	}
	walk(root)
}

// takesArgs says whether a command accepts a positional argument at all: `list` takes none
// today, and completing gate names there would only suggest an error.
func takesArgs(cmd *cobra.Command) bool {
	return cmd.Args == nil || cmd.Args(cmd, []string{"x"}) == nil
}

// completeGateNames offers the config's gates not already on the command line, each with its
// command as the description. Any problem (no config, a broken one) quietly offers nothing:
// completion is no place for error messages.
func completeGateNames(ios *IOStreams) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(cmd *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		return gateNameCompletions(ios, cmd, args)
	}
}

func gateNameCompletions(ios *IOStreams, cmd *cobra.Command, args []string) ([]string, cobra.ShellCompDirective) {
	file, _ := cmd.Flags().GetString("config")
	cfg, err := loadConfig(ios, file)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []string
	for _, g := range cfg.Gates {
		if slices.Contains(args, g.Name) || cmd.Name() == "fix" && g.Fix == "" {
			continue // fix offers only the gates that have a fixer
		}
		// On one line (a tab or newline would break the completion protocol) and cut on a
		// character boundary: shells print the description as it is.
		desc := termtext.Short(g.Command(), 60)
		if desc == "" {
			desc = string(g.Kind)
		}
		out = append(out, g.Name+"\t"+desc)
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}
