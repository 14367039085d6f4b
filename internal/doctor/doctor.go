// Package doctor checks that an agent host really runs gauntlet's stop hook: the config loads,
// the hook is in the host's file and runs this gauntlet, its limits fit, the host trusts the
// project; then it shows what the agent would be told.
package doctor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/hookfile"
	"github.com/gauntlet-dev/gauntlet/internal/hosts"
	"github.com/gauntlet-dev/gauntlet/internal/preflight"
	"github.com/gauntlet-dev/gauntlet/internal/scaffold"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// Level is how bad a check's finding is.
type Level string

const (
	OK      Level = "ok"
	Warn    Level = "warn"
	Problem Level = "problem"
)

// Check is one finding, with the fix in one line when there is something to do.
type Check struct {
	Host    hosts.Name `json:"host,omitempty"`
	Name    string     `json:"name"`
	Level   Level      `json:"level"`
	Message string     `json:"message"`
	Fix     string     `json:"fix,omitempty"`
}

// Report is everything doctor found.
type Report struct {
	Root   string       `json:"root"`
	Hosts  []hosts.Name `json:"hosts"` // the hosts checked
	Checks []Check      `json:"checks"`
	// DryRuns is what each host's agent would be told on stopping now.
	DryRuns  []DryRun `json:"dry_runs,omitempty"`
	Problems int      `json:"problems"`
	Warnings int      `json:"warnings"`
}

func (r *Report) add(c Check) {
	r.Checks = append(r.Checks, c)
	switch c.Level {
	case Problem:
		r.Problems++
	case Warn:
		r.Warnings++
	}
}

// Env is what doctor reads from its surroundings; tests fake the home directory and PATH.
type Env struct {
	Dir    string // the working directory
	Home   string
	Getenv func(string) string
	// Resolver finds programs on PATH and this program itself.
	Resolver hookfile.Resolver
	// Version is this program's `gauntlet version` line.
	Version string
	// VersionOf runs `PATH version` and returns its first line; nil uses runVersion.
	VersionOf func(ctx context.Context, path string) (string, error)
	// HelpOf runs `PATH ARGS...` (stop-hook's arguments and --help) and says whether it answered;
	// nil uses runHelp.
	HelpOf func(ctx context.Context, path string, args []string) error
	// StopHookArgs parses a hook's arguments after `stop-hook` as this gauntlet's stop-hook
	// does, returning its --host; nil leaves them unchecked.
	StopHookArgs func(args []string) (host string, err error)
}

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// display shortens a path under the home directory to ~/...
func (e Env) display(path string) string {
	if e.Home != "" {
		if rel, err := filepath.Rel(e.Home, path); err == nil && filepath.IsLocal(rel) {
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return path
}

// Options select what to check.
type Options struct {
	ConfigFile string       // -c: this config instead of searching
	Hosts      []hosts.Name // only these hosts; none: every host with a hook file
}

// Diagnose runs every check. The config is returned when it loads, for the dry run.
func Diagnose(ctx context.Context, opts Options, env Env) (*Report, *config.Config) {
	r := &Report{}
	cfg, err := config.Load(config.Options{Dir: env.Dir, File: opts.ConfigFile})
	r.Root = diagnoseRoot(ctx, cfg, err, opts.ConfigFile, env.Dir)
	r.add(configCheck(cfg, err))
	r.add(gitignoreCheck(ctx, r.Root))
	if cfg != nil {
		for _, c := range slices.Concat(toolChecks(cfg), censusChecks(cfg)) {
			r.add(c)
		}
	}
	names, explicit := hostsToCheck(r.Root, opts.Hosts)
	if len(names) == 0 {
		r.add(Check{Name: "hook", Level: Warn, Message: "no agent host's hook file is in this project: no agent is gated",
			Fix: "gauntlet init --host " + hosts.NameList("|") + " installs the stop hook"})
	}
	for _, h := range names {
		if checkHost(ctx, r, env, cfg, h, explicit) {
			r.Hosts = append(r.Hosts, h)
		}
	}
	return r, cfg
}

// diagnoseRoot is the project's root: the loaded config's, else the repository's, else the
// folder of the config that does not load.
func diagnoseRoot(ctx context.Context, cfg *config.Config, err error, configFile, dir string) string {
	switch {
	case err == nil:
		return cfg.Root
	case errors.Is(err, config.ErrNotFound):
		return scaffold.RepoRoot(ctx, dir)
	default:
		return rootOfBrokenConfig(configFile, dir)
	}
}

// configCheck reports whether the config loads.
func configCheck(cfg *config.Config, err error) Check {
	switch {
	case err == nil:
		return Check{Name: "config", Level: OK, Message: fmt.Sprintf("%s loads: %s", config.DisplayPath(cfg.Path), termtext.Count(len(cfg.Gates), "gate"))}
	case errors.Is(err, config.ErrNotFound):
		return Check{Name: "config", Level: Problem, Message: "no .gauntlet.yml found: the stop hook lets every agent stop unchecked",
			Fix: "gauntlet init writes one for this project"}
	default:
		return Check{Name: "config", Level: Problem, Message: "the config does not load: " + oneLine(err.Error()),
			Fix: "gauntlet validate lists every problem with its line"}
	}
}

// toolChecks run the same preflight as init, and look for every gate's program: a gate whose
// program is missing here would only ever error, so one that nothing could bring is a problem.
func toolChecks(cfg *config.Config) []Check {
	all := slices.Concat(cfg.Setup, cfg.Gates)
	var out []Check
	for _, p := range slices.Concat(preflight.Check(cfg.Root, all), preflight.Programs(cfg.Root, all)) {
		level, message := Warn, p.Gate+": "+p.Message
		switch {
		case p.Sure:
			level, message = Problem, message+": the gate cannot start"
		case p.Doubt != "":
			message += " (" + p.Doubt + ")"
		}
		out = append(out, Check{Name: "tool", Level: level, Message: message, Fix: p.Fix})
	}
	return out
}

// hostsToCheck are the hosts asked for, or else every host with a hook file in the project;
// explicit says they were asked for.
func hostsToCheck(root string, asked []hosts.Name) (names []hosts.Name, explicit bool) {
	if len(asked) > 0 {
		return asked, true
	}
	for _, h := range hosts.Names() {
		if len(hookfile.Inspect(root, h)) > 0 {
			names = append(names, h)
		}
	}
	return names, false
}

// checkHost checks one host's hook; it reports whether the hook is installed.
func checkHost(ctx context.Context, r *Report, env Env, cfg *config.Config, host hosts.Name, explicit bool) bool {
	spec := hosts.MustGet(host)
	hooks, names := readHostHooks(r, host)
	if len(hooks) == 0 {
		r.add(noHookCheck(spec, names, explicit))
		return false
	}
	for _, h := range hooks {
		checkHook(ctx, r, env, cfg, spec, h)
	}
	if cfg != nil && cfg.StopHook.Speculative {
		if c, ok := afterEditCheck(r.Root, spec); ok {
			r.add(c)
		}
	}
	if cfg == nil || cfg.StopHook.PreEdit != config.PreEditOff {
		r.add(preEditCheck(r.Root, spec))
	}
	if c, ok := disabledCheck(env, spec, r.Root); ok {
		r.add(c)
	}
	if spec.Verified != "" {
		r.add(Check{Host: host, Name: "host facts", Level: OK, Message: spec.Verified})
	}
	r.add(trustCheck(ctx, env, host, r.Root))
	r.add(Check{Host: host, Name: "messages", Level: OK,
		Message: spec.Messages + "; gauntlet status names every agent let go with gates failing"})
	return true
}

// readHostHooks returns the gauntlet stop hooks in host's hook files and the files' names,
// reporting each file that cannot be read.
func readHostHooks(r *Report, host hosts.Name) ([]hookfile.Hook, []string) {
	var hooks []hookfile.Hook
	var names []string
	for _, f := range hookfile.Inspect(r.Root, host) {
		names = append(names, f.File)
		if f.Err != nil {
			r.add(Check{Host: host, Name: "hook", Level: Problem, Message: fmt.Sprintf("%s cannot be read: %v", f.File, f.Err),
				Fix: "fix the file, then run gauntlet init --host " + string(host)})
			continue
		}
		hooks = append(hooks, f.Hooks...)
	}
	return hooks, names
}

// noHookCheck reports a host without a gauntlet stop hook: a problem when the host was asked
// for by name.
func noHookCheck(spec hosts.Host, files []string, explicit bool) Check {
	level, where := Warn, strings.Join(files, ", ")
	if explicit {
		level = Problem
	}
	if where == "" {
		where = "no " + spec.Hook.Files[0]
	}
	return Check{Host: spec.Name, Name: "hook", Level: level,
		Message: fmt.Sprintf("%s: no gauntlet stop hook under hooks.%s, so %s is not gated", where, spec.StopEvent, spec.Display),
		Fix:     "gauntlet init --host " + string(spec.Name)}
}

// checkHook checks one stop hook entry: what it runs, and, with a config, its timeout and cap.
func checkHook(ctx context.Context, r *Report, env Env, cfg *config.Config, spec hosts.Host, h hookfile.Hook) {
	r.add(Check{Host: spec.Name, Name: "hook", Level: OK, Message: fmt.Sprintf("%s runs %q on hooks.%s", h.File, h.Command, spec.StopEvent)})
	if c, ok := typeCheck(h); ok {
		r.add(c)
	} else {
		r.add(commandCheck(ctx, env, h))
	}
	if cfg == nil {
		return
	}
	r.add(timeoutCheck(spec, h, cfg.StopHook.Timeout))
	if c, ok := capCheckWithOverride(env, spec, h, cfg.StopHook.MaxAttempts); ok {
		r.add(c)
	}
}

// capCheckWithOverride is capCheck with the host's cap as the environment where doctor runs
// overrides it, saying so.
func capCheckWithOverride(env Env, spec hosts.Host, h hookfile.Hook, maxAttempts int) (Check, bool) {
	override, overridden := capOverride(env, spec)
	if overridden {
		h.Cap = max(override, 0)
	}
	c, ok := capCheck(spec, h, maxAttempts)
	switch {
	case !overridden:
		return c, ok
	case ok:
		c.Message += fmt.Sprintf(" (%s=%d in this environment)", spec.Cap.Env, override)
		return c, true
	}
	return Check{Host: spec.Name, Name: "cap", Level: OK, Message: fmt.Sprintf("%s=%d in this environment: %s does not cap consecutive blocks", spec.Cap.Env, override, spec.Display)}, true
}

// afterEditCheck reports whether the host's after-edit hooks are installed, which speculative
// judging needs; ok is false for a host without after-edit hooks.
func afterEditCheck(root string, spec hosts.Host) (Check, bool) {
	if missing := hookfile.MissingAfterEdit(root, spec.Name); len(missing) > 0 {
		return Check{Host: spec.Name, Name: "after-edit", Level: Warn,
			Message: fmt.Sprintf("no gauntlet after-edit hook under %s: the gates run only when the agent stops, not while it works", strings.Join(missing, ", ")),
			Fix:     "gauntlet init --host " + string(spec.Name) + " (or add `gauntlet after-edit` there)"}, true
	}
	if len(spec.AfterEdit) > 0 {
		return Check{Host: spec.Name, Name: "after-edit", Level: OK,
			Message: "gauntlet after-edit runs after the agent's edits: verdicts are judged in the background before it stops"}, true
	}
	return Check{}, false
}

// preEditCheck reports whether the host's edit guard (gauntlet pre-edit) is installed: without
// it an edit that weakens the gates is caught only at the stop.
func preEditCheck(root string, spec hosts.Host) Check {
	c := Check{Host: spec.Name, Name: "pre-edit", Level: OK}
	if len(spec.PreEdit) == 0 {
		c.Message = spec.Display + "'s editing tools are not verified: its edits are judged at the stop"
		return c
	}
	if missing := hookfile.MissingPreEdit(root, spec.Name); len(missing) > 0 {
		c.Level = Warn
		c.Message = fmt.Sprintf("no gauntlet pre-edit hook under %s: an edit that weakens the gates is caught only at the stop", strings.Join(missing, ", "))
		c.Fix = "gauntlet init --host " + string(spec.Name) + " (or add `gauntlet pre-edit` there)"
		return c
	}
	events := make([]string, 0, len(spec.PreEdit))
	for _, ev := range spec.PreEdit {
		events = append(events, "hooks."+ev.Event)
	}
	c.Message = fmt.Sprintf("gauntlet pre-edit judges each edit and shell command before it runs (%s)", strings.Join(events, ", "))
	return c
}

// versionWord is the version in a `gauntlet version` line: "gauntlet v1.2.0 (commit ...)".
func versionWord(line string) string {
	fields := strings.Fields(line)
	if len(fields) >= 2 {
		return fields[1]
	}
	return strings.TrimSpace(line)
}

// versionTimeout bounds `gauntlet version` of another program: it answers at once or not at all.
const versionTimeout = 5 * time.Second

func runVersion(ctx context.Context, path string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, versionTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "version")
	out := &git.CappedBuffer{Limit: 4 << 10, Truncate: true}
	cmd.Stdout = out
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("no answer within %s", versionTimeout)
		}
		return "", err
	}
	line, _, _ := strings.Cut(out.String(), "\n")
	return line, nil
}

func timeoutCheck(spec hosts.Host, h hookfile.Hook, stopTimeout time.Duration) Check {
	c := Check{Host: h.Host, Name: "timeout"}
	if h.Timeout <= 0 {
		c.Level = OK
		c.Message = fmt.Sprintf("%s sets no timeout for the hook and %s's default is not known; stop_hook.timeout is %s", h.File, spec.Display, stopTimeout)
		return c
	}
	whose := "set in " + h.File
	if !h.TimeoutSet {
		whose = spec.Display + "'s default"
	}
	if stopTimeout < h.Timeout {
		c.Level = OK
		c.Message = fmt.Sprintf("stop_hook.timeout %s is below the hook's %s (%s)", stopTimeout, h.Timeout, whose)
		return c
	}
	c.Level = Problem
	c.Message = fmt.Sprintf("stop_hook.timeout %s is not below the hook's %s (%s): %s kills gauntlet before it answers", stopTimeout, h.Timeout, whose, spec.Display)
	want := spec.TimeoutValue(time.Duration(hookfile.HookTimeoutFor(stopTimeout)) * time.Second)
	c.Fix = fmt.Sprintf("set %q: %d in %s, or lower stop_hook.timeout", orDefault(h.TimeoutKey, spec.TimeoutKey), want, h.File)
	return c
}

// ordinal is n as "1st", "2nd", "3rd", "8th", "11th", "22nd".
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}

// capCheck compares max_attempts with the host's own cap on consecutive blocks: past it the
// host ends the loop itself, without the retry-limit message.
func capCheck(spec hosts.Host, h hookfile.Hook, maxAttempts int) (Check, bool) {
	if h.Cap <= 0 {
		return Check{}, false
	}
	c := Check{Host: h.Host, Name: "cap"}
	what := fmt.Sprintf("%s ends the turn after %d consecutive blocks", spec.Display, h.Cap)
	if spec.Cap.OnBlock {
		what = fmt.Sprintf("%s ends the turn on the %s consecutive block", spec.Display, ordinal(h.Cap))
	}
	allowed := spec.Cap.Allowed(h.Cap)
	if spec.Cap.Key != "" {
		what = fmt.Sprintf("%s's %s is %d", spec.Display, spec.Cap.Key, h.Cap)
	}
	if spec.Cap.Resets != "" {
		what += "; the count starts again when " + spec.Cap.Resets
	}
	if maxAttempts <= allowed {
		c.Level, c.Message = OK, fmt.Sprintf("stop_hook.max_attempts %d is within the host's cap (%s)", maxAttempts, what)
		return c, true
	}
	c.Level = Warn
	c.Message = fmt.Sprintf("stop_hook.max_attempts %d is above the host's cap (%s): the host ends the loop first, without gauntlet's retry-limit message", maxAttempts, what)
	c.Fix = fmt.Sprintf("set stop_hook.max_attempts to %d or less", allowed)
	if spec.Cap.Env != "" {
		c.Fix += fmt.Sprintf(", or raise %s in the environment %s starts with", spec.Cap.Env, spec.Display)
	}
	if spec.Cap.Key != "" {
		c.Fix += fmt.Sprintf(", or raise %s in %s", spec.Cap.Key, h.File)
	}
	return c, true
}

// gitignoreCheck: .gauntlet/ holds logs and state that must not be committed. A file inside it
// is asked about, so that the .gitignore the state directory writes for itself counts as well as
// an entry in the repository's own.
func gitignoreCheck(ctx context.Context, root string) Check {
	c := Check{Name: "gitignore"}
	err := git.Run(ctx, root, nil, "check-ignore", "-q", "--no-index", state.Name+"/last-run.json")
	var gerr *git.Error
	switch {
	case err == nil:
		c.Level, c.Message = OK, ".gauntlet/ is ignored by git"
	case errors.As(err, &gerr) && gerr.ExitCode == 1:
		c.Level = Warn
		c.Message = ".gauntlet/ is not ignored by git: its logs and state would show up as changes"
		c.Fix = "add .gauntlet/ to .gitignore (gauntlet init does)"
	case errors.As(err, &gerr) && strings.Contains(gerr.Stderr, "not a git repository"):
		c.Level, c.Message = OK, "not a git repository: nothing to ignore"
	default:
		c.Level, c.Message = Warn, "cannot tell whether git ignores .gauntlet/: "+oneLine(err.Error())
	}
	return c
}

func rootOfBrokenConfig(file, dir string) string {
	if file != "" {
		if abs, err := filepath.Abs(file); err == nil {
			return filepath.Dir(abs)
		}
	}
	if found, err := config.Find(dir); err == nil {
		return filepath.Dir(found)
	}
	return dir
}

func conciseErr(err error) string {
	var pathErr *os.PathError
	if errors.As(err, &pathErr) {
		return pathErr.Err.Error()
	}
	var execErr *exec.Error
	if errors.As(err, &execErr) {
		return execErr.Err.Error()
	}
	return oneLine(err.Error())
}

func oneLine(s string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return first
}

// CapWarnings compares stop_hook.max_attempts with the cap of every host whose hook file in the
// project runs gauntlet, and returns the findings that are not ok.
func CapWarnings(cfg *config.Config) []Check {
	var out []Check
	for _, h := range hookfile.Installed(cfg.Root) {
		spec := hosts.MustGet(h.Host)
		if c, ok := capCheck(spec, h, cfg.StopHook.MaxAttempts); ok && c.Level != OK {
			out = append(out, c)
		}
	}
	return out
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
