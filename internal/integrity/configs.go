package integrity

import (
	"path"
	"slices"
	"strings"
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
	switch {
	case strings.HasSuffix(base, ".json") || strings.HasSuffix(base, ".jsonc") || base == ".eslintrc" || base == ".nycrc" || base == ".c8rc":
		return formatJSON, true
	case strings.HasSuffix(base, ".yml") || strings.HasSuffix(base, ".yaml"):
		return formatYAML, true
	case strings.HasSuffix(base, ".toml"):
		return formatTOML, true
	case strings.HasSuffix(base, ".cfg") || strings.HasSuffix(base, ".ini") || base == ".flake8" || base == ".pylintrc" ||
		base == "pylintrc" || base == ".coveragerc":
		return formatINI, true
	}
	return 0, false
}

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
	if of, ok := formatOf(cmpOr(f.OldPath, f.Path)); ok {
		if pair.old, err = parse(of, pair.oldData); err != nil {
			return pair, false
		}
	}
	if nf, ok := formatOf(f.Path); ok {
		if pair.new, err = parse(nf, pair.newData); err != nil {
			return pair, false
		}
	}
	if pair.old == nil {
		pair.old = map[string]any{}
	}
	if pair.new == nil {
		pair.new = map[string]any{}
	}
	return pair, true
}

// configFile runs the rules that apply to one file by its name.
func (j *judge) configFile(f File) {
	p := f.Path
	base := path.Base(p)
	var rules []func(configPair)
	switch {
	case p == j.configName() || p == ".gauntlet.yml" || p == ".gauntlet.yaml":
		if moved, ok := j.gauntletConfigMoved(f); ok {
			f = moved
		} else if f.Deleted && j.configMovedFrom(p) {
			return // judged as the file it moved to
		}
		rules = append(rules, j.gauntletConfig)
	case base == ".golangci.yml" || base == ".golangci.yaml" || base == ".golangci.toml" || base == ".golangci.json":
		rules = append(rules, j.golangci)
	case base == ".eslintrc" || strings.HasPrefix(base, ".eslintrc.") && base != ".eslintrc.js" && base != ".eslintrc.cjs":
		rules = append(rules, j.eslintrc)
	case base == "package.json":
		rules = append(rules, j.packageJSON)
	case base == "biome.json" || base == "biome.jsonc" || base == ".oxlintrc.json":
		rules = append(rules, j.severityConfig)
	case strings.HasPrefix(base, "tsconfig") && strings.HasSuffix(base, ".json") || strings.HasPrefix(base, "jsconfig") && strings.HasSuffix(base, ".json"):
		rules = append(rules, j.tsconfig)
	case base == "pyproject.toml":
		rules = append(rules, j.pyproject, j.pytestConfig)
	case base == "ruff.toml" || base == ".ruff.toml":
		rules = append(rules, func(c configPair) { j.ruff(c, c.old, c.new) })
	case base == "setup.cfg" || base == "tox.ini" || base == ".flake8" || base == "mypy.ini" || base == ".mypy.ini" ||
		base == ".pylintrc" || base == "pylintrc" || base == ".coveragerc" || base == "pytest.ini" || base == ".pytest.ini":
		rules = append(rules, j.iniConfig, j.pytestConfig)
	case base == "pyrightconfig.json":
		rules = append(rules, func(c configPair) { j.pyright(c, c.old, c.new) })
	case base == "Cargo.toml":
		rules = append(rules, j.cargoLints)
	case base == "clippy.toml" || base == ".clippy.toml":
		rules = append(rules, j.clippyConfig)
	case strings.HasPrefix(base, "jest.config.") && strings.HasSuffix(base, ".json"):
		rules = append(rules, func(c configPair) { j.jsRunnerConfig(c, c.old, c.new) })
	case isJSRunnerConfig(base):
		j.jsRunnerFile(f)
	case base == "conftest.py":
		j.conftest(f)
	case strings.HasPrefix(base, "eslint.config."):
		j.eslintFlat(f)
	case base == ".eslintignore":
		j.ignoreFile(f, "eslint")
	case isMakefile(p):
		j.makefile(f)
	}
	if isHookFile(p) {
		rules = append(rules, j.hookFile)
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
		rule(pair)
	}
}

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
