package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/gauntlet-dev/gauntlet/internal/hosts"
	"github.com/gauntlet-dev/gauntlet/internal/stophook"
)

// stopSignalWindow is how long after a gate died of a stop signal the host's signal to the hook
// may come for the gate to count as stopped by the host; 0 is the runner's default. Only the test
// binary changes it.
var stopSignalWindow time.Duration

// stopHookNow is the stop hook's clock for the records it ages (an error stop's); nil is the
// system's. Only the test binary changes it.
var stopHookNow func() time.Time

// hookExit carries the stop hook's own exit code (0, or 1 for bad input): the host protocol
// decides it, and the reply on stdout already said everything.
type hookExit struct{ code int }

func (e *hookExit) Error() string { return "stop-hook exit" }

// stopHookOptions are stop-hook's command line and its surroundings.
type stopHookOptions struct {
	IO   *IOStreams
	host stophook.Host
}

func newStopHookCmd(ios *IOStreams, runF func(*stopHookOptions) error) *cobra.Command {
	opts := &stopHookOptions{IO: ios}
	var host string
	cmd := &cobra.Command{
		Use:   "stop-hook",
		Short: "Judge an agent's attempt to stop: called by the agent host with a JSON payload on stdin",
		Long: `Run the gates when a coding agent tries to stop and answer its host: a failure blocks the
stop with a reason the agent can act on; a pass, warnings, the retry limit and infrastructure
errors let it stop. stdout carries only the reply; diagnostics go to stderr.`,
		Args: cobra.NoArgs,
		RunE: runE(func(cmd *cobra.Command, _ []string) error {
			h, err := hostFlag(host)
			if err != nil {
				return err
			}
			opts.host = h
			if runF != nil {
				return runF(opts)
			}
			return runStopHook(cmd.Context(), opts)
		}),
	}
	cmd.Flags().StringVar(&host, "host", "auto", "the agent host's dialect: auto, "+hosts.NameList(", "))
	return cmd
}

func runStopHook(ctx context.Context, opts *stopHookOptions) error {
	ios := opts.IO
	// The host may end the hook with a signal at its own timeout: stop the gates first.
	ctx, stop := notifyTermination(ctx)
	defer stop()
	stdin, restore := ios.PollableIn()
	defer restore()
	cwd, _ := ios.Getwd()
	out := stophook.Run(ctx, stophook.Options{
		Stdin:   stdin,
		Stderr:  ios.ErrOut,
		Getenv:  ios.Getenv,
		Environ: ios.Environ(),
		Cwd:     cwd,
		Host:    opts.host,

		StopSignalWindow: stopSignalWindow,
		Started:          processStart,
		Now:              stopHookNow,
	})
	if len(out.Stdout) > 0 {
		if _, err := ios.Out.Write(out.Stdout); err != nil {
			return &hookExit{1}
		}
	}
	return &hookExit{out.ExitCode}
}

// processStart is when the process started: a host's timeout for its hook counts from about then.
var processStart = time.Now()

// notifyTermination ends ctx at SIGINT, SIGTERM or SIGHUP with a stophook.Signalled cause saying
// which and when: whether it came at the host's timeout decides the reply. stop ends the watch.
func notifyTermination(parent context.Context) (_ context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		defer close(done)
		select {
		case s := <-sigs:
			cancel(&stophook.Signalled{Signal: s, At: time.Now()})
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		cancel(nil)
		<-done
	}
}

// hostFlag is the host a hook command's --host names (auto included): a usage error otherwise.
func hostFlag(host string) (stophook.Host, error) {
	h, ok := stophook.ParseHost(host)
	if !ok {
		return h, usagef("--host must be auto, %s, got %q", hosts.NameList(", "), host)
	}
	return h, nil
}
