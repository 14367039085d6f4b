package main

import (
	"context"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/gauntlet-dev/gauntlet/internal/hosts"
	"github.com/gauntlet-dev/gauntlet/internal/proc"
	"github.com/gauntlet-dev/gauntlet/internal/stophook"
)

// afterEditReadTimeout bounds the wait for the host's payload: the agent's tool call waits on us.
const afterEditReadTimeout = time.Second

// afterEditOptions are after-edit's command line and its surroundings.
type afterEditOptions struct {
	IO           *IOStreams
	host         stophook.Host
	sessionEnd   bool
	sessionStart bool
}

func newAfterEditCmd(ios *IOStreams, runF func(*afterEditOptions) error) *cobra.Command {
	opts := &afterEditOptions{IO: ios}
	var host string
	cmd := &cobra.Command{
		Use:   "after-edit",
		Short: "Start a background judge after an agent's edit: called by the agent host, prints nothing",
		Long: `Called by the agent host after each tool call that can change files (init installs it). It
returns at once, prints nothing and never fails the tool call; it starts, detached, a judge of the
tree that waits for stop_hook.quiet_period without newer edits, runs the speculative gates at a
low priority, and leaves its verdict for the stop hook, which then joins it instead of starting
the gates. --session-start pins the commit the session starts from, which every later stop of
the session measures the change from; --session-end stops the session's judge.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			h, ok := stophook.ParseHost(host)
			if !ok {
				h = ""
			}
			opts.host = h
			if runF != nil {
				return runF(opts)
			}
			afterEdit(opts)
			return nil // never fail the agent's tool call
		},
	}
	cmd.Flags().StringVar(&host, "host", "auto", "the agent host's dialect: auto, "+hosts.NameList(", "))
	cmd.Flags().BoolVar(&opts.sessionEnd, "session-end", false, "the session ended: stop its background judge")
	cmd.Flags().BoolVar(&opts.sessionStart, "session-start", false, "a session starts: pin the commit its stops are measured from")
	cmd.MarkFlagsMutuallyExclusive("session-start", "session-end")
	return cmd
}

func afterEdit(opts *afterEditOptions) {
	ios := opts.IO
	stdin, restore := ios.PollableIn()
	defer restore()
	cwd, _ := ios.Getwd()
	o := stophook.Options{Stdin: stdin, Stderr: ios.ErrOut, Getenv: ios.Getenv, Environ: ios.Environ(), Cwd: cwd,
		Host: opts.host, ReadTimeout: afterEditReadTimeout}
	switch {
	case opts.sessionEnd:
		stophook.EndSession(o)
		return
	case opts.sessionStart:
		if req, ok := stophook.StartSession(o, ios.Now()); ok {
			startJudge(ios, req)
		}
		return
	}
	if req, ok := stophook.RequestJudge(o, ios.Now()); ok {
		startJudge(ios, req)
	}
}

// startJudge starts `gauntlet judge` detached: its own session, no terminal, nothing inherited on
// stdin or stdout, so that neither the host nor the agent waits for it.
func startJudge(ios *IOStreams, req stophook.AfterEdit) {
	self, argv0 := selfPath()
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return
	}
	defer null.Close()
	cmd := exec.Command(self, "judge", "--root", req.Root, "--host", string(req.Host), "--session", req.Session,
		"--transcript", req.Transcript, "--seq", strconv.FormatInt(req.Seq, 10))
	cmd.Args[0] = argv0
	cmd.Dir = req.Root
	cmd.Stdin, cmd.Stdout, cmd.Stderr = null, null, null
	cmd.SysProcAttr = detached()
	if err := cmd.Start(); err != nil {
		ios.ErrOut.Write([]byte("gauntlet: after-edit: no judge started: " + err.Error() + "\n"))
		return
	}
	cmd.Process.Release()
}

// selfPath is the program to start again: this one, by the name it was started with, so that a
// program that is several commands by its name stays the same command.
func selfPath() (path, argv0 string) {
	argv0 = os.Args[0]
	if strings.ContainsRune(argv0, os.PathSeparator) {
		return argv0, argv0
	}
	if p, err := exec.LookPath(argv0); err == nil {
		return p, argv0
	}
	exe, _ := os.Executable()
	return exe, exe
}

// judgeOptions are judge's command line and its surroundings.
type judgeOptions struct {
	IO  *IOStreams
	req stophook.AfterEdit
}

func newJudgeCmd(ios *IOStreams, runF func(*judgeOptions) error) *cobra.Command {
	opts := &judgeOptions{IO: ios}
	req := &opts.req
	var host string
	cmd := &cobra.Command{
		Use:    "judge",
		Short:  "The background judge that after-edit starts (not for direct use)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			req.Host, _ = stophook.ParseHost(host)
			if runF != nil {
				return runF(opts)
			}
			return runJudge(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&req.Root, "root", "", "the project root")
	f.StringVar(&host, "host", "claude", "the host")
	f.StringVar(&req.Session, "session", "", "the session id")
	f.StringVar(&req.Transcript, "transcript", "", "the session transcript")
	f.Int64Var(&req.Seq, "seq", 0, "the request this judge answers")
	return cmd
}

func runJudge(ctx context.Context, opts *judgeOptions) error {
	ios := opts.IO
	proc.Background()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	return stophook.Judge(ctx, stophook.JudgeOptions{Stderr: ios.ErrOut, Getenv: ios.Getenv, Environ: ios.Environ(), Request: opts.req})
}
