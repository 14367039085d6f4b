// Command gauntlet runs a repository's quality gates and turns their outcome into one verdict.
package main

import (
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/gauntlet-dev/gauntlet/internal/covshim"
)

func main() {
	os.Exit(Main(os.Args[1:], systemStreams()))
}

// Main runs one command line and returns the process exit code. It is the only place that turns
// errors into exit codes, so that deferred cleanups (lock release, process kills) always run.
func Main(args []string, ios *IOStreams) int {
	if len(args) > 0 && args[0] == covshim.Command {
		// go test starting a tool through the shim: nothing of the CLI, as fast as it can.
		return covshim.Main(args[1:], ios.Out, ios.ErrOut)
	}
	// go starts the shim in its own directories: a relative name is read from where this started.
	startDir, _ := os.Getwd()
	covshim.Enable(func() string {
		path, _ := selfPath()
		if path != "" && !filepath.IsAbs(path) {
			path = filepath.Join(startDir, path)
		}
		return path
	})
	setCacheVersion()
	// A reader that went away (`gauntlet run | head -1`, a host that closed stderr) must make
	// writes fail with EPIPE, not kill gauntlet by SIGPIPE while its gates run on unsupervised.
	// Notify rather than Ignore: an ignored signal would stay ignored in every gate's process.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	root := newCommandTree(ios, args)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	return handleError(ios.ErrOut, cmd, err)
}

// newRootCmd builds the whole command tree. Each command takes the streams and a run function,
// nil here: a test passes its own to see the options a command line parses into.
func newRootCmd(ios *IOStreams) *cobra.Command { return newCommandTree(ios, nil) }

// newCommandTree builds the tree a command line needs. One that starts with a command's name
// (`gauntlet stop-hook`, what hooks call many times a session) gets the root and that command
// alone: building every command and flag set cost a measurable part of a cached stop hook, and
// cobra goes no further than the named command. Anything else (help, completion, a flag, an
// unknown or misspelt command, whose suggestion needs every name) gets the whole tree.
func newCommandTree(ios *IOStreams, args []string) *cobra.Command {
	// The root's help lists its commands in their groups in the order of subcommands, which puts
	// first what a newcomer reaches for first.
	cobra.EnableCommandSorting = false
	root := &cobra.Command{
		Use:           "gauntlet",
		Short:         "Run a repository's quality gates in parallel and report one verdict",
		SilenceErrors: true,
		SilenceUsage:  true,
		// Runnable so that cobra rejects an unknown subcommand (exit 2) instead of printing help
		// and succeeding; without arguments it shows the help.
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	root.SetIn(ios.In)
	root.SetOut(ios.Out)
	root.SetErr(ios.ErrOut)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return &usageError{withFlagSuggestion(cmd, err)} })
	if named, ok := namedSubcommand(args); ok {
		root.AddCommand(named.build(ios))
		setUpHelp(root)
		// None of the completion command, shell completion (`gauntlet __complete ...`) or the
		// root (--version) could be the one run: cobra need not build the first, nor gauntlet
		// register the second's candidates or make the third's version text.
		root.CompletionOptions.DisableDefaultCmd = true
		return root
	}
	for _, sub := range subcommands {
		root.AddCommand(sub.build(ios))
	}
	root.AddCommand(newReleaseFilesCmd(ios, root))
	strictCompletion(root)
	setUpHelp(root)
	addVersionFlag(root)
	registerCompletions(root, ios)
	return root
}

// subcommand is one of the root's commands, by the name it is called by.
type subcommand struct {
	name  string
	build func(ios *IOStreams) *cobra.Command
}

// subcommands are the root's commands but release-files, which documents the whole tree and so
// always gets it.
var subcommands = []subcommand{
	{"run", func(ios *IOStreams) *cobra.Command { return newRunCmd(ios, nil) }},
	{"init", func(ios *IOStreams) *cobra.Command { return newInitCmd(ios, nil) }},
	{"fix", func(ios *IOStreams) *cobra.Command { return newFixCmd(ios, nil) }},
	{"status", func(ios *IOStreams) *cobra.Command { return newStatusCmd(ios, nil) }},
	{"explain", func(ios *IOStreams) *cobra.Command { return newExplainCmd(ios, nil) }},
	{"list", func(ios *IOStreams) *cobra.Command { return newListCmd(ios, nil) }},
	{"doctor", func(ios *IOStreams) *cobra.Command { return newDoctorCmd(ios, nil) }},
	{"stop-hook", func(ios *IOStreams) *cobra.Command { return newStopHookCmd(ios, nil) }},
	{"after-edit", func(ios *IOStreams) *cobra.Command { return newAfterEditCmd(ios, nil) }},
	{"judge", func(ios *IOStreams) *cobra.Command { return newJudgeCmd(ios, nil) }},
	{"pre-edit", func(ios *IOStreams) *cobra.Command { return newPreEditCmd(ios, nil) }},
	{"baseline", func(ios *IOStreams) *cobra.Command { return newBaselineCmd(ios, nil) }},
	{"cache", newCacheCmd},
	{"ci", newCICmd},
	{"clean", func(ios *IOStreams) *cobra.Command { return newCleanCmd(ios, nil) }},
	{"report", newReportCmd},
	{"schema", func(ios *IOStreams) *cobra.Command { return newSchemaCmd(ios, nil) }},
	{"validate", func(ios *IOStreams) *cobra.Command { return newValidateCmd(ios, nil) }},
	{"version", func(ios *IOStreams) *cobra.Command { return newVersionCmd(ios, nil) }},
}

// namedSubcommand is the command a command line's first word names, if it names one.
func namedSubcommand(args []string) (subcommand, bool) {
	if len(args) == 0 {
		return subcommand{}, false
	}
	for _, sub := range subcommands {
		if sub.name == args[0] {
			return sub, true
		}
	}
	return subcommand{}, false
}

// strictCompletion makes `gauntlet completion SHELL` reject a shell it has no script for (exit 2)
// instead of printing help and succeeding: a runnable command gets cobra's argument check.
func strictCompletion(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	completion, _, err := root.Find([]string{"completion"})
	if err != nil || completion == root {
		return
	}
	completion.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
}
