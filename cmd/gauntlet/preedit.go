package main

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/gauntlet-dev/gauntlet/internal/hosts"
	"github.com/gauntlet-dev/gauntlet/internal/preedit"
	"github.com/gauntlet-dev/gauntlet/internal/stophook"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// preEditDeadline bounds the whole judgment after the payload is read: the agent's tool call
// waits on it, and a guard that cannot decide in time lets the call through (the stop judges it).
const preEditDeadline = 5 * time.Second

// preEditOptions are pre-edit's command line and its surroundings.
type preEditOptions struct {
	IO   *IOStreams
	host stophook.Host
}

func newPreEditCmd(ios *IOStreams, runF func(*preEditOptions) error) *cobra.Command {
	opts := &preEditOptions{IO: ios}
	var host string
	cmd := &cobra.Command{
		Use:   "pre-edit",
		Short: "Refuse an agent's edit or shell command that weakens the gates, before it runs: called by the agent host",
		Long: `Called by the agent host before a tool call that writes or edits a file or runs a shell command
(init installs it: Claude Code's PreToolUse, Gemini CLI's BeforeTool, Copilot CLI's preToolUse). It
applies the edit to the file in memory and judges it with the integrity rules the stop uses (a
test removed or skipped, an assertion dropped, a lint rule turned off, a gate's config or script
weakened; a --no-verify or a hook bypass in a command). A weakening is refused in the host's deny
shape with the reason and the honest way forward (stop_hook.pre_edit: deny|warn|off); anything
else prints nothing. It runs no gate, never fails the tool call on its own trouble, and the stop
still judges the whole change.`,
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
			runPreEdit(cmd.Context(), opts)
			return nil
		}),
	}
	cmd.Flags().StringVar(&host, "host", "auto", "the agent host's dialect: auto, "+hosts.NameList(", "))
	return cmd
}

// runPreEdit judges the call on stdin and prints the host's answer. Whatever goes wrong (a payload
// it cannot read, git failing, the deadline) lets the call through with one line on stderr: an
// edit guard must not trap the agent.
func runPreEdit(ctx context.Context, opts *preEditOptions) {
	ios := opts.IO
	stdin, restore := ios.PollableIn()
	defer restore()
	p, err := stophook.ReadPayload(stdin, 0)
	if err != nil {
		ios.ErrOut.Write([]byte("gauntlet pre-edit: the call is let through: " + termtext.Line(err.Error()) + "\n"))
		return
	}
	host := opts.host
	if host == "" {
		host = preedit.HostOf(p)
	}
	ctx, cancel := context.WithTimeout(ctx, preEditDeadline)
	defer cancel()
	cwd, _ := ios.Getwd()
	v, err := preedit.Judge(ctx, preedit.Options{Call: preedit.CallOf(p), Host: host, Dir: cwd})
	if err != nil {
		ios.ErrOut.Write([]byte("gauntlet pre-edit: the call is let through, not judged: " + termtext.Line(err.Error()) + "\n"))
		v = preedit.Verdict{}
	}
	if len(v.Findings) > 0 {
		ios.ErrOut.Write([]byte(preedit.Reason(v) + "\n"))
	}
	ios.Out.Write(preedit.Reply(host, v))
}
