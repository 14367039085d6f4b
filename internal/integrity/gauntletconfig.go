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
	j.compareGates(c)
	j.compareSetup(c)
	j.stopHook(c)
	j.measuredAndExcused(c)
	j.remoteCache(c)
	j.integritySettings(c)
}

// compareGates compares every gate the old config had with its new definition.
func (j *judge) compareGates(c configPair) {
	oldGates, newGates := getMap(c.old, "gates"), getMap(c.new, "gates")
	for _, name := range sortedKeys(oldGates) {
		og, _ := oldGates[name].(map[string]any)
		ng, ok := newGates[name].(map[string]any)
		if ok {
			j.compareGate(c, name, og, ng)
		} else if !renamedGate(og, oldGates, newGates) {
			j.add(gates.RuleGateRelaxed, c.file.Path, lineOf(c.newData, "gates"), "gate %q removed", name)
		}
	}
}

// stopHook compares the settings that decide when the stop hook lets the agent go.
func (j *judge) stopHook(c configPair) {
	file := c.file.Path
	oldHook, newHook := getMap(c.old, "stop_hook"), getMap(c.new, "stop_hook")
	at := func(keys ...string) int { return lineOf(c.newData, keys...) }
	if oldMax, newMax := maxAttempts(oldHook), maxAttempts(newHook); newMax < oldMax {
		j.add(gates.RuleGateRelaxed, file, at("stop_hook", "max_attempts"), "stop_hook.max_attempts lowered from %g to %g: the agent is let go sooner", oldMax, newMax)
	}
	if !truthy(oldHook["honor_active_flag"]) && truthy(newHook["honor_active_flag"]) {
		j.add(gates.RuleGateRelaxed, file, at("stop_hook", "honor_active_flag"), "stop_hook.honor_active_flag turned on: the agent is let go whenever the host says the hook is active")
	}
	if truthy(oldHook["subagents"]) && !truthy(newHook["subagents"]) {
		j.add(gates.RuleGateRelaxed, file, at("stop_hook"), "stop_hook.subagents turned off: subagents stop unjudged")
	}
	if was, now := preEditStrength(oldHook), preEditStrength(newHook); now < was {
		j.add(gates.RuleGateRelaxed, file, at("stop_hook", "pre_edit"), "stop_hook.pre_edit lowered to %v: edits that weaken the gates are no longer refused before they land", newHook["pre_edit"])
	}
	if newHook["local_overrides"] == "honour" && oldHook["local_overrides"] != "honour" {
		j.add(gates.RuleGateRelaxed, file, at("stop_hook", "local_overrides"), "stop_hook.local_overrides set to honour: a personal override can now weaken the gates")
	}
}

// preEditStrength ranks stop_hook.pre_edit: deny (the default) over warn over off. YAML reads a
// bare off as false.
func preEditStrength(hook map[string]any) int {
	switch v := hook["pre_edit"].(type) {
	case nil:
		return 2
	case string:
		return map[string]int{"deny": 2, "warn": 1}[v]
	}
	return 0
}

// maxAttempts is how many stops the hook refuses before letting the agent go (3 unless set).
func maxAttempts(hook map[string]any) float64 {
	if n, ok := number(hook["max_attempts"]); ok {
		return n
	}
	return 3
}

// measuredAndExcused compares where the change is measured from and whether recognised
// environment failures excuse a gate.
func (j *judge) measuredAndExcused(c configPair) {
	file := c.file.Path
	if ob, nb := fmt.Sprint(c.old["base"]), fmt.Sprint(c.new["base"]); ob != nb {
		j.add(gates.RuleGateRelaxed, file, lineOf(c.newData, "base"), "base changed from %s to %s: the change is measured from elsewhere", shown(c.old["base"]), shown(c.new["base"]))
	}
	if explicitlyOff(c.old["causes"]) && c.new["causes"] != false {
		j.add(gates.RuleGateRelaxed, file, lineOf(c.newData, "causes"), "the environment-cause catalogue turned on: failures it recognises no longer block")
	}
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
		j.reportSettings(c, "setup", "setup step", name, relaxations(setupChecks, was, now))
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
	j.reportSettings(c, "gates", "gate", name, relaxations(gateChecks, og, ng))
}

// relaxation is one way an entry's new definition judges less than its old one: the setting to
// point at and what to say after the entry's name.
type relaxation struct {
	key, message string
}

// settingCheck compares one aspect of an entry's old and new definitions.
type settingCheck func(was, now map[string]any) []relaxation

// gateChecks are a gate's settings that can relax it, in the order their findings are reported.
var gateChecks = []settingCheck{
	becomes("enabled", false, "disabled (enabled: false)"),
	becomes("severity", "warn", "made severity: warn: its failures no longer block"),
	gateWhen,
	gatePaths,
	gateInputs,
	grows("exclude", "narrowed: exclude adds %s"),
	turnsOn("new_only", "narrowed: new_only: true ignores findings on lines the change did not touch"),
	grows("needs", "now needs %s: it is skipped when that fails"),
	becomes("on_timeout", "error", "timeouts no longer fail it (on_timeout: error)"),
	grows("infra_exit_codes", "infra_exit_codes adds %s: such failures count as environment errors, which let the agent stop"),
	grows("infra_patterns", "infra_patterns adds %s: such failures count as environment errors, which let the agent stop"),
	causesOn("environment causes turned on: failures they recognise no longer block"),
	turnsOn("writes", "may now change the work tree (writes: true)"),
	gateCommand,
	commandSettings,
}

// setupChecks are a setup step's settings that can relax the gates needing it, in report order.
var setupChecks = []settingCheck{
	setupCommand,
	changed("dir"),
	changed("env"),
	grows("infra_exit_codes", "infra_exit_codes adds %s: its failures count as environment errors, which skip the gates that need it and let the agent stop"),
	grows("infra_patterns", "infra_patterns adds %s: its failures count as environment errors, which skip the gates that need it and let the agent stop"),
	causesOn("environment causes turned on: failures they recognise skip the gates that need it"),
}

// relaxations runs every check on an entry's old and new definitions.
func relaxations(checks []settingCheck, was, now map[string]any) []relaxation {
	var found []relaxation
	for _, check := range checks {
		found = append(found, check(was, now)...)
	}
	return found
}

// reportSettings reports an entry's relaxations, each at its setting's line, or at the entry's
// own when the setting is gone.
func (j *judge) reportSettings(c configPair, section, noun, name string, found []relaxation) {
	for _, r := range found {
		line := lineOf(c.newData, section, name, r.key)
		if line == 0 {
			line = lineOf(c.newData, section, name)
		}
		j.add(gates.RuleGateRelaxed, c.file.Path, line, "%s %q %s", noun, name, r.message)
	}
}

func relaxed(key, format string, args ...any) []relaxation {
	return []relaxation{{key: key, message: fmt.Sprintf(format, args...)}}
}

// becomes is the check that a setting now holds value, which it did not.
func becomes(key string, value any, message string) settingCheck {
	return func(was, now map[string]any) []relaxation {
		if was[key] != value && now[key] == value {
			return relaxed(key, "%s", message)
		}
		return nil
	}
}

// turnsOn is the check that a boolean setting is now true, which it was not.
func turnsOn(key, message string) settingCheck {
	return func(was, now map[string]any) []relaxation {
		if !truthy(was[key]) && truthy(now[key]) {
			return relaxed(key, "%s", message)
		}
		return nil
	}
}

// grows is the check that a list setting gained entries; format takes them.
func grows(key, format string) settingCheck {
	return func(was, now map[string]any) []relaxation {
		if added := grown(was[key], now[key]); len(added) > 0 {
			return relaxed(key, format, list(added, 3))
		}
		return nil
	}
}

// changed is the check that a setting's value changed at all.
func changed(key string) settingCheck {
	return func(was, now map[string]any) []relaxation {
		if canonical(was[key]) != canonical(now[key]) {
			return relaxed(key, "%s changed from %s to %s", key, shown(was[key]), shown(now[key]))
		}
		return nil
	}
}

// causesOn is the check that the environment causes, explicitly off, are no longer off.
func causesOn(message string) settingCheck {
	return func(was, now map[string]any) []relaxation {
		if explicitlyOff(was["causes"]) && now["causes"] != false {
			return relaxed("causes", "%s", message)
		}
		return nil
	}
}

// explicitlyOff says a boolean setting is written, and false.
func explicitlyOff(v any) bool {
	on, ok := v.(bool)
	return ok && !on
}

func gateWhen(was, now map[string]any) []relaxation {
	if ow, nw := whenOf(was), whenOf(now); ow != nw && nw != "always" {
		return relaxed("when", "now runs only when: %s", nw)
	}
	return nil
}

func gatePaths(was, now map[string]any) []relaxation {
	introduced, lost := narrowing(was["paths"], now["paths"])
	if introduced != nil {
		return relaxed("paths", "narrowed: paths added (%s)", list(introduced, 3))
	}
	if len(lost) > 0 {
		return relaxed("paths", "narrowed: paths no longer include %s", list(lost, 3))
	}
	return nil
}

// gateInputs judges what a cached pass depends on. A cached pass holds while the files its inputs
// name are unchanged (paths stand in for inputs not given, the whole tree for neither): naming
// fewer lets a pass outlive the code.
func gateInputs(was, now map[string]any) []relaxation {
	if canonical(was["inputs"]) == canonical(now["inputs"]) {
		return nil
	}
	introduced, lost := narrowing(effectiveInputs(was), effectiveInputs(now))
	if introduced != nil {
		return relaxed("inputs", "narrowed: inputs %s: a cached pass now holds while only those are unchanged", list(introduced, 3))
	}
	if len(lost) > 0 {
		return relaxed("inputs", "narrowed: inputs no longer include %s: a cached pass outlives changes to them", list(lost, 3))
	}
	return nil
}

func effectiveInputs(g map[string]any) any {
	if items(g["inputs"]) != nil {
		return g["inputs"]
	}
	return g["paths"]
}

// narrowing says how a list that limits a gate shrank: given where it was absent (introduced,
// all its entries), or no longer holding some of the entries it held (lost). Nothing when the
// list is now absent: the gate then covers everything.
func narrowing(was, now any) (introduced, lost []string) {
	if items(now) == nil {
		return nil, nil
	}
	if items(was) == nil {
		return items(now), nil
	}
	return nil, grown(now, was)
}

func commandChanged(was, now map[string]any) bool {
	return canonical(was["run"]) != canonical(now["run"]) || canonical(was["argv"]) != canonical(now["argv"])
}

// commandKey is the setting a command is written under, for pointing at it.
func commandKey(g map[string]any) string {
	return cmpOr(keyOf(g, "run", "argv"), "run")
}

func gateCommand(was, now map[string]any) []relaxation {
	if !commandChanged(was, now) {
		return nil
	}
	narrowed := ""
	if !namesFiles(commandOf(was)) && namesFiles(commandOf(now)) {
		narrowed = "narrowed to the change's files ({files}): "
	}
	return relaxed(commandKey(now), "%scommand changed from %s to %s", narrowed, shown(commandOf(was)), shown(commandOf(now)))
}

func setupCommand(was, now map[string]any) []relaxation {
	if !commandChanged(was, now) {
		return nil
	}
	return relaxed(commandKey(now), "command changed from %s to %s: the gates that need it are skipped when it cannot run", shown(commandOf(was)), shown(commandOf(now)))
}

// commandSettings reports the other settings that decide what a gate runs.
func commandSettings(was, now map[string]any) []relaxation {
	var found []relaxation
	for _, key := range commandKeys {
		if key != "run" && key != "argv" {
			found = append(found, changed(key)(was, now)...)
		}
	}
	return found
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
