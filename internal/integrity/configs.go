package integrity

import (
	"path"
	"slices"
	"strings"
	"sync"
)

// configPair is one configuration file before and after the change, parsed.
type configPair struct {
	file     File
	old, new map[string]any
	// oldData and newData are the raw bytes (nil when the file is absent on that side).
	oldData, newData []byte
}

// checkConfigs runs the configuration rules on every changed configuration file.
func (j *judge) checkConfigs() {
	for _, f := range j.files {
		if notOurs(f.Path) {
			continue
		}
		j.configFile(f)
	}
	j.checkWorkflows()
	j.checkGoEnvWrites()
}

// formatOf says how a configuration file the rules know is written; ok is false for any other.
func formatOf(p string) (format, bool) {
	base := path.Base(p)
	for _, s := range formatSuffixes {
		if strings.HasSuffix(base, s.suffix) {
			return s.format, true
		}
	}
	f, ok := formatNames()[base]
	return f, ok
}

// formatSuffixes are the endings that say how a config file is written.
var formatSuffixes = []struct {
	suffix string
	format format
}{
	{".json", formatJSON}, {".jsonc", formatJSON}, {".yml", formatYAML}, {".yaml", formatYAML}, {".toml", formatTOML},
	{".cfg", formatINI}, {".ini", formatINI},
}

// formatNames are the config files whose whole name says how they are written.
var formatNames = sync.OnceValue(func() map[string]format {
	return map[string]format{
		".eslintrc": formatJSON, ".nycrc": formatJSON, ".c8rc": formatJSON,
		".flake8": formatINI, ".pylintrc": formatINI, "pylintrc": formatINI, ".coveragerc": formatINI,
	}
})

// load reads and parses both sides of a configuration file. ok is false when a side that exists
// does not parse: a broken file is for the gates to report, not a weakening to guess at.
func (j *judge) load(f File) (configPair, bool) {
	pair := configPair{file: f}
	if !f.Created {
		pair.oldData, _ = j.ch.Old(cmpOr(f.OldPath, f.Path))
	}
	if !f.Deleted {
		pair.newData, _ = j.ch.New(f.Path)
	}
	var err error
	if pair.old, err = treeOf(cmpOr(f.OldPath, f.Path), pair.oldData); err != nil {
		return pair, false
	}
	if pair.new, err = treeOf(f.Path, pair.newData); err != nil {
		return pair, false
	}
	return pair, true
}

// treeOf parses one side of a config file by the format its path names: a format not known, or
// a side that is absent, is an empty tree.
func treeOf(p string, data []byte) (map[string]any, error) {
	f, known := formatOf(p)
	if !known {
		return map[string]any{}, nil
	}
	tree, err := parse(f, data)
	if err != nil || tree != nil {
		return tree, err
	}
	return map[string]any{}, nil
}

// configFile runs the rules that apply to one file by its name.
func (j *judge) configFile(f File) {
	p := f.Path
	f, rules, judged := j.rulesFor(f)
	if !judged {
		return
	}
	if isHookFile(p) {
		rules = append(rules, (*judge).hookFile)
	}
	if coverageFile(p, j.configName()) {
		j.coverage(f)
	}
	if len(rules) == 0 {
		return
	}
	pair, ok := j.load(f)
	if !ok {
		return
	}
	for _, rule := range rules {
		rule(j, pair)
	}
}

// rulesFor finds the rules that compare a config file by its kind, running at once those that
// read the change of it itself. It returns the file to judge (a gauntlet config moved is judged
// against where it was), and false when the file is judged elsewhere.
func (j *judge) rulesFor(f File) (File, []func(*judge, configPair), bool) {
	p := f.Path
	kind, ok := configKindOf(p)
	switch {
	case p == j.configName() || p == ".gauntlet.yml" || p == ".gauntlet.yaml":
		return j.gauntletConfigRules(f)
	case !ok:
		return f, nil, true
	}
	if kind.file != nil {
		kind.file(j, f)
	}
	return f, slices.Clip(kind.rules), true
}

func (j *judge) gauntletConfigRules(f File) (File, []func(*judge, configPair), bool) {
	if moved, ok := j.gauntletConfigMoved(f); ok {
		f = moved
	} else if f.Deleted && j.configMovedFrom(f.Path) {
		return f, nil, false // judged as the file it moved to
	}
	return f, []func(*judge, configPair){(*judge).gauntletConfig}, true
}

// configKind is a kind of config file, by its name: the rules that compare its contents before
// and after the change, or the rule that reads the change of it itself.
type configKind struct {
	match func(base, path string) bool
	rules []func(*judge, configPair)
	file  func(*judge, File)
}

// configKinds are the config files the rules know; the first that matches a file judges it.
var configKinds = []configKind{
	{match: named(".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json"), rules: pairRules((*judge).golangci)},
	{match: func(b, _ string) bool {
		return b == ".eslintrc" || strings.HasPrefix(b, ".eslintrc.") && b != ".eslintrc.js" && b != ".eslintrc.cjs"
	}, rules: pairRules((*judge).eslintrc)},
	{match: named("package.json"), rules: pairRules((*judge).packageJSON)},
	{match: named("biome.json", "biome.jsonc", ".oxlintrc.json"), rules: pairRules((*judge).severityConfig)},
	{match: func(b, _ string) bool {
		return (strings.HasPrefix(b, "tsconfig") || strings.HasPrefix(b, "jsconfig")) && strings.HasSuffix(b, ".json")
	}, rules: pairRules((*judge).tsconfig)},
	{match: named("pyproject.toml"), rules: pairRules((*judge).pyproject, (*judge).pytestConfig)},
	{match: named("ruff.toml", ".ruff.toml"), rules: pairRules(func(j *judge, c configPair) { j.ruff(c, c.old, c.new) })},
	{match: named("setup.cfg", "tox.ini", ".flake8", "mypy.ini", ".mypy.ini", ".pylintrc", "pylintrc", ".coveragerc", "pytest.ini", ".pytest.ini"),
		rules: pairRules((*judge).iniConfig, (*judge).pytestConfig)},
	{match: named("pyrightconfig.json"), rules: pairRules(func(j *judge, c configPair) { j.pyright(c, c.old, c.new) })},
	{match: named("Cargo.toml"), rules: pairRules((*judge).cargoLints)},
	{match: named("clippy.toml", ".clippy.toml"), rules: pairRules((*judge).clippyConfig)},
	{match: func(b, _ string) bool { return strings.HasPrefix(b, "jest.config.") && strings.HasSuffix(b, ".json") },
		rules: pairRules(func(j *judge, c configPair) { j.jsRunnerConfig(c, c.old, c.new) })},
	{match: func(b, _ string) bool { return isJSRunnerConfig(b) }, file: (*judge).jsRunnerFile},
	{match: named("conftest.py"), file: (*judge).conftest},
	{match: func(b, _ string) bool { return strings.HasPrefix(b, "eslint.config.") }, file: (*judge).eslintFlat},
	{match: named(".eslintignore"), file: func(j *judge, f File) { j.ignoreFile(f, "eslint") }},
	{match: func(_, p string) bool { return isMakefile(p) }, file: (*judge).makefile},
}

// configKindOf is the kind of the config file at p, if it is one the rules know.
func configKindOf(p string) (configKind, bool) {
	base := path.Base(p)
	for _, k := range configKinds {
		if k.match(base, p) {
			return k, true
		}
	}
	return configKind{}, false
}

// named matches a file by its base name.
func named(names ...string) func(base, path string) bool {
	return func(base, _ string) bool { return slices.Contains(names, base) }
}

func pairRules(rules ...func(*judge, configPair)) []func(*judge, configPair) { return rules }

func (j *judge) configName() string { return cmpOr(j.in.ConfigFile, ".gauntlet.yml") }

// sortedKeys lists a map's keys in order, so that findings come out the same every time.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// gauntletConfigMoved pairs a gauntlet config created under one name with the other name's
// deletion (.gauntlet.yml moved to .gauntlet.yaml), so that the move is judged as one file.
func (j *judge) gauntletConfigMoved(f File) (File, bool) {
	if !f.Created {
		return f, false
	}
	for _, other := range j.files {
		if other.Deleted && other.Path != f.Path && (other.Path == ".gauntlet.yml" || other.Path == ".gauntlet.yaml") {
			f.Created, f.OldPath = false, other.Path
			return f, true
		}
	}
	return f, false
}

// configMovedFrom says whether the deleted gauntlet config at p lives on under the other name.
func (j *judge) configMovedFrom(p string) bool {
	for _, other := range j.files {
		if other.Created && other.Path != p && (other.Path == ".gauntlet.yml" || other.Path == ".gauntlet.yaml") {
			return true
		}
	}
	return false
}
