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
An existing .gauntlet.yml is kept unless --force.`,
		Args: cobra.NoArgs,
		RunE: runE(func(cmd *cobra.Command, _ []string) error {
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
		fmt.Fprintln(env.out, s.result)
	}
	printNextSteps(env.out, p, opts)
	if p.hookDone {
		printInitChecks(ctx, env, host)
	}
	return nil
}

// prompter asks a yes-or-no question; no is the answer to anything but yes.
type prompter interface {
	Confirm(question string) (bool, error)
}

type linePrompter struct {
	in  *bufio.Reader
	out io.Writer
}

func (p *linePrompter) Confirm(question string) (bool, error) {
	fmt.Fprintf(p.out, "%s [y/N] ", question)
	line, err := p.in.ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return false, err
	}
	if err != nil {
		fmt.Fprintln(p.out) // end of input: finish the prompt's line
	}
	answer := strings.ToLower(strings.TrimSpace(line))
	return answer == "y" || answer == "yes", nil
}
