package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/engine"
	"github.com/gauntlet-dev/gauntlet/internal/report"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/lock"
)

// The exit codes are frozen by the product contract; nothing else may choose one.
const (
	exitOK          = 0
	exitFail        = 1
	exitUsage       = 2
	exitError       = 3
	exitLocked      = 4
	exitInterrupted = 130
)

// errInterrupted is the cancel cause of a run stopped by Ctrl-C or SIGTERM.
var errInterrupted = errors.New("interrupted")

// errInterruptedShown is errInterrupted once the summary's verdict line has said "interrupted":
// the exit code is the same, and nothing more is printed.
var errInterruptedShown = fmt.Errorf("%w (shown in the summary)", errInterrupted)

// usageError is a bad command line: exit 2, with a pointer to the command's help.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return &usageError{fmt.Errorf(format, args...)} }

// verdictExit ends a command with the exit code of its verdict; the report already said why.
type verdictExit struct{ verdict gates.Verdict }

func (e *verdictExit) Error() string { return "verdict " + string(e.verdict) }

// commandError marks an error as coming from a command's own work rather than from cobra's
// argument parsing, which reports unknown commands and flags with plain errors.
type commandError struct{ err error }

func (e *commandError) Error() string { return e.err.Error() }
func (e *commandError) Unwrap() error { return e.err }

// runE wraps a command body so that its errors are told apart from cobra's parse errors.
func runE(fn func(cmd *cobra.Command, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if err := fn(cmd, args); err != nil {
			return &commandError{err}
		}
		return nil
	}
}

func verdictCode(v gates.Verdict) int {
	switch v {
	case gates.VerdictPass, gates.VerdictWarn:
		return exitOK
	case gates.VerdictFail:
		return exitFail
	default:
		return exitError
	}
}

// handleError prints err the way its kind deserves and returns the exit code.
func handleError(stderr io.Writer, cmd *cobra.Command, err error) int {
	if err == nil {
		return exitOK
	}
	if code, ok := outcomeCode(stderr, err); ok {
		return code
	}
	return failureCode(stderr, cmd, err)
}

// outcomeCode is the exit code of an error that carries an outcome rather than a failure: a
// reader that went, the hook's or the run's verdict, an interrupt.
func outcomeCode(stderr io.Writer, err error) (int, bool) {
	var (
		hookCode *hookExit
		verdict  *verdictExit
	)
	switch {
	case closedStdout(err):
		// The reader took what it wanted and went (`gauntlet --version | head -1`): nothing
		// failed, and stderr may be read by someone who did not ask for an explanation.
		return exitOK, true
	case errors.As(err, &hookCode):
		return hookCode.code, true
	case errors.As(err, &verdict):
		return verdictCode(verdict.verdict), true
	case errors.Is(err, errInterrupted):
		if !errors.Is(err, errInterruptedShown) {
			fmt.Fprintln(stderr, "gauntlet: interrupted")
		}
		return exitInterrupted, true
	}
	return 0, false
}

// failureCode prints a failure the way its kind deserves and returns its exit code.
func failureCode(stderr io.Writer, cmd *cobra.Command, err error) int {
	var (
		cfgErrs  *config.Errors
		busy     *lock.BusyError
		usage    *usageError
		fromBody *commandError
		merge    *report.MergeError
	)
	switch {
	case errors.As(err, &cfgErrs):
		// Config problems are printed bare, FILE:LINE:COL: message, so editors can jump to them.
		fmt.Fprintln(stderr, strings.TrimRight(cfgErrs.Error(), "\n"))
		return exitUsage
	case errors.As(err, &merge):
		fmt.Fprintf(stderr, "gauntlet: %s\n", merge.Error())
		return exitUsage
	case errors.As(err, &busy):
		fmt.Fprintf(stderr, "gauntlet: %s\n", busy.Error())
		printWaitHint(stderr, cmd)
		return exitLocked
	case errors.Is(err, config.ErrNotFound) && !errors.As(err, &usage):
		// A first run in a new project lands here: say what makes the config, not only its absence.
		fmt.Fprintf(stderr, "gauntlet: %s\ngauntlet init writes one for this project (gauntlet init --help)\n", err)
		return exitUsage
	case isUsageWithoutSynopsis(err):
		fmt.Fprintf(stderr, "gauntlet: %s\n", err)
		return exitUsage
	case errors.As(err, &usage) || !errors.As(err, &fromBody):
		fmt.Fprintf(stderr, "gauntlet: %s\n", err)
		switch {
		case cmd != nil && !cmd.HasParent():
			fmt.Fprint(stderr, rootUsage)
		case cmd != nil:
			fmt.Fprintf(stderr, "Usage: %s\nRun '%s --help' for all flags.\n", cmd.UseLine(), cmd.CommandPath())
		}
		return exitUsage
	default:
		fmt.Fprintf(stderr, "gauntlet: %s\n", err)
		return exitError
	}
}

// printWaitHint names, under a held lock's message, the flag of cmd that waits for the lock
// instead of failing, when cmd has one.
func printWaitHint(stderr io.Writer, cmd *cobra.Command) {
	if cmd == nil {
		return
	}
	wait := cmd.Flags().Lookup("wait")
	if wait == nil {
		return
	}
	alone := wait.NoOptDefVal
	if d, err := time.ParseDuration(alone); err == nil {
		alone = gates.ShortDuration(d)
	}
	fmt.Fprintf(stderr, "gauntlet: add --wait to wait for it (%s --wait=5m waits up to 5m; --wait alone, %s)\n", cmd.CommandPath(), alone)
}

// isUsageWithoutSynopsis reports whether err is the user's mistake in what a command names (a
// gate, a base, a last run, a planted config): the command line's synopsis would not help.
func isUsageWithoutSynopsis(err error) bool {
	var (
		unknown *engine.UnknownGateError
		planted *config.UntrustedError
	)
	return errors.As(err, &unknown) || errors.Is(err, snapshot.ErrBaseNotFound) ||
		errors.As(err, &planted) || errors.Is(err, errNoLastRun) ||
		errors.Is(err, errNotInLastRun)
}

// closedStdout reports whether err is a write to gauntlet's stdout whose reader has gone.
func closedStdout(err error) bool {
	var pathErr *fs.PathError
	return errors.As(err, &pathErr) && pathErr.Op == "write" && pathErr.Path == os.Stdout.Name() &&
		isBrokenPipe(err)
}
