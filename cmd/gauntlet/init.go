package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gauntlet-dev/gauntlet/internal/hookfile"
	"github.com/gauntlet-dev/gauntlet/internal/hosts"
)

type initOptions struct {
	IO     *IOStreams
	host   string
	shared bool
	noHook bool
	yes    bool
	force  bool
	// run runs every gate once after the writes (--run); runSet says the flag was given, else a
	// terminal is asked.
	run    bool
	runSet bool
}

// initEnv is what init takes from its surroundings, so that tests can stand in for a terminal
// and for the program's place on PATH.
type initEnv struct {
	ios         *IOStreams
	dir         string // the working directory
	interactive bool   // stdin and stdout are terminals: ask before each write
	prompter    prompter
	resolver    hookfile.Resolver
	out         io.Writer
}

func newInitCmd(ios *IOStreams, runF func(*initOptions) error) *cobra.Command {
	opts := &initOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Write a .gauntlet.yml for this project and install the agent stop hook",
		Long: `Detect the projects (go.mod, package.json, pyproject.toml, Cargo.toml, Makefile; in the
repository root and the folders directly under it) and write a commented .gauntlet.yml whose
gates run the checks the project already declares (CI workflows, pre-commit, lefthook, Makefile,
justfile and Taskfile targets, package.json scripts, tox and nox envs, linter configs), each
commented with its source, scoped by paths when the repository holds several projects. Say which
tools the gates need that are missing here. Add .gauntlet/ and .gauntlet.local.yml to
.gitignore, and install gauntlet stop-hook in the agent host's hook file, merged into what is
there. Files go to the root of the git repository, or to the working directory outside git.

On a terminal, init shows each change and asks before writing it; otherwise it needs --yes.
An existing .gauntlet.yml is kept unless --force.

With --run (asked on a terminal), once the config is written init runs every gate on the tree
as it is, as gauntlet run --all does, and marks in the file each gate that fails there as
failing before any change, or could not run; that run keeps the tests it counted as the base's,
so that the first agent stop does not measure the base. init's exit code is 0 whatever that
run's verdict: the run's summary says it.`,
		Args: cobra.NoArgs,
		RunE: runE(func(cmd *cobra.Command, _ []string) error {
			opts.runSet = cmd.Flags().Changed("run")
			if runF != nil {
				return runF(opts)
			}
			dir, err := ios.Getwd()
			if err != nil {
				return fmt.Errorf("working directory: %w", err)
			}
			env := initEnv{
				ios:         ios,
				dir:         dir,
				interactive: ios.StdinTTY && ios.StdoutTTY,
				prompter:    &linePrompter{in: bufio.NewReader(ios.In), out: ios.Out},
				resolver:    hookfile.SystemResolver(),
				out:         ios.Out,
			}
			return runInit(cmd.Context(), *opts, env)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&opts.host, "host", string(hosts.Claude), "the agent host to install the stop hook for: "+hosts.NameList(", "))
	f.BoolVar(&opts.shared, "shared", false, "Claude Code: install in .claude/settings.json (committed) instead of settings.local.json")
	f.BoolVar(&opts.noHook, "no-hook", false, "do not install the stop hook")
	f.BoolVarP(&opts.yes, "yes", "y", false, "write without asking (required when not on a terminal)")
	f.BoolVar(&opts.force, "force", false, "replace an existing .gauntlet.yml")
	f.BoolVar(&opts.run, "run", false, "once the config is written, run every gate on the tree as it is and mark the ones failing there (asked on a terminal)")
	return cmd
}

func runInit(ctx context.Context, opts initOptions, env initEnv) error {
	host, ok := hosts.Parse(opts.host)
	if !ok {
		return usagef("--host must be one of %s, got %q", hosts.NameList(", "), opts.host)
	}
	if !env.interactive && !opts.yes {
		return usagef("not on a terminal, so init cannot ask before writing: pass --yes to write without asking")
	}
	p, err := planInit(ctx, opts, host, env)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.out, "gauntlet init in %s\n", p.root)
	for _, note := range p.notes {
		fmt.Fprintln(env.out, note)
	}
	ask := env.interactive && !opts.yes
	for _, s := range p.steps {
		if ask {
			fmt.Fprintf(env.out, "\n%s\n", strings.TrimRight(s.preview, "\n"))
			yes, err := env.prompter.Confirm(s.question)
			if err != nil {
				return fmt.Errorf("read answer: %w", err)
			}
			if !yes {
				fmt.Fprintf(env.out, "skipped: %s\n", s.skipped)
				continue
			}
		}
		if err := s.apply(); err != nil {
			return err
		}
		p.wrote(s.path)
		fmt.Fprintln(env.out, s.result)
	}
	printNextSteps(env.out, p, opts)
	if p.hookDone {
		printInitChecks(ctx, env, host)
	}
	run, err := wantsFirstRun(opts, env, p)
	if err != nil || !run {
		return err
	}
	return firstRun(ctx, env, p)
}

// prompter asks a yes-or-no question; no is the answer to anything but yes.
type prompter interface {
	Confirm(question string) (bool, error)
	// ConfirmYes asks a question whose answer is yes unless the user says no.
	ConfirmYes(question string) (bool, error)
}

type linePrompter struct {
	in  *bufio.Reader
	out io.Writer
}

func (p *linePrompter) Confirm(question string) (bool, error) {
	answer, err := p.ask(question + " [y/N] ")
	return answer == "y" || answer == "yes", err
}

func (p *linePrompter) ConfirmYes(question string) (bool, error) {
	answer, err := p.ask(question + " [Y/n] ")
	if err != nil {
		return false, err
	}
	return answer != "n" && answer != "no", nil
}

// ask prints prompt and reads one answer, lower-cased; end of input is the empty answer.
func (p *linePrompter) ask(prompt string) (string, error) {
	fmt.Fprint(p.out, prompt)
	line, err := p.in.ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	if err != nil {
		fmt.Fprintln(p.out) // end of input: finish the prompt's line
	}
	return strings.ToLower(strings.TrimSpace(line)), nil
}
