// Command gauntlet runs a repository's quality gates and turns their outcome into one verdict.
package main

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

func main() {
	os.Exit(Main(os.Args[1:], systemStreams()))
}

// Main runs one command line and returns the process exit code. It is the only place that turns
// errors into exit codes, so that deferred cleanups (lock release, process kills) always run.
func Main(args []string, ios *IOStreams) int {
	setCacheVersion()
	// A reader that went away (`gauntlet run | head -1`, a host that closed stderr) must make
	// writes fail with EPIPE, not kill gauntlet by SIGPIPE while its gates run on unsupervised.
	// Notify rather than Ignore: an ignored signal would stay ignored in every gate's process.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	root := newRootCmd(ios)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	return handleError(ios.ErrOut, cmd, err)
}

// newRootCmd builds the command tree. Each command takes the streams and a run function, nil
// here: a test passes its own to see the options a command line parses into.
func newRootCmd(ios *IOStreams) *cobra.Command {
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
	root.AddCommand(
		newRunCmd(ios, nil),
		newStopHookCmd(ios, nil),
		newAfterEditCmd(ios, nil),
		newJudgeCmd(ios, nil),
		newInitCmd(ios, nil),
		newValidateCmd(ios, nil),
		newListCmd(ios, nil),
		newStatusCmd(ios, nil),
		newCleanCmd(ios, nil),
		newSchemaCmd(ios, nil),
		newVersionCmd(ios, nil),
		newDoctorCmd(ios, nil),
		newReportCmd(ios),
		newCICmd(ios),
		newCacheCmd(ios),
		newExplainCmd(ios, nil),
		newFixCmd(ios, nil),
		newBaselineCmd(ios, nil),
	)
	root.AddCommand(newReleaseFilesCmd(ios, root))
	strictCompletion(root)
	addVersionFlag(root)
	registerCompletions(root, ios)
	return root
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
