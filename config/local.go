package config

import (
	"slices"
	"strings"
	"sync"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// What the stop hook does with what .gauntlet.local.yml changes of the gates
// (stop_hook.local_overrides). The local file is the user's own and is not in git: a gate it
// disables or loosens is invisible to everybody else, and one line of it is enough for an agent
// to turn a failing gate off. So by default the stop hook sets it aside and says so.
const (
	// LocalHonour applies the local override in the stop hook too, and names what it changes.
	LocalHonour = "honour"
	// LocalReport judges the stop with the gates as .gauntlet.yml defines them, and names what
	// the local override would have changed.
	LocalReport = "report"
	// LocalIgnore judges the stop as if there were no local override, and names nothing.
	LocalIgnore = "ignore"
)

// Override is one change .gauntlet.local.yml makes to what .gauntlet.yml says: of a gate or
// setup step (Gate set), or of a top-level key that decides verdicts (Gate empty).
type Override struct {
	Gate string
	// What is what changed: "disabled", "severity warn", "command replaced", "env, paths
	// changed", "base set".
	What string
}

func (o Override) String() string {
	if o.Gate == "" {
		return o.What + " by " + LocalFileName
	}
	return o.Gate + ": " + o.What + " by " + LocalFileName
}

// OverrideNames are the overrides as people read them: "test: disabled by .gauntlet.local.yml".
func OverrideNames(os []Override) []string {
	var out []string
	for _, o := range os {
		out = append(out, o.String())
	}
	return out
}

// personalKeys are the top-level keys a local override may set without changing any verdict:
// how many gates run at once, how many runs are kept, whether a run stops at the first failure,
// and what is hidden from reports. Every other key it sets (env, base, timeout, cache, causes,
// integrity...) can turn a failure into something else, and is an override.
var personalKeys = []string{"version", "jobs", "keep_runs", "fail_fast", "redact"}

// personalStopHookKeys are the stop_hook keys of the same kind: how the hook waits, what it
// does besides judging, and how long its reason may be.
var personalStopHookKeys = []string{"lock_wait", "first_failure", "speculative", "quiet_period", "autofix", "reason_limit"}

// overridesOf lists what local changes: for each gate and setup step of the main file it sets keys
// of, what those keys do (hint excepted: advice changes no verdict), and each top-level key that
// is not personal. A gate only the local file defines is an addition, no override. main is the
// main file alone, resolved (nil when it is not valid alone: then every key set counts), merged
// the config with the local file applied.
func overridesOf(local *rawFile, main, merged *Config) []Override {
	if local == nil {
		return nil
	}
	out := gateOverrides(local, main, merged)
	slices.SortStableFunc(out, func(a, b Override) int { return gateOrder(main, a.Gate) - gateOrder(main, b.Gate) })
	return append(out, topOverrides(local)...)
}

// gateOverrides are what the local file changes of the main file's gates and setup steps.
func gateOverrides(local *rawFile, main, merged *Config) []Override {
	var out []Override
	for _, n := range localEntries(local) {
		if gateOrder(main, n.name) < 0 {
			continue // only in the local file
		}
		before, known := findGate(main, n.name)
		after, _ := findGate(merged, n.name)
		for _, w := range keyEffects(setKeys(n.raw), before, after, known) {
			out = append(out, Override{Gate: n.name, What: w})
		}
	}
	return out
}

// localEntry is a gate or setup step the local file sets keys of.
type localEntry struct {
	name string
	raw  *positions
}

func localEntries(local *rawFile) []localEntry {
	var out []localEntry
	for _, ng := range local.Gates {
		out = append(out, localEntry{ng.Name, ng.Gate.self()})
	}
	for _, ns := range local.Setup {
		out = append(out, localEntry{ns.Name, ns.Step.self()})
	}
	return out
}

// keyEffects says what setting keys did to a gate: disabled, severity warn, command replaced, and
// the other keys changed; a key that left the gate as it was (enabled: true again) says nothing.
// known is false when the main file alone is not valid: every key set then counts.
func keyEffects(keys []string, before, after gates.Gate, known bool) []string {
	var what, other []string
	for _, key := range keys {
		effect, own := keyEffectOf()[key]
		if !own {
			other = append(other, key)
			continue
		}
		if e := effect(before, after, known); e != "" && !slices.Contains(what, e) {
			what = append(what, e)
		}
	}
	if len(other) > 0 {
		what = append(what, strings.Join(other, ", ")+" changed")
	}
	return what
}

// keyEffectOf says, for the keys whose effect has words of its own, what setting the key did
// ("" when it left the gate as it was); known is keyEffects'. Any other key "changed".
var keyEffectOf = sync.OnceValue(func() map[string]func(before, after gates.Gate, known bool) string {
	return map[string]func(before, after gates.Gate, known bool) string{
		"hint":     func(gates.Gate, gates.Gate, bool) string { return "" },
		"enabled":  disabledEffect,
		"severity": severityEffect,
		"run":      commandEffect,
		"argv":     commandEffect,
	}
})

func disabledEffect(before, after gates.Gate, known bool) string {
	if !after.Enabled && (!known || before.Enabled) {
		return "disabled"
	}
	return ""
}

func severityEffect(before, after gates.Gate, known bool) string {
	if after.Severity == gates.SeverityWarn && (!known || before.Severity != gates.SeverityWarn) {
		return "severity warn"
	}
	return ""
}

func commandEffect(before, after gates.Gate, known bool) string {
	if !known || after.Command() != before.Command() {
		return "command replaced"
	}
	return ""
}

// topOverrides are the top-level keys the local file sets that are not personal, stop_hook's
// key by key.
func topOverrides(local *rawFile) []Override {
	var out []Override
	for _, key := range setKeys(local.self()) {
		switch {
		case slices.Contains(personalKeys, key), key == "gates", key == "setup":
		case key == "stop_hook":
			if local.StopHook == nil {
				continue
			}
			for _, k := range setKeys(local.StopHook.self()) {
				if !slices.Contains(personalStopHookKeys, k) {
					out = append(out, Override{What: "stop_hook." + k + " set"})
				}
			}
		default:
			out = append(out, Override{What: key + " set"})
		}
	}
	return out
}

// findGate finds a gate or setup step of cfg by name.
func findGate(cfg *Config, name string) (gates.Gate, bool) {
	if cfg == nil {
		return gates.Gate{}, false
	}
	for _, g := range slices.Concat(cfg.Gates, cfg.Setup) {
		if g.Name == name {
			return g, true
		}
	}
	return gates.Gate{}, false
}

// gateOrder is where a gate or setup step stands in the main file (-1: not there); 0 for every
// name when the main file alone is not valid.
func gateOrder(main *Config, name string) int {
	if main == nil {
		return 0
	}
	for i, g := range slices.Concat(main.Gates, main.Setup) {
		if g.Name == name {
			return i
		}
	}
	return -1
}

// setKeys are the keys a raw mapping set, sorted.
func setKeys(p *positions) []string {
	var keys []string
	for k := range p.at {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// localOnlyProblems are the keys a local override may not set: how the stop hook treats local
// overrides is the project's decision, not one an override can make for itself; so are writing
// to the remote cache and the keys it trusts.
func localOnlyProblems(local *rawFile) []Problem {
	problems := localRemoteCacheProblems(local)
	if local.StopHook == nil {
		return problems
	}
	if local.StopHook.has("local_overrides") {
		problems = append(problems, local.StopHook.keyPos("local_overrides").problem(
			"stop_hook.local_overrides can only be set in "+FileName+": a local override must not decide how the stop hook treats local overrides"))
	}
	if local.StopHook.has("pre_existing") {
		problems = append(problems, local.StopHook.keyPos("pre_existing").problem(
			"stop_hook.pre_existing can only be set in "+FileName+": whether a failure the base already has blocks is the project's decision"))
	}
	return problems
}

// ForStopHook is the config the stop hook judges with, and the overrides it names (nil when it
// names none). With stop_hook.local_overrides honour, that is c itself; with report or ignore,
// the main file alone, with the local file's personal keys (jobs, lock_wait, ...) kept. When the
// main file alone is not a valid config (the local file completes a gate), c is honoured and
// its overrides are named.
func (c *Config) ForStopHook() (judged *Config, named []Override, mode string) {
	mode = c.StopHook.LocalOverrides
	if len(c.Overrides) == 0 {
		return c, nil, mode
	}
	if mode == LocalHonour || c.MainOnly == nil {
		return c, c.Overrides, LocalHonour
	}
	m := *c.MainOnly
	m.Jobs, m.KeepRuns, m.FailFast = c.Jobs, c.KeepRuns, c.FailFast
	m.StopHook.LockWait = c.StopHook.LockWait
	m.StopHook.FirstFailure = c.StopHook.FirstFailure
	m.StopHook.Speculative, m.StopHook.QuietPeriod = c.StopHook.Speculative, c.StopHook.QuietPeriod
	m.StopHook.Autofix, m.StopHook.ReasonLimit = c.StopHook.Autofix, c.StopHook.ReasonLimit
	m.LocalPath = c.LocalPath
	if mode == LocalIgnore {
		return &m, nil, mode
	}
	return &m, c.Overrides, mode
}
