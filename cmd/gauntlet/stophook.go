package main

import (
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/gauntlet-dev/gauntlet/internal/stophook"
)

// hookExit carries the stop hook's own exit code (0, or 1 for bad input): the host protocol
// decides it, and the reply on stdout already said everything.
type hookExit struct{ code int }

func (e *hookExit) Error() string { return "stop-hook exit" }

func newStopHookCmd(io streams) *cobra.Command {
	var host string
	cmd := &cobra.Command{
		Use:   "stop-hook",
		Short: "Judge an agent's attempt to stop: called by the agent host with a JSON payload on stdin",
		Long: `Run the gates when a coding agent tries to stop and answer its host: a failure blocks the
stop with a reason the agent can act on; a pass, warnings, the retry limit and infrastructure
errors let it stop. stdout carries only the reply; diagnostics go to stderr.`,
		Args: cobra.NoArgs,
		RunE: runE(func(cmd *cobra.Command, _ []string) error {
			h, ok := stophook.ParseHost(host)
			if !ok {
				return usagef("--host must be auto, claude, codex, cursor, gemini or copilot, got %q", host)
			}
			// The host may end the hook with a signal at its own timeout: stop the gates first.
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
			defer stop()
			stdin, restore := deadlineCapable(io.In)
			defer restore()
			cwd, _ := os.Getwd()
			out := stophook.Run(ctx, stophook.Options{
				Stdin:   stdin,
				Stderr:  io.Err,
				Getenv:  os.Getenv,
				Environ: os.Environ(),
				Cwd:     cwd,
				Host:    h,
			})
			if len(out.Stdout) > 0 {
				if _, err := io.Out.Write(out.Stdout); err != nil {
					return &hookExit{1}
				}
			}
			return &hookExit{out.ExitCode}
		}),
	}
	cmd.Flags().StringVar(&host, "host", "auto", "the agent host's dialect: auto, claude, codex, cursor, gemini or copilot")
	return cmd
}

// deadlineCapable makes the process's stdin pollable, so that reading the payload can time out
// without leaving a goroutine blocked in read(2). Other readers are returned as they are.
func deadlineCapable(in io.Reader) (io.Reader, func()) {
	if in != os.Stdin {
		return in, func() {}
	}
	const fd = 0
	if err := syscall.SetNonblock(fd, true); err != nil {
		return in, func() {}
	}
	// Restore blocking mode: a terminal shares it with the shell that started us.
	return os.NewFile(fd, "/dev/stdin"), func() { syscall.SetNonblock(fd, false) }
}
