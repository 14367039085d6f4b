// Package baseconfig decides which config judges an agent's stop: the one at the session's base,
// as GitHub runs pull_request_target with the base's workflows, so that a change never judges
// itself with its own checks. Gates the change adds run too; a gate or setting the change
// removes, renames or alters runs as the base defined it, and the alteration is an integrity
// finding (reported, not blocking, when it only makes the gates stricter).
package baseconfig

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
)

// Judged is the config a stop is judged with and what the change did to the base's.
type Judged struct {
	Config   *config.Config
	Findings []gates.IntegrityFinding
}

// Judge combines base, the config at the session's base, with head, the config the change
// holds (after the stop hook's handling of local overrides); headMain is the change's main file
// alone, which alterations are measured on (a local override is the user's, not the change's;
// stop_hook.local_overrides decides about it). A nil base leaves head as it is: a project
// adopting gauntlet has no base config to be judged by.
func Judge(base, head, headMain *config.Config, configFile string) Judged {
	if base == nil {
		return Judged{Config: head}
	}
	if headMain == nil {
		headMain = head
	}
	// The base's config is often the change's main file itself (the stop hook hands over the one
	// config when the file did not change): nothing of it can differ then.
	j := &judging{base: base, head: head, main: headMain, file: configFile, same: base == headMain}
	out := *base
	out.Path, out.Root, out.LocalPath = head.Path, head.Root, head.LocalPath
	out.Overrides, out.MainOnly = head.Overrides, nil
	out.Jobs, out.KeepRuns, out.FailFast = head.Jobs, head.KeepRuns, head.FailFast
	out.Gates = j.gates(base.Gates, head.Gates, headMain.Gates, "gate")
	out.Setup = j.gates(base.Setup, head.Setup, headMain.Setup, "setup step")
	keepKnownNeeds(&out)
	out.Redact.Names = union(base.Redact.Names, head.Redact.Names)
	out.Digest = joinDigests(base.Digest, head.Digest)
	out.ContentDigest = joinDigests(base.ContentDigest, head.ContentDigest)
	j.settings(base, headMain)
	return Judged{Config: &out, Findings: j.findings}
}

// Missing is the judgement of a stop whose config the change deleted or broke: the base's config
// judges, and why is a blocking finding.
func Missing(base *config.Config, configFile, why string) Judged {
	f := finding(configFile, why+": the stop is judged with the config at the session's base", false, base.Integrity)
	return Judged{Config: base, Findings: []gates.IntegrityFinding{f}}
}

type judging struct {
	base, head, main *config.Config
	file             string
	findings         []gates.IntegrityFinding
	// same says base and main are one config: every gate and setting is the base's.
	same bool
}

// gates keeps every base gate, as the change has it when its definition is the base's (a local
// override stop_hook.local_overrides honours then applies), else as the base has it; then adds
// the gates only the change has.
func (j *judging) gates(base, head, main []gates.Gate, what string) []gates.Gate {
	headBy, mainBy, baseBy := gatesByName(head), gatesByName(main), gatesByName(base)
	renamedTo := renames(base, main, baseBy, mainBy)
	var out []gates.Gate
	for _, b := range base {
		m, kept := mainBy[b.Name]
		if kept && (j.same || definition(m) == definition(b)) {
			out = append(out, headBy[b.Name])
			continue
		}
		j.addChanged(what, b, m, kept, renamedTo[b.Name])
		out = append(out, b)
	}
	return append(out, onlyInChange(head, baseBy, renamedTo)...)
}

func gatesByName(gs []gates.Gate) map[string]gates.Gate {
	m := make(map[string]gates.Gate, len(gs))
	for _, g := range gs {
		m[g.Name] = g
	}
	return m
}

// renames pairs each base gate the change no longer has with a new gate of the change that has
// its definition: base name to new name.
func renames(base, main []gates.Gate, baseBy, mainBy map[string]gates.Gate) map[string]string {
	renamedTo := map[string]string{}
	for _, g := range main {
		if _, inBase := baseBy[g.Name]; inBase {
			continue
		}
		for _, b := range base {
			if _, kept := mainBy[b.Name]; !kept && definition(b) == definition(g) && renamedTo[b.Name] == "" {
				renamedTo[b.Name] = g.Name
				break
			}
		}
	}
	return renamedTo
}

// addChanged notes how the change altered, renamed or removed the base gate b (m is the
// change's gate of that name, when kept).
func (j *judging) addChanged(what string, b, m gates.Gate, kept bool, renamedTo string) {
	switch {
	case kept:
		keys, stricter := altered(b, m)
		j.add(fmt.Sprintf("%s %q altered (%s): it runs as the session's base defines it", what, b.Name, strings.Join(keys, ", ")), stricter)
	case renamedTo != "":
		j.add(fmt.Sprintf("%s %q renamed to %q: it runs as %q, as the session's base defines it", what, b.Name, renamedTo, b.Name), false)
	default:
		j.add(fmt.Sprintf("%s %q removed: it runs as the session's base defines it", what, b.Name), false)
	}
}

// onlyInChange are the change's gates the base does not have, besides the renamed ones: each
// runs after the base's gates (AfterBase).
func onlyInChange(head []gates.Gate, baseBy map[string]gates.Gate, renamedTo map[string]string) []gates.Gate {
	renamed := map[string]bool{}
	for _, to := range renamedTo {
		renamed[to] = true
	}
	var out []gates.Gate
	for _, g := range head {
		if _, inBase := baseBy[g.Name]; !inBase && !renamed[g.Name] {
			g.AfterBase = true
			out = append(out, g)
		}
	}
	return out
}

func (j *judging) add(msg string, stricter bool) {
	j.findings = append(j.findings, finding(j.file, msg, stricter, j.base.Integrity))
}

// finding is a gate-altered finding at the level the base's policy gives it in the stop hook;
// one that only makes the gates stricter is reported, never blocking.
func finding(file, msg string, stricter bool, policy gates.IntegrityPolicy) gates.IntegrityFinding {
	level := policy.Level(gates.RuleGateAltered, true)
	if stricter && level == gates.IntegrityBlock {
		level = gates.IntegrityWarn
	}
	return gates.IntegrityFinding{Rule: gates.RuleGateAltered, File: file, Message: msg, Level: level}
}

// definition is what a gate runs and how it is judged, everything but its name and its hint
// (advice changes no verdict): two gates with one definition are the same gate.
func definition(g gates.Gate) string {
	var b strings.Builder
	for _, k := range gateKeys {
		fmt.Fprintf(&b, "%s=%s\x00", k.name, k.value(g))
	}
	return b.String()
}

// Digest identifies a gate by what it runs and how it is judged, so that what is kept per gate
// (cold builds) follows the gate, not its name; nor its timeout: a pass within a longer timeout
// is a pass of the same gate.
func Digest(g gates.Gate) string {
	g.Timeout = 0
	sum := sha256.Sum256([]byte(definition(g)))
	return hex.EncodeToString(sum[:12])
}

// altered names the keys of head that differ from base, and whether every difference only makes
// the gate stricter.
func altered(base, head gates.Gate) (keys []string, stricter bool) {
	stricter = true
	for _, k := range gateKeys {
		if k.value(base) == k.value(head) {
			continue
		}
		keys = append(keys, k.name)
		if k.stricter == nil || !k.stricter(base, head) {
			stricter = false
		}
	}
	return keys, stricter
}

// gateKey is one key of a gate's definition: how to read it, and when a change to it only makes
// the gate stricter (nil: never said to).
type gateKey struct {
	name     string
	value    func(gates.Gate) string
	stricter func(base, head gates.Gate) bool
}

var gateKeys = []gateKey{
	{name: "command", value: func(g gates.Gate) string { return canon([]any{g.Run, g.Argv}) }},
	{name: "kind", value: func(g gates.Gate) string { return string(g.Kind) }},
	{name: "shell", value: func(g gates.Gate) string { return g.Shell }},
	{name: "dir", value: func(g gates.Gate) string { return g.Dir }},
	{name: "env", value: func(g gates.Gate) string { return canon(g.Env) }},
	{name: "timeout", value: func(g gates.Gate) string { return g.Timeout.String() },
		stricter: func(b, h gates.Gate) bool { return h.Timeout > b.Timeout }},
	{name: "paths", value: func(g gates.Gate) string { return canon(g.Paths) },
		stricter: func(_, h gates.Gate) bool { return len(h.Paths) == 0 }},
	{name: "exclude", value: func(g gates.Gate) string { return canon(g.Exclude) },
		stricter: func(b, h gates.Gate) bool { return subset(h.Exclude, b.Exclude) }},
	{name: "severity", value: func(g gates.Gate) string { return string(g.Severity) },
		stricter: func(b, h gates.Gate) bool { return b.Severity == gates.SeverityWarn }},
	{name: "on_timeout", value: func(g gates.Gate) string { return string(g.OnTimeout) },
		stricter: func(_, h gates.Gate) bool { return h.OnTimeout == gates.StatusFail }},
	{name: "infra_exit_codes", value: func(g gates.Gate) string { return canon(g.InfraExitCodes) },
		stricter: func(b, h gates.Gate) bool { return subset(h.InfraExitCodes, b.InfraExitCodes) }},
	{name: "infra_patterns", value: func(g gates.Gate) string { return canon(patterns(g)) },
		stricter: func(b, h gates.Gate) bool { return subset(patterns(h), patterns(b)) }},
	{name: "when", value: func(g gates.Gate) string { return string(g.When) },
		stricter: func(_, h gates.Gate) bool { return h.When == gates.WhenAlways }},
	{name: "enabled", value: func(g gates.Gate) string { return fmt.Sprint(g.Enabled) },
		stricter: func(_, h gates.Gate) bool { return h.Enabled }},
	{name: "review", value: func(g gates.Gate) string { return canon(g.Review) }},
	{name: "cache", value: func(g gates.Gate) string { return fmt.Sprint(g.Cache) },
		stricter: func(_, h gates.Gate) bool { return !h.Cache }},
	{name: "inputs", value: func(g gates.Gate) string { return canon(g.Inputs) }},
	{name: "session", value: func(g gates.Gate) string { return fmt.Sprint(g.Session) },
		stricter: func(_, h gates.Gate) bool { return h.Session }},
	{name: "format", value: func(g gates.Gate) string { return canon(g.Format) }},
	{name: "new_only", value: func(g gates.Gate) string { return fmt.Sprint(g.NewOnly) },
		stricter: func(_, h gates.Gate) bool { return !h.NewOnly }},
	{name: "writes", value: func(g gates.Gate) string { return fmt.Sprint(g.Writes) },
		stricter: func(_, h gates.Gate) bool { return !h.Writes }},
	{name: "causes", value: func(g gates.Gate) string { return fmt.Sprint(g.Causes) },
		stricter: func(_, h gates.Gate) bool { return !h.Causes }},
	{name: "fix", value: func(g gates.Gate) string { return g.Fix }},
	{name: "needs", value: func(g gates.Gate) string { return canon(g.Needs) }},
	{name: "speculative", value: func(g gates.Gate) string { return fmt.Sprint(g.Speculative) }},
	{name: "tests", value: func(g gates.Gate) string { return g.Tests }},
	{name: "glob", value: func(g gates.Gate) string { return canon(g.Glob) }},
	{name: "coverage", value: func(g gates.Gate) string { return g.Coverage },
		stricter: func(b, h gates.Gate) bool { return b.Coverage == "" }},
}

func patterns(g gates.Gate) []string {
	out := make([]string, len(g.InfraPatterns))
	for i, p := range g.InfraPatterns {
		out[i] = p.String()
	}
	return out
}

// canon is a value's JSON: equal values, equal text.
func canon(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}

func subset[T comparable](small, big []T) bool {
	for _, v := range small {
		if !slices.Contains(big, v) {
			return false
		}
	}
	return true
}

func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, v := range b {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

func joinDigests(a, b string) string {
	sum := sha256.Sum256([]byte("base\x00" + a + "\x00head\x00" + b))
	return hex.EncodeToString(sum[:])
}

// keepKnownNeeds drops, from the gates the change added, needs on gates the combined config does
// not have: a gate the change added may need one it removed, which runs under the base's name.
func keepKnownNeeds(c *config.Config) {
	known := map[string]bool{}
	for _, g := range slices.Concat(c.Gates, c.Setup) {
		known[g.Name] = true
	}
	for _, list := range [][]gates.Gate{c.Gates, c.Setup} {
		for i := range list {
			list[i].Needs = slices.DeleteFunc(slices.Clone(list[i].Needs), func(n string) bool { return !known[n] })
		}
	}
}

// setting is one top-level key the stop hook takes from the base: how to read it, and when a
// change to it only makes the gates stricter (personal: it changes no verdict, only how the hook
// waits or what it does besides judging).
type setting struct {
	name     string
	value    func(*config.Config) string
	stricter func(base, head *config.Config) bool
}

func always(_, _ *config.Config) bool { return true }

var settings = []setting{
	{name: "base", value: func(c *config.Config) string { return c.Base }},
	{name: "stop_hook.max_attempts", value: func(c *config.Config) string { return fmt.Sprint(c.StopHook.MaxAttempts) },
		stricter: func(b, h *config.Config) bool { return h.StopHook.MaxAttempts > b.StopHook.MaxAttempts }},
	{name: "stop_hook.timeout", value: func(c *config.Config) string { return c.StopHook.Timeout.String() },
		stricter: func(b, h *config.Config) bool { return h.StopHook.Timeout > b.StopHook.Timeout }},
	{name: "stop_hook.subagents", value: func(c *config.Config) string { return fmt.Sprint(c.StopHook.Subagents) },
		stricter: func(_, h *config.Config) bool { return h.StopHook.Subagents }},
	{name: "stop_hook.honor_active_flag", value: func(c *config.Config) string { return fmt.Sprint(c.StopHook.HonorActiveFlag) },
		stricter: func(_, h *config.Config) bool { return !h.StopHook.HonorActiveFlag }},
	{name: "stop_hook.local_overrides", value: func(c *config.Config) string { return c.StopHook.LocalOverrides },
		stricter: func(_, h *config.Config) bool { return h.StopHook.LocalOverrides != config.LocalHonour }},
	{name: "stop_hook.pre_existing", value: func(c *config.Config) string { return c.StopHook.PreExisting },
		stricter: func(_, h *config.Config) bool { return h.StopHook.PreExisting == config.PreExistingBlock }},
	{name: "stop_hook.lock_wait", value: func(c *config.Config) string { return c.StopHook.LockWait.String() }, stricter: always},
	{name: "stop_hook.first_failure", value: func(c *config.Config) string { return canon(c.StopHook.FirstFailure) }, stricter: always},
	{name: "stop_hook.speculative", value: func(c *config.Config) string { return fmt.Sprint(c.StopHook.Speculative) }, stricter: always},
	{name: "stop_hook.quiet_period", value: func(c *config.Config) string { return c.StopHook.QuietPeriod.String() }, stricter: always},
	{name: "stop_hook.autofix", value: func(c *config.Config) string { return fmt.Sprint(c.StopHook.Autofix) }, stricter: always},
	{name: "cache.remote", value: func(c *config.Config) string { return canon(c.RemoteCache) },
		stricter: func(_, h *config.Config) bool { return h.RemoteCache == nil }},
	{name: "integrity", value: func(c *config.Config) string { return canon(c.Integrity) },
		stricter: func(b, h *config.Config) bool { return noLevelLowered(b.Integrity, h.Integrity) }},
}

// settings reports each top-level setting the change altered; the base's value stays in force.
func (j *judging) settings(base, head *config.Config) {
	if j.same {
		return
	}
	var changed []string
	stricter := true
	for _, s := range settings {
		if s.value(base) == s.value(head) {
			continue
		}
		changed = append(changed, s.name)
		if s.stricter == nil || !s.stricter(base, head) {
			stricter = false
		}
	}
	if len(changed) > 0 {
		j.add(fmt.Sprintf("%s altered: the stop keeps the session's base's %s", strings.Join(changed, ", "), termsFor(len(changed))), stricter)
	}
}

func termsFor(n int) string {
	if n == 1 {
		return "value"
	}
	return "values"
}

// noLevelLowered says whether no integrity rule is at a lower level in head than in base.
func noLevelLowered(base, head gates.IntegrityPolicy) bool {
	for _, r := range gates.IntegrityRules {
		if head.Level(r, true).Strength() < base.Level(r, true).Strength() {
			return false
		}
	}
	return true
}
