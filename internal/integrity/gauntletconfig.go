package integrity

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// commandKeys decide what a gate runs: any change to them is a changed command.
var commandKeys = []string{"run", "argv", "kind", "dir", "env", "cli", "prompt", "prompt_file", "model"}

// gauntletConfig compares the gates and the settings that decide how strictly they judge.
func (j *judge) gauntletConfig(c configPair) {
	file := c.file.Path
	if c.file.Deleted {
		j.add(gates.RuleGateRelaxed, file, 0, "the gauntlet config is deleted: no gate runs")
		return
	}
	if c.file.Created {
		return // a first config adds gates; there was nothing to relax
	}
	oldGates, newGates := getMap(c.old, "gates"), getMap(c.new, "gates")
	for _, name := range sortedKeys(oldGates) {
		og, _ := oldGates[name].(map[string]any)
		ng, ok := newGates[name].(map[string]any)
		if !ok {
			if renamedGate(og, oldGates, newGates) {
				continue
			}
			j.add(gates.RuleGateRelaxed, file, lineOf(c.newData, "gates"), "gate %q removed", name)
			continue
		}
		j.compareGate(c, name, og, ng)
	}
	j.compareSetup(c)

	oldHook, newHook := getMap(c.old, "stop_hook"), getMap(c.new, "stop_hook")
	at := func(keys ...string) int { return lineOf(c.newData, keys...) }
	oldMax, okOld := number(oldHook["max_attempts"])
	newMax, okNew := number(newHook["max_attempts"])
	if !okOld {
		oldMax = 3
	}
	if !okNew {
		newMax = 3
	}
	if newMax < oldMax {
		j.add(gates.RuleGateRelaxed, file, at("stop_hook", "max_attempts"), "stop_hook.max_attempts lowered from %g to %g: the agent is let go sooner", oldMax, newMax)
	}
	if !truthy(oldHook["honor_active_flag"]) && truthy(newHook["honor_active_flag"]) {
		j.add(gates.RuleGateRelaxed, file, at("stop_hook", "honor_active_flag"), "stop_hook.honor_active_flag turned on: the agent is let go whenever the host says the hook is active")
	}
	if truthy(oldHook["subagents"]) && !truthy(newHook["subagents"]) {
		j.add(gates.RuleGateRelaxed, file, at("stop_hook"), "stop_hook.subagents turned off: subagents stop unjudged")
	}
	if s, _ := newHook["local_overrides"].(string); s == "honour" && oldHook["local_overrides"] != "honour" {
		j.add(gates.RuleGateRelaxed, file, at("stop_hook", "local_overrides"), "stop_hook.local_overrides set to honour: a personal override can now weaken the gates")
	}
	if ob, nb := fmt.Sprint(c.old["base"]), fmt.Sprint(c.new["base"]); ob != nb {
		j.add(gates.RuleGateRelaxed, file, at("base"), "base changed from %s to %s: the change is measured from elsewhere", shown(c.old["base"]), shown(c.new["base"]))
	}
	if oc, ok := c.old["causes"].(bool); ok && !oc && c.new["causes"] != false {
		j.add(gates.RuleGateRelaxed, file, at("causes"), "the environment-cause catalogue turned on: failures it recognises no longer block")
	}
	j.remoteCache(c)
	j.integritySettings(c)
}

// remoteCache reports a public key the remote cache now trusts: an entry it signed answers for a
// gate without running it, so a key of the agent's own would let it sign passes. The server is
// not judged: it can only hand out what the listed keys signed. A key retired is no finding.
func (j *judge) remoteCache(c configPair) {
	newR := getMap(c.new, "cache", "remote")
	if newR == nil {
		return
	}
	added := grown(getMap(c.old, "cache", "remote")["public_keys"], newR["public_keys"])
	if len(added) == 0 {
		return
	}
	line := lineOf(c.newData, "cache", "remote", "public_keys")
	if line == 0 {
		line = lineOf(c.newData, "cache", "remote")
	}
	j.add(gates.RuleGateRelaxed, c.file.Path, line, "cache.remote.public_keys now trusts %s: entries signed by its private key answer for gates without running them",
		list(added, 2))
}

// compareSetup compares the setup steps the gates need. A step that cannot run is an environment
// error that skips every gate needing it and lets the agent stop unjudged, so its command and what
// it calls an environment error are judged like a gate's own.
func (j *judge) compareSetup(c configPair) {
	oldSteps, newSteps := getMap(c.old, "setup"), getMap(c.new, "setup")
	for _, name := range sortedKeys(oldSteps) {
		was, _ := oldSteps[name].(map[string]any)
		now, ok := newSteps[name].(map[string]any)
		if !ok {
			continue // gone: a gate needing it is refused by the config, or no longer needs it and runs
		}
		at := func(key string) int {
			if n := lineOf(c.newData, "setup", name, key); n > 0 {
				return n
			}
			return lineOf(c.newData, "setup", name)
		}
		report := func(line int, format string, args ...any) {
			j.add(gates.RuleGateRelaxed, c.file.Path, line, "setup step %q %s", name, fmt.Sprintf(format, args...))
		}
		if canonical(was["run"]) != canonical(now["run"]) || canonical(was["argv"]) != canonical(now["argv"]) {
			report(at(cmpOr(keyOf(now, "run", "argv"), "run")), "command changed from %s to %s: the gates that need it are skipped when it cannot run", shown(commandOf(was)), shown(commandOf(now)))
		}
		for _, key := range []string{"dir", "env"} {
			if canonical(was[key]) != canonical(now[key]) {
				report(at(key), "%s changed from %s to %s", key, shown(was[key]), shown(now[key]))
			}
		}
		for _, key := range []string{"infra_exit_codes", "infra_patterns"} {
			if added := grown(was[key], now[key]); len(added) > 0 {
				report(at(key), "%s adds %s: its failures count as environment errors, which skip the gates that need it and let the agent stop", key, list(added, 3))
			}
		}
		if oc, ok := was["causes"].(bool); ok && !oc && now["causes"] != false {
			report(at("causes"), "environment causes turned on: failures they recognise skip the gates that need it")
		}
	}
}

// renamedGate says whether a removed gate reappears under another name with the same definition.
func renamedGate(def map[string]any, oldGates, newGates map[string]any) bool {
	for name, g := range newGates {
		if _, existed := oldGates[name]; !existed && canonical(g) == canonical(def) {
			return true
		}
	}
	return false
}

func (j *judge) compareGate(c configPair, name string, og, ng map[string]any) {
	file := c.file.Path
	at := func(keys ...string) int {
		if n := lineOf(c.newData, append([]string{"gates", name}, keys...)...); n > 0 {
			return n
		}
		return lineOf(c.newData, "gates", name)
	}
	report := func(line int, format string, args ...any) {
		j.add(gates.RuleGateRelaxed, file, line, "gate %q %s", name, fmt.Sprintf(format, args...))
	}
	if og["enabled"] != false && ng["enabled"] == false {
		report(at("enabled"), "disabled (enabled: false)")
	}
	if og["severity"] != "warn" && ng["severity"] == "warn" {
		report(at("severity"), "made severity: warn: its failures no longer block")
	}
	if ow, nw := whenOf(og), whenOf(ng); ow != nw && nw != "always" {
		report(at("when"), "now runs only when: %s", nw)
	}
	if items(og["paths"]) == nil && items(ng["paths"]) != nil {
		report(at("paths"), "narrowed: paths added (%s)", list(items(ng["paths"]), 3))
	} else if lost := grown(ng["paths"], og["paths"]); len(lost) > 0 && items(ng["paths"]) != nil {
		report(at("paths"), "narrowed: paths no longer include %s", list(lost, 3))
	}
	if canonical(og["inputs"]) != canonical(ng["inputs"]) {
		// A cached pass holds while the files its inputs name are unchanged (paths stand in for
		// inputs not given, the whole tree for neither): naming fewer lets a pass outlive the code.
		effective := func(g map[string]any) any {
			if items(g["inputs"]) != nil {
				return g["inputs"]
			}
			return g["paths"]
		}
		if was, now := effective(og), effective(ng); items(was) == nil && items(now) != nil {
			report(at("inputs"), "narrowed: inputs %s: a cached pass now holds while only those are unchanged", list(items(now), 3))
		} else if lost := grown(now, was); len(lost) > 0 && items(now) != nil {
			report(at("inputs"), "narrowed: inputs no longer include %s: a cached pass outlives changes to them", list(lost, 3))
		}
	}
	if added := grown(og["exclude"], ng["exclude"]); len(added) > 0 {
		report(at("exclude"), "narrowed: exclude adds %s", list(added, 3))
	}
	if !truthy(og["new_only"]) && truthy(ng["new_only"]) {
		report(at("new_only"), "narrowed: new_only: true ignores findings on lines the change did not touch")
	}
	if added := grown(og["needs"], ng["needs"]); len(added) > 0 {
		report(at("needs"), "now needs %s: it is skipped when that fails", list(added, 3))
	}
	if og["on_timeout"] != "error" && ng["on_timeout"] == "error" {
		report(at("on_timeout"), "timeouts no longer fail it (on_timeout: error)")
	}
	for _, key := range []string{"infra_exit_codes", "infra_patterns"} {
		if added := grown(og[key], ng[key]); len(added) > 0 {
			report(at(key), "%s adds %s: such failures count as environment errors, which let the agent stop", key, list(added, 3))
		}
	}
	if oc, ok := og["causes"].(bool); ok && !oc && ng["causes"] != false {
		report(at("causes"), "environment causes turned on: failures they recognise no longer block")
	}
	if !truthy(og["writes"]) && truthy(ng["writes"]) {
		report(at("writes"), "may now change the work tree (writes: true)")
	}
	if canonical(og["run"]) != canonical(ng["run"]) || canonical(og["argv"]) != canonical(ng["argv"]) {
		narrowed := ""
		if !namesFiles(commandOf(og)) && namesFiles(commandOf(ng)) {
			narrowed = "narrowed to the change's files ({files}): "
		}
		report(at(cmpOr(keyOf(ng, "run", "argv"), "run")), "%scommand changed from %s to %s", narrowed, shown(commandOf(og)), shown(commandOf(ng)))
	}
	for _, key := range commandKeys {
		if key != "run" && key != "argv" && canonical(og[key]) != canonical(ng[key]) {
			report(at(key), "%s changed from %s to %s", key, shown(og[key]), shown(ng[key]))
		}
	}
}

// keyOf is the first of keys that m has.
func keyOf(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if _, ok := m[k]; ok {
			return k
		}
	}
	return ""
}

func whenOf(g map[string]any) string {
	if s, ok := g["when"].(string); ok && s != "" {
		return s
	}
	return "always"
}

// namesFiles says a command runs on the change's files only ({files}): a tool whose verdict on
// one file depends on others (a type checker, tests) then judges less than the whole project.
func namesFiles(cmd any) bool {
	s, ok := cmd.(string)
	return ok && strings.Contains(s, "{files}")
}

func commandOf(g map[string]any) any {
	if g["run"] != nil {
		return g["run"]
	}
	if argv, ok := g["argv"].([]any); ok {
		parts := make([]string, len(argv))
		for i, a := range argv {
			parts[i] = fmt.Sprint(a)
		}
		return strings.Join(parts, " ")
	}
	return nil
}

// shown quotes a config value for a message: "`go test ./...`", "(none)".
func shown(v any) string {
	switch v := v.(type) {
	case nil:
		return "(none)"
	case string:
		return "`" + excerpt(v) + "`"
	default:
		return "`" + excerpt(canonical(v)) + "`"
	}
}

// integritySettings reports the integrity policy lowered for any rule, in either context: the
// setting that decides what this very check reports is itself judged.
func (j *judge) integritySettings(c configPair) {
	oldP, newP := PolicyOf(c.old["integrity"]), PolicyOf(c.new["integrity"])
	var lowered []string
	for _, rule := range gates.IntegrityRules {
		for _, ctx := range []struct {
			hook bool
			name string
		}{{true, "the stop hook"}, {false, "run"}} {
			o, n := oldP.Level(rule, ctx.hook), newP.Level(rule, ctx.hook)
			if n.Strength() < o.Strength() {
				lowered = append(lowered, fmt.Sprintf("%s %s→%s in %s", rule, o, n, ctx.name))
			}
		}
	}
	if len(lowered) > 0 {
		j.add(gates.RuleIntegrityRelaxed, c.file.Path, lineOf(c.newData, "integrity"), "integrity settings lowered: %s", list(lowered, 3))
	}
}

// PolicyOf reads an `integrity` value as written in a config (a level, or default and rules),
// leniently: what cannot be read is unset. The config package validates it strictly.
func PolicyOf(v any) gates.IntegrityPolicy {
	level := func(v any) gates.IntegrityLevel {
		s, _ := v.(string)
		if l := gates.IntegrityLevel(s); l.Strength() > 0 {
			return l
		}
		return ""
	}
	switch v := v.(type) {
	case string:
		return gates.IntegrityPolicy{Default: level(v)}
	case map[string]any:
		p := gates.IntegrityPolicy{Default: level(v["default"]), Rules: map[string]gates.IntegrityLevel{}}
		rules, _ := v["rules"].(map[string]any)
		for _, k := range sortedKeys(rules) {
			if l := level(rules[k]); l != "" && slices.Contains(gates.IntegrityRules, k) {
				p.Rules[k] = l
			}
		}
		return p
	}
	return gates.IntegrityPolicy{}
}
