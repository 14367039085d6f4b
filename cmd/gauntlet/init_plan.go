package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/atomicfile"
	"github.com/gauntlet-dev/gauntlet/internal/hookfile"
	"github.com/gauntlet-dev/gauntlet/internal/hosts"
	"github.com/gauntlet-dev/gauntlet/internal/preflight"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
	"github.com/gauntlet-dev/gauntlet/internal/scaffold"
)

// initPlan is everything init will do, worked out before anything is written: a hook file that
// cannot be merged stops init before it has touched any file.
type initPlan struct {
	root       string
	notes      []string // said before the steps
	steps      []initStep
	configName string // the config file, relative to root
	hostName   string
	hookDone   bool // the hook is in place, from this run or an earlier one
	// stopHookTimeout is the config's stop_hook.timeout, which the host's hook timeout must exceed.
	stopHookTimeout time.Duration
	// gateCommands are the config's gates' commands with their folders: only where one runs
	// prettier does its check read the file init writes.
	gateCommands []gateCommand
	// written are the root-relative files this init wrote; configWritten, whether the config is
	// one of them (only then is there a first run to make).
	written       []string
	configWritten bool
}

// wrote notes that init wrote the root-relative file path.
func (p *initPlan) wrote(path string) {
	p.written = append(p.written, path)
	if path == p.configName {
		p.configWritten = true
	}
}

// gateCommand is one gate's command and the folder it runs in.
type gateCommand struct{ dir, run string }

// keepGateCommands notes cfg's gates' commands for the later steps.
func (p *initPlan) keepGateCommands(cfg *config.Config) {
	for _, g := range cfg.Gates {
		p.gateCommands = append(p.gateCommands, gateCommand{dir: g.Dir, run: g.Run})
	}
}

// initStep is one file write.
type initStep struct {
	path     string // the file written, relative to the root
	preview  string // shown on a terminal before asking
	question string
	apply    func() error
	result   string // said once written
	skipped  string // said when the user declines
}

func planInit(ctx context.Context, opts initOptions, host hosts.Name, env initEnv) (*initPlan, error) {
	p := &initPlan{root: scaffold.RepoRoot(ctx, env.dir), hostName: hosts.MustGet(host).Display}
	if err := p.planConfig(opts.force); err != nil {
		return nil, err
	}
	if err := p.planGitignore(); err != nil {
		return nil, err
	}
	if err := p.planPrettierIgnore(); err != nil {
		return nil, err
	}
	if !opts.noHook {
		if err := p.planHook(host, opts.shared, env.resolver); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func (p *initPlan) planConfig(force bool) error {
	p.configName = config.FileName
	existing := ""
	for _, name := range []string{config.FileName, config.AltFileName} {
		if _, err := os.Lstat(filepath.Join(p.root, name)); err == nil {
			existing = name
			break
		}
	}
	if existing != "" && !force {
		p.configName = existing
		p.notes = append(p.notes, fmt.Sprintf("kept %s as it is (pass --force to replace it)", existing))
		// The hook and the preflight still follow the config that stays, when it loads.
		path := filepath.Join(p.root, existing)
		if data, err := readBounded(path); err == nil {
			if cfg, err := config.Parse(path, data, p.root); err == nil {
				p.stopHookTimeout = cfg.StopHook.Timeout
				p.keepGateCommands(cfg)
				p.notePreflight(cfg)
			}
		}
		return nil
	}
	if existing != "" {
		p.configName = existing // replace the file gauntlet reads, not shadow it
	}
	projects, err := scaffold.Detect(p.root)
	if err != nil {
		return err
	}
	// First line: editors validate and complete the file from the schema of the gauntlet that
	// wrote it.
	v, _ := versionInfo()
	content := append([]byte(config.SchemaLine(v)), scaffold.Render(projects)...)
	path := filepath.Join(p.root, p.configName)
	// The file must be one that gauntlet accepts; finding out here beats writing a broken one.
	cfg, err := config.Parse(path, content, p.root)
	if err != nil {
		return fmt.Errorf("the generated %s does not load (please report this): %w", p.configName, err)
	}
	p.stopHookTimeout = cfg.StopHook.Timeout
	p.keepGateCommands(cfg)
	if d := scaffold.StopHookTimeout(scaffold.Layout(projects)); d.Raised {
		p.notes = append(p.notes, fmt.Sprintf(
			"the slowest gate, %s, may take up to %s on a first (cold) run, more than the stop hook's default %s: "+
				"%s sets stop_hook.timeout: %s, and the host's hook timeout goes above it",
			d.Slowest.Name, formatDuration(d.Slowest.Timeout), formatDuration(config.DefaultStopHookTimeout),
			p.configName, formatDuration(d.Timeout)))
	}
	p.notePreflight(cfg)
	verb, what := "write", "new"
	if existing != "" {
		verb, what = "replace", "replaces the existing file"
	}
	p.steps = append(p.steps, initStep{
		path:     p.configName,
		preview:  fmt.Sprintf("%s (%s):\n\n%s", p.configName, what, content),
		question: fmt.Sprintf("%s %s?", capitalize(verb), p.configName),
		apply:    func() error { return atomicfile.Write(path, content, 0o644) },
		result:   fmt.Sprintf("wrote %s: %s", p.configName, describeGates(cfg)),
		skipped:  p.configName + " not written",
	})
	return nil
}

func describeGates(cfg *config.Config) string {
	if len(cfg.Gates) == 0 {
		return "no project detected, so no gates yet: the file has an example to start from"
	}
	names := make([]string, len(cfg.Gates))
	for i, g := range cfg.Gates {
		names[i] = g.Name
	}
	noun := " gates ("
	if len(names) == 1 {
		noun = " gate ("
	}
	return fmt.Sprint(len(names)) + noun + strings.Join(names, ", ") + ")"
}

func (p *initPlan) planGitignore() error {
	path := filepath.Join(p.root, ".gitignore")
	data, err := safefile.ReadFile(path, 4<<20, time.Now().Add(10*time.Second))
	missing := errors.Is(err, fs.ErrNotExist)
	if err != nil && !missing {
		return fmt.Errorf("read .gitignore: %w", err)
	}
	updated, added := scaffold.Gitignore(data)
	if len(added) == 0 {
		p.notes = append(p.notes, ".gitignore already lists "+strings.Join(scaffold.IgnoredEntries, " and "))
		return nil
	}
	state, done := "exists", "added to"
	if missing {
		state, done = "new", "created"
	}
	p.steps = append(p.steps, initStep{
		path:     ".gitignore",
		preview:  fmt.Sprintf(".gitignore (%s), lines to add:\n  %s", state, strings.Join(added, "\n  ")),
		question: "Update .gitignore?",
		apply:    func() error { return atomicfile.Write(path, updated, 0o644) },
		result:   fmt.Sprintf("%s .gitignore: %s", done, strings.Join(added, ", ")),
		skipped:  ".gitignore not changed",
	})
	return nil
}

// planPrettierIgnore lists the config in .prettierignore where the root formats with prettier
// and a gate runs it, whose check would otherwise fail on the file init writes. Where no gate
// runs prettier, the project's files are left as they are.
func (p *initPlan) planPrettierIgnore() error {
	if !scaffold.UsesPrettier(p.root) || !slices.ContainsFunc(p.gateCommands, func(g gateCommand) bool {
		return scaffold.RunsPrettier(p.root, g.dir, g.run)
	}) {
		return nil
	}
	path := filepath.Join(p.root, ".prettierignore")
	data, err := safefile.ReadFile(path, 4<<20, time.Now().Add(10*time.Second))
	missing := errors.Is(err, fs.ErrNotExist)
	if err != nil && !missing {
		return fmt.Errorf("read .prettierignore: %w", err)
	}
	updated, added := scaffold.PrettierIgnore(data, p.configName)
	if !added {
		return nil
	}
	state, done := "exists", "added to"
	if missing {
		state, done = "new", "created"
	}
	p.steps = append(p.steps, initStep{
		path: ".prettierignore",
		preview: fmt.Sprintf(".prettierignore (%s), line to add, so that prettier's check passes over the file init writes:\n  %s",
			state, p.configName),
		question: "Update .prettierignore?",
		apply:    func() error { return atomicfile.Write(path, updated, 0o644) },
		result:   fmt.Sprintf("%s .prettierignore: %s", done, p.configName),
		skipped:  ".prettierignore not changed",
	})
	return nil
}

func (p *initPlan) planHook(host hosts.Name, shared bool, r hookfile.Resolver) error {
	// Spelt for the shell the host runs hooks with on this system (PowerShell for most hosts
	// on Windows).
	program, bare := hookfile.StopHookProgram(r)
	command, byPath := hookfile.HookCommand(host, runtime.GOOS, program, bare, hookfile.HostArgs(host, "stop-hook")), !bare
	c, err := hookfile.PlanTimeout(p.root, host, shared, command, hookfile.HookTimeoutFor(p.stopHookTimeout))
	var invalid *hookfile.InvalidFileError
	if errors.As(err, &invalid) {
		return &usageError{err}
	}
	if err != nil {
		return err
	}
	if c.Installed {
		p.hookDone = true
		p.notes = append(p.notes, fmt.Sprintf("%s already runs gauntlet stop-hook for %s", c.Rel, p.hostName))
		if need := hookfile.HookTimeoutFor(p.stopHookTimeout); need > hookfile.HookTimeoutSeconds && !hookAllows(p.root, host, c.Rel, need) {
			// The entry there is the user's: init leaves it, but its timeout may now be too short.
			p.notes = append(p.notes, fmt.Sprintf("  stop_hook.timeout is %s: make sure that hook's timeout is at least %d seconds",
				formatDuration(p.stopHookTimeout), need))
		}
		return nil
	}
	// With the stop hook come the after-edit hooks that start a background judge of each edit, so
	// that the verdict is ready when the agent stops (where the host has such an event).
	if err := c.WithAfterEdit(command); err != nil {
		return &usageError{err}
	}
	if byPath {
		p.notes = append(p.notes, fmt.Sprintf("`gauntlet` on PATH is not this program, so the hook runs it by its full path: %s", command))
	}
	state := "new file"
	if c.Exists {
		state = "exists: every other key and hook is kept"
	}
	p.steps = append(p.steps, initStep{
		path:     filepath.ToSlash(c.Rel),
		preview:  fmt.Sprintf("%s (%s), add:\n  %s", c.Rel, state, strings.Join(c.Entries, "\n  ")),
		question: hookQuestion(p.hostName, c.Rel, len(c.Entries)),
		apply: func() error {
			if err := c.Apply(); err != nil {
				return err
			}
			p.hookDone = true
			return nil
		},
		result:  fmt.Sprintf("installed the %s stop hook in %s (%s)", p.hostName, c.Rel, c.Where),
		skipped: "stop hook not installed",
	})
	return nil
}

// hookQuestion asks before installing the host's hooks, naming all of them: a question about
// "the stop hook" alone once installed the edit hooks (which can refuse an edit) as well.
func hookQuestion(host, rel string, entries int) string {
	if entries > 1 {
		return fmt.Sprintf("Install the %s hooks above (the stop hook and the edit hooks) in %s?", host, rel)
	}
	return fmt.Sprintf("Install the %s stop hook in %s?", host, rel)
}

// hookAllows reports whether the stop-hook entry already in the host's file rel gives the hook at
// least need seconds: then there is nothing to advise.
func hookAllows(root string, host hosts.Name, rel string, need int) bool {
	for _, f := range hookfile.Inspect(root, host) {
		if f.File != rel {
			continue
		}
		for _, h := range f.Hooks {
			if h.Timeout >= time.Duration(need)*time.Second {
				return true
			}
		}
	}
	return false
}

func printNextSteps(w io.Writer, p *initPlan, opts initOptions) {
	fmt.Fprintf(w, "\nNext steps:\n")
	fmt.Fprintf(w, "  gauntlet run --all     run every gate now (a plain gauntlet run checks only what the change touches)\n")
	fmt.Fprintf(w, "  edit %-17s adjust commands, timeouts and paths; gauntlet validate checks it\n", p.configName)
	switch {
	case p.hookDone:
		fmt.Fprintf(w, "  %s is now gated: when the agent stops, the gates run, and a failing gate sends it back to work.\n", p.hostName)
	case opts.noHook:
		fmt.Fprintf(w, "  gate an agent later with: gauntlet init --host %s\n", opts.host)
	default:
		fmt.Fprintf(w, "  install the stop hook later with: gauntlet init --host %s\n", opts.host)
	}
}

// notePreflight says which tools the gates need that this machine lacks. The gates are written
// all the same: the config is for the project, not for this machine, and a gate whose tool is
// missing reports `error` (the environment), never `fail`.
func (p *initPlan) notePreflight(cfg *config.Config) {
	problems := preflight.Grouped(preflight.Check(p.root, cfg.Gates))
	if len(problems) == 0 {
		return
	}
	var b strings.Builder
	b.WriteString("preflight: the gates need what this machine lacks (they are written anyway, and report error until it is installed):")
	for _, pr := range problems {
		fmt.Fprintf(&b, "\n  %s", pr)
	}
	p.notes = append(p.notes, b.String())
}

// formatDuration writes whole minutes as "9m" rather than Go's "9m0s".
func formatDuration(d time.Duration) string {
	if d%time.Minute == 0 {
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return d.String()
}

// readBounded reads a config file kept by init, which is never large.
func readBounded(path string) ([]byte, error) {
	return safefile.ReadFile(path, 4<<20, time.Now().Add(10*time.Second))
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
