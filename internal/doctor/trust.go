package doctor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/hookfile"
	"github.com/gauntlet-dev/gauntlet/internal/hosts"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// maxTrustFileBytes bounds the read of a host's own settings file: a config.toml or a list of
// trusted folders is kilobytes; Copilot's config.json is the largest and stays well below this.
const maxTrustFileBytes = 4 << 20

// trustCheck reads where host keeps the trust a project hook needs, for the project at root.
// Nothing is written: granting trust stays the user's act in the host. A project the host does
// not trust is a problem: its hook never runs.
func trustCheck(ctx context.Context, e Env, host hosts.Name, root string) Check {
	switch host {
	case hosts.Codex:
		return codexTrust(ctx, e, root)
	case hosts.Gemini:
		return geminiTrust(e, root)
	case hosts.Copilot:
		return copilotTrust(e, root)
	default:
		return Check{Host: host, Name: "trust", Level: OK, Message: hosts.MustGet(host).Trust.How}
	}
}

// hostDir is the host's own directory: its variable (CODEX_HOME), else the table's ~/ path.
func hostDir(e Env, t hosts.Trust) string {
	if t.DirEnv != "" {
		if d := e.getenv(t.DirEnv); d != "" {
			return d
		}
	}
	return e.home(t.Dir)
}

// home expands a leading ~/ to the home directory.
func (e Env) home(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return filepath.Join(e.Home, filepath.FromSlash(rest))
	}
	return p
}

type codexConfig struct {
	Projects map[string]struct {
		TrustLevel string `toml:"trust_level"`
	} `toml:"projects"`
	Hooks struct {
		State map[string]struct {
			TrustedHash string `toml:"trusted_hash"`
			Enabled     *bool  `toml:"enabled"`
		} `toml:"state"`
	} `toml:"hooks"`
}

// codexTrust checks both gates Codex puts before a project hook: the project itself must be
// trusted ([projects."ROOT"] trust_level; a parent folder's record does not count), and the hook
// reviewed in /hooks. For the hook, Codex's own answer (app-server hooks/list) is asked when
// codex is installed, since only Codex can tell a hook edited after it was trusted; otherwise
// the recorded [hooks.state."FILE:stop:GROUP:INDEX"] trusted_hash is taken as trust.
func codexTrust(ctx context.Context, e Env, root string) Check {
	t := hosts.MustGet(hosts.Codex).Trust
	path := filepath.Join(hostDir(e, t), t.File)
	shown := e.display(path)
	cfg, failed, ok := readCodexConfig(path, shown, root)
	if !ok {
		return failed
	}
	levels := make(map[string]string, len(cfg.Projects))
	for dir, p := range cfg.Projects {
		levels[filepath.Clean(dir)] = p.TrustLevel
	}
	if level := projectTrustLevel(levels, codexProjectRoots(ctx, root)); level != "trusted" {
		return codexUntrustedProject(levels, level, root, shown)
	}
	if hc, ok := codexHookStatus(ctx, e, root); ok {
		return hc
	}
	return codexRecordedHookTrust(cfg, root)
}

// readCodexConfig reads Codex's config.toml; when it cannot, ok is false and failed is the
// check to report.
func readCodexConfig(path, shown, root string) (cfg codexConfig, failed Check, ok bool) {
	c := Check{Host: hosts.Codex, Name: "trust"}
	data, err := readBounded(path)
	if errors.Is(err, fs.ErrNotExist) {
		c.Level = Problem
		c.Message = fmt.Sprintf("%s does not exist: Codex has not trusted this project, and skips its hooks without a word", shown)
		c.Fix = fmt.Sprintf(`run "codex exec --trust" once in %s (or trust it when codex asks), then trust the hook in codex's /hooks screen`, root)
		return cfg, c, false
	}
	if err != nil {
		c.Level, c.Message = Warn, fmt.Sprintf("cannot read %s: %v", shown, err)
		return cfg, c, false
	}
	if _, err := toml.Decode(string(data), &cfg); err != nil {
		c.Level, c.Message = Warn, fmt.Sprintf("%s is not valid TOML: %v", shown, oneLine(err.Error()))
		return cfg, c, false
	}
	return cfg, c, true
}

// codexProjectRoots are the folders Codex looks the project up by: the folder it starts in and
// its repository's root.
func codexProjectRoots(ctx context.Context, root string) []string {
	roots := []string{root}
	if out, err := git.Output(ctx, root, 4<<10, "rev-parse", "--show-toplevel"); err == nil {
		if top := filepath.Clean(strings.TrimSpace(string(out))); top != root {
			roots = append(roots, top)
		}
	}
	return roots
}

// projectTrustLevel is the trust_level recorded for the first of roots that has one.
func projectTrustLevel(levels map[string]string, roots []string) string {
	for _, r := range roots {
		if l, ok := levels[r]; ok {
			return l
		}
	}
	return ""
}

// codexUntrustedProject reports a project Codex has not trusted, naming a trusted parent
// folder when that is what the user took for trust.
func codexUntrustedProject(levels map[string]string, level, root, shown string) Check {
	c := Check{Host: hosts.Codex, Name: "trust", Level: Problem}
	c.Message = fmt.Sprintf("Codex has not trusted %s (%s): it skips the project's hooks without a word", root, orNone(level, "not listed in "+shown))
	if parent := trustedParent(levels, level, root); parent != "" {
		c.Message = fmt.Sprintf("Codex has not trusted %s: %s trusts the parent folder %s, which Codex does not accept for a project below it; it skips the project's hooks without a word", root, shown, parent)
	}
	c.Fix = fmt.Sprintf(`run "codex exec --trust" once in %s, or add [projects."%s"] trust_level = "trusted" to %s`, root, root, shown)
	return c
}

// trustedParent is the nearest folder above root that levels trust, when root itself has no
// level recorded; empty otherwise.
func trustedParent(levels map[string]string, level, root string) string {
	for dir := filepath.Dir(root); level == "" && dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		if levels[dir] == "trusted" {
			return dir
		}
	}
	return ""
}

// codexRecordedHookTrust judges the stop hook by what config.toml records of it, when Codex
// itself cannot be asked.
func codexRecordedHookTrust(cfg codexConfig, root string) Check {
	c := Check{Host: hosts.Codex, Name: "trust", Level: Problem}
	prefix := filepath.Join(root, ".codex", "hooks.json") + ":stop:"
	trusted, disabled := false, false
	for key, st := range cfg.Hooks.State {
		if !strings.HasPrefix(key, prefix) {
			continue
		}
		disabled = disabled || st.Enabled != nil && !*st.Enabled
		trusted = trusted || st.TrustedHash != ""
	}
	switch {
	case disabled:
		c.Message = "the project is trusted, but the stop hook is disabled in codex's /hooks screen"
		c.Fix = "enable it in codex's /hooks screen"
	case !trusted:
		c.Message = "the project is trusted, but Codex has not trusted the stop hook: it skips it without a word"
		c.Fix = "review and trust the hook in codex's /hooks screen (again after every change to it)"
	default:
		c.Level = OK
		c.Message = "the project and the stop hook are trusted (codex is not on PATH to confirm the hook was not edited since; a changed hook must be trusted again in /hooks)"
	}
	return c
}

// codexHookStatus asks Codex about gauntlet's stop hook; ok is false when codex is not installed
// or gave no answer, and the recorded state decides instead.
func codexHookStatus(ctx context.Context, e Env, root string) (Check, bool) {
	if e.Resolver.LookPath == nil {
		return Check{}, false
	}
	prog, err := e.Resolver.LookPath("codex")
	if err != nil {
		return Check{}, false
	}
	c := Check{Host: hosts.Codex, Name: "trust"}
	listed, err := codexHooksList(ctx, prog, root)
	if err != nil {
		c.Level = Warn
		c.Message = fmt.Sprintf("the project is trusted; codex app-server did not list the hooks (%s), so whether Codex trusts the stop hook is unknown", oneLine(err.Error()))
		c.Fix = "open codex's /hooks screen and check that the stop hook is trusted"
		return c, true
	}
	mine := gauntletStopHooks(listed)
	if len(mine) == 0 {
		c.Level = Problem
		c.Message = "the project is trusted, but codex app-server lists no gauntlet stop hook for " + root + ": Codex does not see the hook file"
		c.Fix = "run codex in " + root + " and check its /hooks screen"
		return c, true
	}
	for _, h := range mine {
		if !isTrustedCodexHook(h) {
			return codexStopHookVerdict(c, h), true
		}
	}
	// The after-edit and pre-edit hooks need trust of their own; without it Codex skips them,
	// and the gates run (and weakening edits are caught) only at the stop: a warning, since the
	// stop hook still gates.
	for _, h := range listed {
		if (hookfile.IsAfterEditCommand(h.Command) || hookfile.IsPreEditCommand(h.Command)) && !isTrustedCodexHook(h) {
			return codexAfterEditUntrusted(c, h), true
		}
	}
	c.Level, c.Message = OK, "the project and the stop hook are trusted (codex app-server hooks/list: trustStatus \"trusted\")"
	return c, true
}

// gauntletStopHooks are the stop hooks of listed that run gauntlet.
func gauntletStopHooks(listed []codexHook) []codexHook {
	var mine []codexHook
	for _, h := range listed {
		if h.EventName == "stop" && (hookfile.IsStopHookCommand(h.Command) || hookfile.GauntletWord(h.Command) != "") {
			mine = append(mine, h)
		}
	}
	return mine
}

// isTrustedCodexHook reports whether Codex runs h: enabled, and trusted by the user or by a
// managed policy.
func isTrustedCodexHook(h codexHook) bool {
	return h.Enabled && (h.TrustStatus == "trusted" || h.TrustStatus == "managed")
}

// codexStopHookVerdict finishes c for a gauntlet stop hook Codex does not run as it is.
func codexStopHookVerdict(c Check, h codexHook) Check {
	switch {
	case !h.Enabled:
		c.Level, c.Message = Problem, "Codex lists the stop hook as disabled (codex app-server hooks/list)"
		c.Fix = "enable it in codex's /hooks screen"
	case h.TrustStatus == "modified":
		c.Level, c.Message = Problem, `the stop hook changed since Codex trusted it (codex app-server hooks/list: trustStatus "modified"): Codex skips it until it is trusted again`
		c.Fix = "review and trust the hook again in codex's /hooks screen"
	case h.TrustStatus == "untrusted":
		c.Level, c.Message = Problem, `Codex has not trusted the stop hook (codex app-server hooks/list: trustStatus "untrusted"): it skips it without a word`
		c.Fix = "review and trust the hook in codex's /hooks screen (again after every change to it)"
	default:
		c.Level, c.Message = Warn, fmt.Sprintf("codex app-server hooks/list reports the stop hook's trust as %q, which gauntlet does not know", h.TrustStatus)
	}
	return c
}

// codexAfterEditUntrusted finishes c for an after-edit or pre-edit hook Codex skips.
func codexAfterEditUntrusted(c Check, h codexHook) Check {
	status := h.TrustStatus
	if !h.Enabled {
		status = "disabled"
	}
	which, then := "after-edit", "the gates run only when the agent stops"
	if hookfile.IsPreEditCommand(h.Command) {
		which, then = "pre-edit", "a weakening edit is caught only when the agent stops"
	}
	c.Level = Warn
	c.Message = fmt.Sprintf("the stop hook is trusted, but Codex has not trusted the %s hook (hooks.%s, codex app-server hooks/list: trustStatus %q): %s",
		which, codexEventKey(h.EventName), status, then)
	c.Fix = "review and trust it in codex's /hooks screen (again after every change to it)"
	return c
}

// codexEventKey is the hook file's key of an event hooks/list names in camel case
// ("postToolUse" is hooks.PostToolUse).
func codexEventKey(event string) string {
	if event == "" {
		return event
	}
	return strings.ToUpper(event[:1]) + event[1:]
}

// trustRuleTarget is the folder a Gemini rule covers: TRUST_PARENT covers the rule's parent.
func trustRuleTarget(folder, rule string) string {
	if rule == "TRUST_PARENT" {
		return filepath.Dir(folder)
	}
	return folder
}

// realPath resolves symlinks as Gemini CLI does (a path that does not exist stays as it is).
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// geminiTrust follows Gemini CLI's own decision: GEMINI_CLI_TRUST_WORKSPACE first, then whether
// folder trust is on (it is unless the user settings turn it off), then the rules of
// trustedFolders.json matched on real paths, the longest rule winning. With folder trust on and
// no rule for the project, Gemini CLI asks before it runs there, and refuses to run headless.
func geminiTrust(e Env, root string) Check {
	t := hosts.MustGet(hosts.Gemini).Trust
	c := Check{Host: hosts.Gemini, Name: "trust"}
	if decided, ok := geminiEnvTrust(c, t, e.getenv(t.Env)); ok {
		return decided
	}
	if decided, ok := geminiFolderTrustOff(c, e, t); ok {
		return decided
	}
	path := filepath.Join(hostDir(e, t), t.File)
	if t.FileEnv != "" && e.getenv(t.FileEnv) != "" {
		path = e.getenv(t.FileEnv)
	}
	shown := e.display(path)
	fix := "start gemini in " + root + " and choose \"Trust folder\" (or \"Trust parent folder\")"
	rules, failed, ok := readGeminiRules(c, path, shown, root, fix)
	if !ok {
		return failed
	}
	real := realPath(root)
	best, verdict := longestGeminiRule(rules, real)
	switch verdict {
	case "TRUST_FOLDER", "TRUST_PARENT":
		c.Level, c.Message = OK, fmt.Sprintf("%s trusts %s", shown, best)
	case "DO_NOT_TRUST":
		c.Level = Problem
		c.Message = fmt.Sprintf("%s marks %s as not trusted: Gemini CLI runs no project hook there", shown, best)
		c.Fix = "remove that entry from " + shown + ", then " + fix
	default:
		c.Level = Problem
		c.Message = fmt.Sprintf("%s does not list %s: folder trust is on, so Gemini CLI runs no project hook there (headless, it refuses to start)", shown, real)
		c.Fix = fix
	}
	return c
}

// geminiEnvTrust decides by the variable that overrides Gemini CLI's folder trust, when it is
// set to true or false.
func geminiEnvTrust(c Check, t hosts.Trust, value string) (Check, bool) {
	switch value {
	case "true":
		c.Level, c.Message = OK, t.Env+"=true in this environment: Gemini CLI trusts every folder where it runs with it"
		return c, true
	case "false":
		c.Level, c.Message = Problem, t.Env+"=false in this environment: Gemini CLI runs no project hook where it runs with it"
		c.Fix = "unset " + t.Env
		return c, true
	}
	return c, false
}

// geminiFolderTrustOff decides when the user settings turn folder trust off, or cannot be read.
func geminiFolderTrustOff(c Check, e Env, t hosts.Trust) (Check, bool) {
	settings := filepath.Join(hostDir(e, t), t.SettingFile)
	on, known, err := jsoncBool(settings, t.Setting)
	switch {
	case err != nil:
		c.Level, c.Message = Warn, fmt.Sprintf("cannot read %s: %v", e.display(settings), err)
		return c, true
	case known && !on:
		c.Level, c.Message = OK, fmt.Sprintf("folder trust is off (%s in %s): Gemini CLI runs project hooks without a trust step", t.Setting, e.display(settings))
		return c, true
	}
	return c, false
}

// readGeminiRules reads trustedFolders.json; when it cannot, ok is false and failed is the check
// to report.
func readGeminiRules(c Check, path, shown, root, fix string) (rules map[string]string, failed Check, ok bool) {
	data, err := readBounded(path)
	if errors.Is(err, fs.ErrNotExist) {
		c.Level = Problem
		c.Message = fmt.Sprintf("no %s: folder trust is on (Gemini CLI's default) and no folder is trusted, so Gemini CLI runs no project hook in %s (headless, it refuses to start there)", shown, root)
		c.Fix = fix
		return nil, c, false
	}
	if err != nil {
		c.Level, c.Message = Warn, fmt.Sprintf("cannot read %s: %v", shown, err)
		return nil, c, false
	}
	std, err := hookfile.Standardize(data)
	if err == nil {
		err = json.Unmarshal(std, &rules)
	}
	if err != nil {
		c.Level, c.Message = Warn, fmt.Sprintf("%s is not a JSON object of folders: %v", shown, err)
		return nil, c, false
	}
	return rules, c, true
}

// longestGeminiRule is the rule covering real whose folder is written longest, as Gemini CLI
// picks it: the folder it covers and the rule.
func longestGeminiRule(rules map[string]string, real string) (best, verdict string) {
	longest := -1
	for folder, rule := range rules {
		target := realPath(trustRuleTarget(filepath.Clean(folder), rule))
		if within(real, target) && len(folder) > longest {
			best, verdict, longest = target, rule, len(folder)
		}
	}
	return best, verdict
}

// copilotTrust reads the trusted folders in Copilot CLI's config.json ($COPILOT_HOME, else
// ~/.copilot), a JSON file with a comment header: repository hooks load only in a trusted folder
// or below one.
func copilotTrust(e Env, root string) Check {
	t := hosts.MustGet(hosts.Copilot).Trust
	path := filepath.Join(hostDir(e, t), t.File)
	shown := e.display(path)
	c := Check{Host: hosts.Copilot, Name: "trust"}
	fix := "start copilot in " + root + " and choose to trust the folder"
	data, err := readBounded(path)
	if errors.Is(err, fs.ErrNotExist) {
		c.Level, c.Message, c.Fix = Problem, shown+" does not exist: Copilot has trusted no folder, and loads repository hooks only in a trusted one", fix
		return c
	}
	if err != nil {
		c.Level, c.Message = Warn, fmt.Sprintf("cannot read %s: %v", shown, err)
		return c
	}
	var cfg map[string]json.RawMessage
	std, err := hookfile.Standardize(data)
	if err == nil {
		err = json.Unmarshal(std, &cfg)
	}
	if err != nil {
		c.Level, c.Message = Warn, fmt.Sprintf("%s is not the JSON Copilot writes: %v", shown, err)
		return c
	}
	for _, key := range append([]string{t.Key}, t.OldKeys...) {
		var folders []string
		if json.Unmarshal(cfg[key], &folders) != nil {
			continue
		}
		for _, f := range folders {
			if within(root, filepath.Clean(f)) {
				c.Level, c.Message = OK, fmt.Sprintf("%s trusts %s (%s)", shown, f, key)
				return c
			}
		}
	}
	c.Level = Problem
	c.Message = fmt.Sprintf("%s does not trust %s (%s): Copilot does not load the repository's hooks", shown, root, t.Key)
	c.Fix = fix
	return c
}

// disabledCheck finds a settings key that turns every hook of the host off (Claude Code's
// disableAllHooks); ok is false when the host has none or nothing turns them off. The most
// specific file that sets the key decides (DisableFiles go from least to most specific): a
// project's local "false" wins over the user's "true", as in the host.
func disabledCheck(e Env, host hosts.Host, root string) (Check, bool) {
	if host.DisableKey == "" {
		return Check{}, false
	}
	for _, f := range slices.Backward(host.DisableFiles) {
		path := e.home(f)
		if !filepath.IsAbs(path) {
			path = filepath.Join(root, filepath.FromSlash(f))
		}
		on, known, err := jsoncBool(path, host.DisableKey)
		if err != nil || !known {
			continue
		}
		if !on {
			return Check{}, false
		}
		return Check{Host: host.Name, Name: "disabled", Level: Problem,
			Message: fmt.Sprintf(`%s sets "%s": true: %s runs no hook, gauntlet's included`, e.display(path), host.DisableKey, host.Display),
			Fix:     fmt.Sprintf("remove %s from %s", host.DisableKey, e.display(path))}, true
	}
	return Check{}, false
}

// jsoncBool reads a boolean at a dotted key ("security.folderTrust.enabled") of a JSON file that
// may hold comments; known is false when the file or the key is not there.
func jsoncBool(path, key string) (value, known bool, err error) {
	data, err := readBounded(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, false, nil
	}
	if err != nil {
		return false, false, err
	}
	std, err := hookfile.Standardize(data)
	if err != nil {
		return false, false, nil // the host reports its own broken settings
	}
	var v any
	if json.Unmarshal(std, &v) != nil {
		return false, false, nil
	}
	for part := range strings.SplitSeq(key, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return false, false, nil
		}
		v = m[part]
	}
	b, ok := v.(bool)
	return b, ok, nil
}

// capOverride reads the host's variable that overrides its cap, as set where doctor runs; ok is
// false when it is unset or not a number.
func capOverride(e Env, host hosts.Host) (int, bool) {
	if host.Cap.Env == "" {
		return 0, false
	}
	v := strings.TrimSpace(e.getenv(host.Cap.Env))
	n, err := strconv.Atoi(v)
	if v == "" || err != nil {
		return 0, false
	}
	return n, true
}

// within reports whether path is dir or below it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && filepath.IsLocal(rel) || rel == "."
}

func readBounded(path string) ([]byte, error) {
	data, err := safefile.ReadFile(path, maxTrustFileBytes, time.Now().Add(readDeadline))
	if errors.Is(err, safefile.ErrTooLarge) {
		return nil, fmt.Errorf("over %d MiB", maxTrustFileBytes>>20)
	}
	return data, err
}

// readDeadline bounds reading a host's file, which is small: one whose read blocks is given up.
const readDeadline = 5 * time.Second

func orNone(s, none string) string {
	if s == "" {
		return none
	}
	return "trust_level " + s
}
