package integrity

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// union gathers the entries of several keys into one list: a setting moved from one key to
// another that means the same (golangci-lint v1 to v2, ruff's top level to lint.) is no change.
func union(tree map[string]any, paths ...[]string) []any {
	var out []any
	for _, p := range paths {
		v, _ := get(tree, p...)
		for _, it := range items(v) {
			out = append(out, it)
		}
	}
	return out
}

func keys(paths ...string) [][]string {
	out := make([][]string, len(paths))
	for i, p := range paths {
		out[i] = strings.Split(p, ".")
	}
	return out
}

// golangci compares golangci-lint's linters and exclusions, v1 and v2 layouts alike.
func (j *judge) golangci(c configPair) {
	if c.file.Deleted {
		j.add(gates.RuleLintRelaxed, c.file.Path, 0, "golangci-lint config deleted: its linters and settings are gone")
		return
	}
	j.golangciLinters(c)
	j.golangciExclusions(c)
}

// golangciLinters compares which linters run.
func (j *judge) golangciLinters(c configPair) {
	file := c.file.Path
	at := func(keys ...string) int { return lineOf(c.newData, keys...) }
	if off := grown(union(c.old, keys("linters.disable")...), union(c.new, keys("linters.disable")...)); len(off) > 0 {
		j.add(gates.RuleLintRelaxed, file, at("linters", "disable"), "linters disabled: %s", list(off, 5))
	}
	if lost := lintersLost(c.old, c.new); len(lost) > 0 {
		j.add(gates.RuleLintRelaxed, file, at("linters", "enable"), "linters no longer enabled: %s", list(lost, 5))
	}
	if !truthy(getOr(c.old, "linters", "disable-all")) && truthy(getOr(c.new, "linters", "disable-all")) {
		j.add(gates.RuleLintRelaxed, file, at("linters", "disable-all"), "every linter disabled but the ones enabled (disable-all: true)")
	}
	if truthy(getOr(c.old, "linters", "enable-all")) && !truthy(getOr(c.new, "linters", "enable-all")) {
		j.add(gates.RuleLintRelaxed, file, at("linters"), "enable-all turned off")
	}
	if o, n, lowered := modeLowered(lintDefaultRank(), getOr(c.old, "linters", "default"), getOr(c.new, "linters", "default"), "standard"); lowered {
		j.add(gates.RuleLintRelaxed, file, at("linters", "default"), "linters.default lowered from %s to %s", o, n)
	}
}

// lintDefaultRank orders linters.default's values by how many linters they run.
var lintDefaultRank = sync.OnceValue(func() map[string]int {
	return map[string]int{"all": 3, "standard": 2, "fast": 1, "none": 0}
})

// lintersLost lists the linters (and formatters) no longer enabled, but for the retired ones
// whose successor, if any, is enabled.
func lintersLost(old, new map[string]any) []string {
	enabled := union(new, keys("linters.enable", "formatters.enable")...)
	var lost []string
	for _, l := range grown(enabled, union(old, keys("linters.enable", "formatters.enable")...)) {
		if successor, gone := retiredLinters()[l]; !gone || successor != "" && !slices.Contains(items(enabled), successor) {
			lost = append(lost, l)
		}
	}
	return lost
}

// golangciExclusions compares what is excluded from the report.
func (j *judge) golangciExclusions(c configPair) {
	file := c.file.Path
	at := func(keys ...string) int { return lineOf(c.newData, keys...) }
	if added := grown(oldExclusions(c.old), union(c.new, golangciExclusionKeys()...)); len(added) > 0 {
		j.add(gates.RuleLintRelaxed, file, cmpOr0(at("exclusions"), at("issues")), "exclusions added: %s", list(added, 3))
	}
	if getOr(c.old, "issues", "exclude-use-default") == false && getOr(c.new, "issues", "exclude-use-default") != false {
		j.add(gates.RuleLintRelaxed, file, at("issues"), "the default exclusions are back on (exclude-use-default)")
	}
	for _, k := range []string{"new", "new-from-rev", "new-from-patch", "new-from-merge-base"} {
		if o, n := getOr(c.old, "issues", k), getOr(c.new, "issues", k); unsetFlag(o) && !unsetFlag(n) {
			j.add(gates.RuleLintRelaxed, file, at("issues", k), "only new issues reported now (issues.%s)", k)
		}
	}
}

var golangciExclusionKeys = sync.OnceValue(func() [][]string {
	return keys("issues.exclude", "issues.exclude-rules", "issues.exclude-dirs", "issues.exclude-files",
		"run.skip-dirs", "run.skip-files", "linters.exclusions.rules", "linters.exclusions.paths", "linters.exclusions.presets",
		"issues.exclude-dirs-use-default")
})

// oldExclusions are the old config's exclusions, with the ones v1 made by default.
func oldExclusions(old map[string]any) []any {
	excluded := union(old, golangciExclusionKeys()...)
	if str(old["version"]) != "2" && getOr(old, "issues", "exclude-use-default") != false {
		// v1 excluded these by default; v2 names them as presets.
		excluded = append(excluded, "comments", "common-false-positives", "legacy", "std-error-handling")
	}
	return excluded
}

// unsetFlag says a setting is absent, false or empty.
func unsetFlag(v any) bool {
	return v == nil || v == false || v == ""
}

// retiredLinters are linters golangci-lint removed or merged into another (the successor, "" when
// none): dropping one from the config is housekeeping, unless its successor is not enabled.
var retiredLinters = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"deadcode": "unused", "structcheck": "unused", "varcheck": "unused", "gas": "gosec", "megacheck": "staticcheck",
		"gosimple": "staticcheck", "stylecheck": "staticcheck", "golint": "", "interfacer": "", "maligned": "",
		"scopelint": "", "exhaustivestruct": "exhaustruct", "ifshort": "", "nosnakecase": "", "exportloopref": "",
		"execinquery": "", "gomnd": "mnd", "tenv": "usetesting", "typecheck": "", "gofmt": "", "goimports": "",
		"gofumpt": "", "gci": "", "golines": "",
	}
})

func getOr(tree map[string]any, keys ...string) any {
	v, _ := get(tree, keys...)
	return v
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func cmpOr0(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

// eslintSeverity reads a rule's setting: "error"/2, "warn"/1, "off"/0, or a list starting with
// one of them; -1 when it is not a severity.
func eslintSeverity(v any) int {
	if l, ok := v.([]any); ok && len(l) > 0 {
		v = l[0]
	}
	switch v {
	case "error", float64(2):
		return 2
	case "warn", float64(1):
		return 1
	case "off", float64(0):
		return 0
	}
	return -1
}

var severityName = []string{"off", "warn", "error"}

// eslintRules collects the rules of a config and its overrides, keyed by where they apply.
func eslintRules(tree map[string]any) map[string]int {
	out := map[string]int{}
	addEslintRules(out, "", getMap(tree, "rules"))
	if overrides, ok := tree["overrides"].([]any); ok {
		for _, o := range overrides {
			om, _ := o.(map[string]any)
			addEslintRules(out, "("+strings.Join(items(om["files"]), ",")+") ", getMap(om, "rules"))
		}
	}
	return out
}

// addEslintRules adds the rules set to a severity, under the scope they apply in.
func addEslintRules(out map[string]int, scope string, rules map[string]any) {
	for name, v := range rules {
		if s := eslintSeverity(v); s >= 0 {
			out[scope+name] = s
		}
	}
}

func (j *judge) eslintrc(c configPair) { j.eslintTree(c, c.old, c.new, nil) }

// eslintTree compares two eslint configurations (an .eslintrc, package.json's eslintConfig).
func (j *judge) eslintTree(c configPair, old, new map[string]any, prefix []string) {
	file := c.file.Path
	at := func(k ...string) int { return lineOf(c.newData, append(append([]string{}, prefix...), k...)...) }
	if c.file.Deleted {
		if !j.lintSuccessor(file) {
			j.add(gates.RuleLintRelaxed, file, 0, "eslint config deleted")
		}
		return
	}
	swapped := presetSwapped(old["extends"], new["extends"])
	for _, r := range eslintRulesRelaxed(eslintRules(old), eslintRules(new), len(old) > 0 && !swapped) {
		line := at("rules")
		if r.written {
			line = cmpOr0(at("rules", r.rule), line)
		}
		j.add(gates.RuleLintRelaxed, file, line, "%s", r.message)
	}
	if lost := grown(new["extends"], old["extends"]); len(lost) > 0 && !swapped {
		j.add(gates.RuleLintRelaxed, file, at("extends"), "eslint no longer extends %s", list(lost, 3))
	}
	if added := grown(old["ignorePatterns"], new["ignorePatterns"]); len(added) > 0 {
		j.add(gates.RuleLintRelaxed, file, at("ignorePatterns"), "eslint ignores %s", list(added, 3))
	}
}

// eslintRuleRelaxed is a rule relaxed: its own name, to point at it when it is still written.
type eslintRuleRelaxed struct {
	rule    string
	written bool
	message string
}

// eslintRulesRelaxed are the rules removed, lowered, or added switched off (when there was a
// config before).
func eslintRulesRelaxed(oldRules, newRules map[string]int, hadConfig bool) []eslintRuleRelaxed {
	found := eslintRulesWeakened(oldRules, newRules)
	if hadConfig {
		found = append(found, eslintRulesAddedOff(oldRules, newRules)...)
	}
	return found
}

// eslintRulesWeakened are the rules of the old config removed or lowered.
func eslintRulesWeakened(oldRules, newRules map[string]int) []eslintRuleRelaxed {
	var found []eslintRuleRelaxed
	for _, name := range sortedKeys(anyMap(oldRules)) {
		o := oldRules[name]
		n, ok := newRules[name]
		switch {
		case !ok && o > 0:
			found = append(found, eslintRuleRelaxed{rule: eslintRuleName(name), message: fmt.Sprintf("eslint rule %s removed (was %s)", name, severityName[o])})
		case ok && n < o:
			found = append(found, eslintRuleRelaxed{rule: eslintRuleName(name), written: true, message: fmt.Sprintf("eslint rule %s lowered from %s to %s", name, severityName[o], severityName[n])})
		}
	}
	return found
}

// eslintRulesAddedOff are the rules the new config names only to switch them off.
func eslintRulesAddedOff(oldRules, newRules map[string]int) []eslintRuleRelaxed {
	var found []eslintRuleRelaxed
	for _, name := range sortedKeys(anyMap(newRules)) {
		if _, existed := oldRules[name]; !existed && newRules[name] == 0 {
			found = append(found, eslintRuleRelaxed{rule: eslintRuleName(name), written: true, message: fmt.Sprintf("eslint rule %s set to %s", name, severityName[newRules[name]])})
		}
	}
	return found
}

// eslintRuleName is a rule's name without the scope of the override it is in.
func eslintRuleName(scoped string) string {
	return scoped[strings.LastIndex(scoped, " ")+1:]
}

func anyMap[V any](m map[string]V) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// flatRuleOff is a rule turned off or down to a warning in a JavaScript eslint config, which
// cannot be parsed here: read line by line, every rule on a line (`rules: { a: "error", b:
// "off" }` is written on one line as often as not).
var flatRuleOff = lazy(`(?:^|[\s{,])["']?(@?[\w/-]+)["']?\s*:\s*\[?\s*(?:["'](off|warn)["']|([01])\b)`)

func (j *judge) eslintFlat(f File) {
	if f.Deleted {
		if !j.lintSuccessor(f.Path) {
			j.add(gates.RuleLintRelaxed, f.Path, 0, "eslint config deleted")
		}
		return
	}
	swapped := j.swappedFrom(f)
	before := map[string]bool{}
	for _, l := range f.Removed {
		for _, m := range flatRuleOff.FindAllStringSubmatch(jsCode(l.Text), -1) {
			before[m[1]+" "+m[2]+m[3]] = true
		}
	}
	for _, l := range f.Added {
		for _, m := range flatRuleOff.FindAllStringSubmatch(jsCode(l.Text), -1) {
			if !before[m[1]+" "+m[2]+m[3]] && (swapped == "" || checkedBefore(swapped, m[1])) {
				level := map[string]string{"0": "off", "1": "warn"}[m[3]]
				j.add(gates.RuleLintRelaxed, f.Path, l.N, "eslint rule %s set to %s", m[1], cmpOr(m[2], level))
			}
		}
	}
}

// jsCode is a line of JavaScript without its comment: a rule written in a comment is no setting.
func jsCode(line string) string {
	if t := strings.TrimSpace(line); strings.HasPrefix(t, "*") || strings.HasPrefix(t, "/*") {
		return ""
	}
	for i := strings.Index(line, "//"); i >= 0; {
		if !inString(line, i, quotesOf(langJS)) {
			return line[:i]
		}
		next := strings.Index(line[i+2:], "//")
		if next < 0 {
			break
		}
		i += 2 + next
	}
	return line
}

// ignoreFile reports patterns added to a linter's ignore file.
func (j *judge) ignoreFile(f File, tool string) {
	removed := map[string]bool{}
	for _, l := range f.Removed {
		removed[strings.TrimSpace(l.Text)] = true
	}
	for _, l := range f.Added {
		t := strings.TrimSpace(l.Text)
		if t == "" || strings.HasPrefix(t, "#") || removed[t] || ignoredAnyway(t) {
			continue
		}
		j.add(gates.RuleLintRelaxed, f.Path, l.N, "%s now ignores %s", tool, t)
	}
}

// severityConfig compares configs whose rules are severity words at any depth (biome, oxlint,
// pyright): a severity lowered, a check's `enabled` or `recommended` turned off.
func (j *judge) severityConfig(c configPair) {
	if c.file.Deleted {
		if !j.lintSuccessor(c.file.Path) {
			j.add(gates.RuleLintRelaxed, c.file.Path, 0, "lint config deleted")
		}
		return
	}
	j.severities(c, gates.RuleLintRelaxed, nil, c.old, c.new)
}

var severityRank = sync.OnceValue(func() map[string]int {
	return map[string]int{
		"error": 4, "warn": 3, "warning": 3, "info": 2, "information": 2, "hint": 1, "off": 0, "none": 0, "allow": 0,
	}
})

func (j *judge) severities(c configPair, rule string, path []string, old, new any) {
	switch o := old.(type) {
	case map[string]any:
		n, _ := new.(map[string]any)
		for _, k := range sortedKeys(o) {
			j.severities(c, rule, append(append([]string{}, path...), k), o[k], n[k])
		}
	case string:
		if ns, lowered := severityLowered(o, new, path); lowered {
			j.add(rule, c.file.Path, lineOf(c.newData, path...), "%s lowered from %s to %s", strings.Join(path, "."), o, ns)
		}
	case bool:
		if o && new == false && len(path) > 0 && switchKeys()[path[len(path)-1]] {
			j.add(rule, c.file.Path, lineOf(c.newData, path...), "%s turned off", strings.Join(path, "."))
		}
	}
}

// switchKeys are the keys whose boolean turns a check, or a set of them, on.
var switchKeys = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"enabled": true, "recommended": true, "all": true}
})

// severityLowered says whether a severity word under a key is now a lower one, and names it.
func severityLowered(o string, new any, path []string) (string, bool) {
	or, ok := severityRank()[o]
	if !ok || len(path) == 0 {
		return "", false
	}
	ns, _ := new.(string)
	nr, ok := severityRank()[ns]
	return ns, ok && nr < or
}

// Type-checker options whose turning off (strict ones) or on (lax ones) weakens the check.
var (
	tsStrictFamily = []string{"noImplicitAny", "strictNullChecks", "strictFunctionTypes", "strictBindCallApply",
		"strictPropertyInitialization", "noImplicitThis", "useUnknownInCatchVariables", "alwaysStrict", "strictBuiltinIteratorReturn"}
	tsStrict = []string{"noUnusedLocals", "noUnusedParameters", "noImplicitReturns", "noFallthroughCasesInSwitch",
		"noUncheckedIndexedAccess", "noImplicitOverride", "exactOptionalPropertyTypes", "noPropertyAccessFromIndexSignature",
		"checkJs", "noUncheckedSideEffectImports", "forceConsistentCasingInFileNames", "isolatedModules"}
	tsLax = []string{"skipLibCheck", "skipDefaultLibCheck", "suppressImplicitAnyIndexErrors", "suppressExcessPropertyErrors",
		"noCheck", "allowUnreachableCode", "allowUnusedLabels"}
)

func (j *judge) tsconfig(c configPair) {
	if c.file.Deleted {
		return // a project without a tsconfig is not type-checked more loosely, it is not a TS project
	}
	oc, nc := getMap(c.old, "compilerOptions"), getMap(c.new, "compilerOptions")
	found := switchedOff([]string{"strict"}, oc, nc)
	found = append(found, tsStrictFamilyOff(oc, nc)...)
	found = append(found, switchedOff(tsStrict, oc, nc)...)
	found = append(found, switchedOn(tsLax, oc, nc)...)
	for _, r := range found {
		line := cmpOr0(lineOf(c.newData, "compilerOptions", r.key), lineOf(c.newData, "compilerOptions"))
		j.add(gates.RuleTypecheckRelaxed, c.file.Path, line, "compilerOptions.%s", r.message)
	}
}

// tsStrictFamilyOff are the options strict turns on that are now off: turned off one by one, or
// strict itself turned off while they were not set apart.
func tsStrictFamilyOff(oc, nc map[string]any) []relaxation {
	var found []relaxation
	for _, k := range tsStrictFamily {
		o := boolOr(oc[k], truthy(oc["strict"]))
		n := boolOr(nc[k], truthy(nc["strict"]))
		if o && !n && (truthy(nc["strict"]) || !truthy(oc["strict"]) || nc[k] == false) {
			found = append(found, relaxation{key: k, message: k + " turned off"})
		}
	}
	return found
}

// switchedOff are the boolean options that were on and are not now.
func switchedOff(options []string, was, now map[string]any) []relaxation {
	var found []relaxation
	for _, k := range options {
		if truthy(was[k]) && !truthy(now[k]) {
			found = append(found, relaxation{key: k, message: k + " turned off"})
		}
	}
	return found
}

// switchedOn are the boolean options that were off and are on now.
func switchedOn(options []string, was, now map[string]any) []relaxation {
	var found []relaxation
	for _, k := range options {
		if !truthy(was[k]) && truthy(now[k]) {
			found = append(found, relaxation{key: k, message: k + " turned on"})
		}
	}
	return found
}

// boolOr is an explicit boolean, else the fallback.
func boolOr(v any, fallback bool) bool {
	if b, ok := v.(bool); ok {
		return b
	}
	return fallback
}

// pyproject runs the Python tools' rules on their [tool.X] tables.
func (j *judge) pyproject(c configPair) {
	tool := func(tree map[string]any, name string) map[string]any { return getMap(tree, "tool", name) }
	j.ruff(c, tool(c.old, "ruff"), tool(c.new, "ruff"))
	j.mypy(c, tool(c.old, "mypy"), tool(c.new, "mypy"), "tool", "mypy")
	j.pyright(c, tool(c.old, "pyright"), tool(c.new, "pyright"))
	j.pylint(c, tool(c.old, "pylint"), tool(c.new, "pylint"))
}

func (j *judge) ruff(c configPair, old, new map[string]any) {
	if old == nil {
		return
	}
	file := c.file.Path
	ignores := keys("ignore", "extend-ignore", "lint.ignore", "lint.extend-ignore", "per-file-ignores", "lint.per-file-ignores",
		"extend-per-file-ignores", "lint.extend-per-file-ignores", "exclude", "extend-exclude", "lint.exclude")
	if added := grown(union(old, ignores...), union(new, ignores...)); len(added) > 0 {
		j.add(gates.RuleLintRelaxed, file, cmpOr0(lineOf(c.newData, "ignore"), lineOf(c.newData, "ruff")), "ruff now ignores %s", list(added, 5))
	}
	selects := keys("select", "extend-select", "lint.select", "lint.extend-select")
	if lost := grown(union(new, selects...), union(old, selects...)); len(lost) > 0 {
		j.add(gates.RuleLintRelaxed, file, cmpOr0(lineOf(c.newData, "select"), lineOf(c.newData, "ruff")), "ruff no longer selects %s", list(lost, 5))
	}
}

// mypy's options: strict ones weaken the check when turned off, lax ones when turned on.
var (
	mypyStrict = []string{"strict", "disallow_untyped_defs", "disallow_incomplete_defs", "disallow_untyped_calls",
		"disallow_any_generics", "disallow_untyped_decorators", "disallow_subclassing_any", "check_untyped_defs",
		"warn_return_any", "warn_unused_ignores", "no_implicit_optional", "strict_optional", "strict_equality",
		"no_implicit_reexport", "warn_unreachable", "disallow_any_unimported", "extra_checks", "warn_redundant_casts"}
	mypyLax = []string{"ignore_errors", "ignore_missing_imports", "allow_untyped_globals", "implicit_optional", "allow_redefinition"}
)

// mypy compares one mypy table (global) and its per-module overrides.
func (j *judge) mypy(c configPair, old, new map[string]any, at ...string) {
	if new == nil && old == nil {
		return
	}
	scopes := func(t map[string]any) map[string]map[string]any {
		out := map[string]map[string]any{"": t}
		if overrides, ok := t["overrides"].([]any); ok {
			for _, o := range overrides {
				om, _ := o.(map[string]any)
				out[strings.Join(items(om["module"]), ",")] = om
			}
		}
		return out
	}
	oldScopes, newScopes := scopes(old), scopes(new)
	for _, name := range sortedKeys(anyMap(newScopes)) {
		j.mypyScope(c, name, oldScopes[name], newScopes[name], name == "", at)
	}
}

func (j *judge) mypyScope(c configPair, scope string, old, new map[string]any, global bool, at []string) {
	where := "mypy"
	if scope != "" {
		where = "mypy for " + scope
	}
	for _, r := range mypyRelaxations(old, new, global) {
		line := cmpOr0(lineOf(c.newData, append(append([]string{}, at...), r.key)...), lineOf(c.newData, at...))
		j.add(gates.RuleTypecheckRelaxed, c.file.Path, line, "%s: %s", where, r.message)
	}
}

// mypyRelaxations compares one scope of mypy's options: the global one, or a module's override.
func mypyRelaxations(old, new map[string]any, global bool) []relaxation {
	var found []relaxation
	for _, k := range mypyStrict {
		if mypyStrictOff(old[k], new[k], global) {
			found = append(found, relaxation{key: k, message: k + " turned off"})
		}
	}
	found = append(found, switchedOn(mypyLax, old, new)...)
	if added := grown(old["disable_error_code"], new["disable_error_code"]); len(added) > 0 {
		found = append(found, relaxation{key: "disable_error_code", message: "error codes disabled: " + list(added, 5)})
	}
	if f := str(new["follow_imports"]); (f == "skip" || f == "silent") && str(old["follow_imports"]) != f {
		found = append(found, relaxation{key: "follow_imports", message: "follow_imports = " + f})
	}
	return found
}

// mypyStrictOff says a strict option is off now: turned off where it was on (an override only
// when it sets it), or an override setting it off where it was not set.
func mypyStrictOff(o, n any, global bool) bool {
	return truthy(o) && !truthy(n) && (n != nil || global) || n != nil && !truthy(n) && o == nil && !global
}

func (j *judge) pyright(c configPair, old, new map[string]any) {
	if old == nil {
		return
	}
	if o, n, lowered := modeLowered(pyrightModeRank(), old["typeCheckingMode"], new["typeCheckingMode"], "standard"); lowered {
		j.add(gates.RuleTypecheckRelaxed, c.file.Path, lineOf(c.newData, "typeCheckingMode"), "pyright typeCheckingMode lowered from %s to %s", o, n)
	}
	for _, k := range pyrightReportsLowered(old, new) {
		j.add(gates.RuleTypecheckRelaxed, c.file.Path, lineOf(c.newData, k), "pyright %s lowered", k)
	}
	if added := grown(union(old, keys("ignore", "exclude")...), union(new, keys("ignore", "exclude")...)); len(added) > 0 {
		j.add(gates.RuleTypecheckRelaxed, c.file.Path, lineOf(c.newData, "ignore"), "pyright now ignores %s", list(added, 3))
	}
}

// pyrightModeRank orders pyright's type checking modes by how much they check.
var pyrightModeRank = sync.OnceValue(func() map[string]int {
	return map[string]int{"strict": 4, "standard": 3, "basic": 2, "off": 1}
})

// pyrightReportsLowered are the report* settings still written at a lower level.
func pyrightReportsLowered(old, new map[string]any) []string {
	var lowered []string
	for _, k := range sortedKeys(old) {
		if strings.HasPrefix(k, "report") && new[k] != nil && pyrightLevel(new[k]) < pyrightLevel(old[k]) {
			lowered = append(lowered, k)
		}
	}
	return lowered
}

// modeLowered says whether a mode that was set is now one rank puts lower, an unset one counting
// as fallback; it returns both modes as they count.
func modeLowered(rank map[string]int, old, new any, fallback string) (o, n string, lowered bool) {
	o, n = str(old), cmpOr(str(new), fallback)
	return o, n, o != "" && rank[n] < rank[o]
}

func pyrightLevel(v any) int {
	switch v {
	case true, "error":
		return 3
	case "warning":
		return 2
	case "information":
		return 1
	}
	return 0
}

func (j *judge) pylint(c configPair, old, new map[string]any) {
	disabled := func(t map[string]any) []any {
		var out []any
		for k, v := range t {
			if m, ok := v.(map[string]any); ok && strings.Contains(strings.ReplaceAll(k, "_", " "), "messages") {
				for _, it := range items(m["disable"]) {
					out = append(out, it)
				}
			}
		}
		return out
	}
	if added := grown(disabled(old), disabled(new)); len(added) > 0 {
		j.add(gates.RuleLintRelaxed, c.file.Path, lineOf(c.newData, "disable"), "pylint messages disabled: %s", list(added, 5))
	}
}

// iniConfig runs the rules of the tools configured in INI files: flake8, mypy, pylint.
func (j *judge) iniConfig(c configPair) {
	for _, tool := range []string{"flake8", "pycodestyle", "pydocstyle"} {
		if old := getMap(c.old, tool); old != nil {
			j.flake8(c, tool, old, getMap(c.new, tool))
		}
	}
	for _, name := range sortedKeys(c.new) {
		if name == "mypy" || strings.HasPrefix(name, "mypy-") {
			scope := strings.TrimPrefix(strings.TrimPrefix(name, "mypy"), "-")
			j.mypyScope(c, scope, getMap(c.old, name), getMap(c.new, name), scope == "", []string{name})
		}
	}
	j.pylint(c, c.old, c.new)
}

// flake8Ignores are the settings of flake8 and its kin that leave checks or files out.
var flake8Ignores = sync.OnceValue(func() [][]string {
	return keys("ignore", "extend-ignore", "per-file-ignores", "extend-per-file-ignores", "exclude", "extend-exclude")
})

// flake8 compares the section of flake8 or one of its kin: what it ignores and selects, and its
// limits.
func (j *judge) flake8(c configPair, tool string, old, new map[string]any) {
	file := c.file.Path
	if added := grown(union(old, flake8Ignores()...), union(new, flake8Ignores()...)); len(added) > 0 {
		j.add(gates.RuleLintRelaxed, file, cmpOr0(lineOf(c.newData, "ignore"), lineOf(c.newData, tool)), "%s now ignores %s", tool, list(added, 5))
	}
	if lost := grown(union(new, keys("select", "extend-select")...), union(old, keys("select", "extend-select")...)); len(lost) > 0 {
		j.add(gates.RuleLintRelaxed, file, lineOf(c.newData, "select"), "%s no longer selects %s", tool, list(lost, 5))
	}
	for _, k := range []string{"max-complexity", "max-line-length"} {
		if o, raised := limitRaised(k, old[k], new[k]); raised {
			j.add(gates.RuleLintRelaxed, file, lineOf(c.newData, k), "%s %s raised from %g to %s", tool, k, o, fmt.Sprint(cmpOr(str(new[k]), "(none)")))
		}
	}
}

// limitRaised says whether a limit that was set is now higher, or for max-complexity, gone (no
// complexity check at all); it returns the old limit.
func limitRaised(k string, old, new any) (float64, bool) {
	o, wasSet := number(old)
	n, isSet := number(new)
	return o, wasSet && (isSet && n > o || !isSet && k == "max-complexity")
}

// cargoLintRank orders Cargo's lint levels by how hard they fail.
var cargoLintRank = sync.OnceValue(func() map[string]int {
	return map[string]int{"forbid": 4, "deny": 3, "warn": 2, "allow": 1}
})

// cargoLints compares the lint levels of Cargo.toml's [lints] and [workspace.lints].
func (j *judge) cargoLints(c configPair) {
	for _, table := range [][]string{{"lints"}, {"workspace", "lints"}} {
		old, new := getMap(c.old, table...), getMap(c.new, table...)
		if truthy(old["workspace"]) && !truthy(new["workspace"]) {
			j.add(gates.RuleLintRelaxed, c.file.Path, lineOf(c.newData, "lints"), "no longer inherits the workspace lints")
		}
		for _, tool := range sortedKeys(old) {
			ot, _ := old[tool].(map[string]any)
			nt, _ := new[tool].(map[string]any)
			j.cargoToolLints(c, tool, ot, nt)
		}
	}
}

// cargoToolLints reports the lints of one tool (rust, clippy) lowered from warn or above.
func (j *judge) cargoToolLints(c configPair, tool string, ot, nt map[string]any) {
	for _, lint := range sortedKeys(ot) {
		o, n := cargoLintLevel(ot[lint]), cargoLintLevel(nt[lint])
		if cargoLintRank()[o] >= 2 && cargoLintRank()[n] < cargoLintRank()[o] {
			j.add(gates.RuleLintRelaxed, c.file.Path, cmpOr0(lineOf(c.newData, lint), lineOf(c.newData, "lints")),
				"%s lint %s lowered from %s to %s", tool, lint, o, cmpOr(n, "(default)"))
		}
	}
}

// cargoLintLevel reads a lint's level: written alone, or as a table's level.
func cargoLintLevel(v any) string {
	if m, ok := v.(map[string]any); ok {
		v = m["level"]
	}
	return str(v)
}

// clippyConfig reports clippy thresholds raised and allowances turned on.
func (j *judge) clippyConfig(c configPair) {
	for _, k := range sortedKeys(c.old) {
		if msg := clippyRelaxed(k, c.old[k], c.new[k]); msg != "" {
			j.add(gates.RuleLintRelaxed, c.file.Path, lineOf(c.newData, k), "%s", msg)
		}
	}
	for _, k := range sortedKeys(c.new) {
		if strings.HasPrefix(k, "allow-") && !truthy(c.old[k]) && truthy(c.new[k]) {
			j.add(gates.RuleLintRelaxed, c.file.Path, lineOf(c.newData, k), "clippy %s turned on", k)
		}
	}
}

// clippyRelaxed says how a clippy setting that was set relaxes: a threshold raised, a disallowed
// list shortened; "" when it does not.
func clippyRelaxed(k string, o, n any) string {
	on, ok1 := number(o)
	nn, ok2 := number(n)
	switch {
	case ok1 && ok2 && isClippyThreshold(k) && nn > on:
		return fmt.Sprintf("clippy %s raised from %g to %g", k, on, nn)
	case strings.HasPrefix(k, "disallowed-"):
		if lost := grown(n, o); len(lost) > 0 {
			return fmt.Sprintf("clippy %s no longer lists %s", k, list(lost, 3))
		}
	}
	return ""
}

func isClippyThreshold(k string) bool {
	return strings.HasSuffix(k, "-threshold") || strings.HasPrefix(k, "max-") || strings.HasPrefix(k, "too-many-")
}

// ignoredAnyway says whether an ignore pattern names what is no source to lint: node_modules
// and .git, which eslint, biome and oxlint ignore by default, and the reports a coverage run
// writes.
func ignoredAnyway(pattern string) bool {
	p := strings.Trim(strings.TrimSuffix(strings.TrimPrefix(pattern, "**/"), "/**"), "/")
	return p == "node_modules" || p == ".git" || p == "coverage"
}
