// Command gauntlet runs a repository's quality gates and turns their outcome into one verdict.
package main

import (
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

// streams is all the I/O a command may touch, so that commands are testable without a terminal.
type streams struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
}

func main() {
	os.Exit(Main(os.Args[1:], streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
}

// Main runs one command line and returns the process exit code. It is the only place that turns
// errors into exit codes, so that deferred cleanups (lock release, process kills) always run.
func Main(args []string, io streams) int {
	setCacheVersion()
	// A reader that went away (`gauntlet run | head -1`, a host that closed stderr) must make
	// writes fail with EPIPE, not kill gauntlet by SIGPIPE while its gates run on unsupervised.
	// Notify rather than Ignore: an ignored signal would stay ignored in every gate's process.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	root := newRootCmd(io)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	return handleError(io.Err, cmd, err)
}

func newRootCmd(io streams) *cobra.Command {
	root := &cobra.Command{
		Use:           "gauntlet",
		Short:         "Run a repository's quality gates in parallel and report one verdict",
		SilenceErrors: true,
		SilenceUsage:  true,
		// Runnable so that cobra rejects an unknown subcommand (exit 2) instead of printing help
		// and succeeding; without arguments it shows the help.
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	root.SetIn(io.In)
	root.SetOut(io.Out)
	root.SetErr(io.Err)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err} })
	root.AddCommand(
		newRunCmd(io),
		newStopHookCmd(io),
		newAfterEditCmd(io),
		newJudgeCmd(io),
		newInitCmd(io),
		newValidateCmd(io),
		newListCmd(io),
		newStatusCmd(io),
		newCleanCmd(io),
		newSchemaCmd(io),
		newVersionCmd(io),
		newDoctorCmd(io),
		newReportCmd(io),
		newCICmd(io),
		newExplainCmd(io),
	)
	strictCompletion(root)
	addVersionFlag(root)
	registerCompletions(root)
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
