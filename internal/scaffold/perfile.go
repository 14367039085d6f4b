package scaffold

import (
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/gauntlet-dev/gauntlet/internal/filesarg"
)

// A formatter's or a per-file linter's verdict on a file depends on that file alone, so such a
// gate need not look at the whole project on every stop: perFileTools turns its whole-project
// command (`ruff check`, `prettier --check .`) into the same check of the change's files
// ({files}). Type checkers, tests and project-wide commands (a package script, whose content is
// the project's, golangci-lint, go vet) judge a file by others too, and keep their command; so
// does a tool whose own config chooses its files in a way that naming files would bypass.

// perFileTool is how one tool's whole-project check becomes the check of the files it is given.
type perFileTool struct {
	tool string   // the program, as classify names it
	sub  []string // the subcommand that must follow it (ruff check)
	// checking are the flags of which the command needs one to be the check form (prettier
	// --check): a writing or printing form is no gate.
	checking []string
	// valueFlags take the next word as their value: that word is no path.
	valueFlags []string
	// choosing are flags by which the command picks its files itself (eslint --ext, black
	// --exclude): named files would bypass them.
	choosing []string
	// pathOptional says the tool checks "." when it is given no path (ruff, eslint's flat config).
	pathOptional bool
	// honour are flags added, with their short spelling, so that the project's ignores hold for
	// the files the tool is named too.
	honour [][]string
	glob   []string
	// exclude are the folders the tool leaves out when it walks the project itself, and would
	// check when named a file in them.
	exclude []string
	// allowed says whether the project's config lets named files be judged as the walk would.
	allowed func(p fileProject, args []string) bool
	note    string
	// whole says why a command the config does not allow to be given files keeps the project.
	whole string
}

// fileProject is the folder of the gate being rewritten.
type fileProject struct{ root, rel, abs string }

var (
	eslintGlob = []string{"**/*.js", "**/*.mjs", "**/*.cjs", "**/*.jsx", "**/*.ts", "**/*.mts", "**/*.cts", "**/*.tsx",
		"**/*.vue", "**/*.svelte", "**/*.astro"}
	pythonGlob = []string{"**/*.py", "**/*.pyi"}
	// blackExclude are black's default excludes, which it applies only to the folders it walks.
	blackExclude = []string{"**/build/**", "**/dist/**", "**/buck-out/**", "**/_build/**", "**/venv/**",
		"**/__pypackages__/**", "**/.venv/**", "**/.tox/**", "**/.nox/**", "**/.eggs/**", "**/.direnv/**"}
	ruffValueFlags = []string{"--select", "--ignore", "--extend-select", "--extend-ignore", "--config", "--target-version",
		"--line-length", "--output-format", "-o", "--output-file", "--per-file-ignores", "--fixable", "--unfixable",
		"--exclude", "--extend-exclude", "--cache-dir", "--extend-fixable", "--extend-per-file-ignores", "--dummy-variable-rgx"}
)

// The comments of the gates given {files}.
const (
	noteFilesEslint   = "{files}: eslint is given the change's files it lints (its rules here read no other file); --no-warn-ignored keeps the ones the config ignores quiet."
	noteFilesPrettier = "{files}: prettier is given the change's files; --ignore-unknown skips those it does not format, and .prettierignore still holds."
	noteFilesRuff     = "{files}: ruff is given the change's Python files; --force-exclude keeps its exclude for them."
	noteFilesBlack    = "{files}: black is given the change's Python files, less the folders it leaves out itself."
	noteFilesYamllint = "{files}: yamllint is given the change's YAML files; its config's ignore still holds for them."
)

// yamlGlob are the files yamllint lints when it walks a folder (its default yaml-files).
var yamlGlob = []string{"**/*.yaml", "**/*.yml", "**/.yamllint"}

// perFileTools are the tools whose whole-project check init turns into a check of the change's
// files.
var perFileTools = []perFileTool{
	{tool: "eslint", pathOptional: true, choosing: []string{"--ext", "--stdin", "--stdin-filename", "--print-config", "--no-config-lookup"},
		valueFlags: []string{"-c", "--config", "--max-warnings", "-f", "--format", "-o", "--output-file", "--cache-location",
			"--cache-strategy", "--ignore-pattern", "--rule", "--plugin", "--parser", "--parser-options", "--env", "--global",
			"--rulesdir", "--resolve-plugins-relative-to", "--report-unused-disable-directives-severity", "--flag", "--concurrency"},
		honour: [][]string{{"--no-warn-ignored"}}, glob: eslintGlob, allowed: eslintPerFile, note: noteFilesEslint,
		whole: "a legacy .eslintrc, or rules that read other files (typed linting, imports), judge a file by others."},
	{tool: "prettier", checking: []string{"--check", "-c", "--list-different", "-l"},
		valueFlags: []string{"--config", "--ignore-path", "--plugin", "--log-level", "--cache-location", "--cache-strategy",
			"--config-precedence", "--end-of-line", "--parser", "--print-width", "--tab-width", "--trailing-comma",
			"--quote-props", "--arrow-parens", "--prose-wrap", "--html-whitespace-sensitivity", "--embedded-language-formatting",
			"--object-wrap", "--experimental-operator-position"},
		choosing: []string{"--stdin-filepath"}, honour: [][]string{{"--ignore-unknown", "-u"}}, note: noteFilesPrettier},
	{tool: "ruff", sub: []string{"check"}, pathOptional: true, valueFlags: ruffValueFlags, choosing: []string{"--stdin-filename"},
		honour: [][]string{{"--force-exclude"}}, glob: pythonGlob, allowed: ruffPerFile, note: noteFilesRuff,
		whole: "the config's include (or a --config init does not read) chooses the files, which naming files would bypass."},
	{tool: "ruff", sub: []string{"format"}, checking: []string{"--check"}, pathOptional: true, valueFlags: ruffValueFlags,
		choosing: []string{"--stdin-filename"}, honour: [][]string{{"--force-exclude"}}, glob: pythonGlob, allowed: ruffPerFile,
		note: noteFilesRuff, whole: "the config's include (or a --config init does not read) chooses the files, which naming files would bypass."},
	{tool: "black", checking: []string{"--check"},
		valueFlags: []string{"-l", "--line-length", "-t", "--target-version", "--config", "-W", "--workers", "--required-version",
			"--python-cell-magics", "--enable-unstable-feature", "--force-exclude"},
		choosing: []string{"--include", "--exclude", "--extend-exclude", "--stdin-filename", "-c", "--code"},
		glob:     pythonGlob, exclude: blackExclude, allowed: blackPerFile, note: noteFilesBlack,
		whole: "black applies the config's include and excludes only to the folders it walks, never to files it is named."},
	// yamllint lints whatever it is named as YAML, so the glob keeps to its default yaml-files.
	{tool: "yamllint", valueFlags: []string{"-c", "--config-file", "-f", "--format"},
		choosing: []string{"-d", "--config-data", "--list-files", "-"}, glob: yamlGlob, allowed: yamllintPerFile,
		note: noteFilesYamllint, whole: "the config's yaml-files widens what counts as YAML, which the glob would not follow."},
}

// changedFiles gives the per-file tools of every project's gates and offers the change's files.
func changedFiles(root string, projects []Project) {
	for i := range projects {
		p := &projects[i]
		fp := fileProject{root: root, rel: p.Dir, abs: filepath.Join(root, filepath.FromSlash(p.Dir))}
		for j := range p.Gates {
			fp.narrow(&p.Gates[j])
		}
		for j := range p.Offers {
			fp.narrow(&p.Offers[j])
		}
	}
}

// narrow rewrites a gate whose command is one per-file tool's whole-project check. A gate of
// several commands keeps them all: with {files}, a change without such a file would skip the
// others too.
func (fp fileProject) narrow(g *Gate) {
	cmd, ok := exactCommand(g.Run)
	if !ok || len(cmd.env) > 0 {
		return
	}
	words := cmd.words
	s := toolAt(words)
	if s < 0 {
		return
	}
	for _, t := range perFileTools {
		if args, ok := t.rewrite(fp, path.Base(words[s]), words[s+1:]); ok {
			g.Run = simpleCommand{words: append(slices.Clone(words[:s+1]), args...)}.String()
			g.Glob = t.glob
			g.Exclude = append(g.Exclude, t.exclude...)
			g.FilesNote = t.note
			return
		}
		if t.refusedByConfig(fp, path.Base(words[s]), words[s+1:]) {
			g.FilesNote = "whole project, not the change's files: " + t.whole
			return
		}
	}
}

// refusedByConfig reports whether the command is this tool's whole-project check that only the
// project's config keeps from being given the change's files.
func (t perFileTool) refusedByConfig(fp fileProject, tool string, args []string) bool {
	if tool != t.tool || !hasPrefix(args, t.sub...) || t.allowed == nil || t.whole == "" {
		return false
	}
	rest := args[len(t.sub):]
	dot, ok := t.onlyDot(rest)
	return ok && (dot >= 0 || t.pathOptional) && t.isCheck(rest) && !t.allowed(fp, rest)
}

// rewrite returns the tool's arguments with its one path "." (or none, where that means ".")
// replaced by {files} and the flags that keep the project's ignores added; false when the
// command is not this tool's whole-project check.
func (t perFileTool) rewrite(fp fileProject, tool string, args []string) ([]string, bool) {
	if tool != t.tool || !hasPrefix(args, t.sub...) {
		return nil, false
	}
	rest := args[len(t.sub):]
	dot, ok := t.onlyDot(rest)
	if !ok || dot < 0 && !t.pathOptional || !t.isCheck(rest) || t.allowed != nil && !t.allowed(fp, rest) {
		return nil, false
	}
	if dot < 0 {
		dot = len(rest) // the files go last
	}
	files := append(t.missingHonour(rest), filesarg.Placeholder)
	return slices.Concat(args[:len(t.sub)], rest[:dot], files, rest[min(dot+1, len(rest)):]), true
}

// missingHonour are the flags that keep the project's ignores which the command lacks.
func (t perFileTool) missingHonour(args []string) []string {
	var added []string
	for _, spellings := range t.honour {
		if !slices.ContainsFunc(args, func(a string) bool { return contains(spellings, a) }) {
			added = append(added, spellings[0])
		}
	}
	return added
}

// onlyDot finds the one path among args, which must be "." (-1 when there is none); false when
// the command names other paths or picks its files by a flag.
func (t perFileTool) onlyDot(args []string) (int, bool) {
	dot := -1
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case strings.HasPrefix(a, "-"):
			if a == "--" || t.chooses(a) {
				return 0, false
			}
			if t.takesValue(a) {
				i++
			}
		case (a == "." || a == "./") && dot < 0:
			dot = i
		default:
			return 0, false
		}
	}
	return dot, true
}

// chooses reports whether a flag picks the files the tool checks.
func (t perFileTool) chooses(flag string) bool {
	name, _, _ := strings.Cut(flag, "=")
	return contains(t.choosing, name)
}

// takesValue reports whether a flag, written without "=", takes the next word as its value.
func (t perFileTool) takesValue(flag string) bool {
	return !strings.Contains(flag, "=") && contains(t.valueFlags, flag)
}

// isCheck reports whether the command is the tool's check form, when the tool has others.
func (t perFileTool) isCheck(args []string) bool {
	return len(t.checking) == 0 || slices.ContainsFunc(args, func(a string) bool { return contains(t.checking, a) })
}

// eslintPerFile: named files are linted as the walk would lint them only with a flat config
// (eslint.config.*), where --no-warn-ignored quiets the ones it ignores or no config covers; a
// legacy .eslintrc warns on each (failing --max-warnings 0) and lints named files --ext would
// leave out. Rules that read other files (typed linting, import rules) judge a file by others.
func eslintPerFile(fp fileProject, args []string) bool {
	explicit := flagValue(args, "-c", "--config")
	flat := explicit != "" && strings.HasPrefix(path.Base(explicit), "eslint.config.")
	if explicit == "" {
		flat = fp.flatEslintConfig()
	}
	t := &cacheTuner{root: fp.root, rel: fp.rel, abs: fp.abs}
	return flat && t.eslintCrossFile(explicit) == crossFileNo
}

// flatEslintConfig reports whether the eslint config nearest the folder, looking up to the
// root as eslint does, is a flat one.
func (fp fileProject) flatEslintConfig() bool {
	for _, dir := range foldersUp(fp.root, fp.rel) {
		for _, name := range eslintConfigs {
			if exists(dir, name) {
				return strings.HasPrefix(name, "eslint.config.")
			}
		}
	}
	return false
}

// ruffPerFile: ruff's include chooses the files it walks only; a named file is checked whatever
// it says (exclude holds, through --force-exclude).
func ruffPerFile(fp fileProject, args []string) bool {
	if flagValue(args, "--config") != "" {
		return false // a config of its own, not read here
	}
	return !fp.tomlSetsAny([]string{"tool", "ruff"}, "pyproject.toml", "include") &&
		!fp.tomlSetsAny(nil, "ruff.toml", "include") && !fp.tomlSetsAny(nil, ".ruff.toml", "include")
}

// blackPerFile: black's include, exclude and extend-exclude hold only for the files it walks.
func blackPerFile(fp fileProject, args []string) bool {
	if flagValue(args, "--config") != "" {
		return false
	}
	return !fp.tomlSetsAny([]string{"tool", "black"}, "pyproject.toml", "include", "exclude", "extend-exclude")
}

// yamllintPerFile: the config's yaml-files widens what yamllint's walk lints (*.yaml.j2), which
// the glob would not follow.
func yamllintPerFile(fp fileProject, args []string) bool {
	names := []string{".yamllint", ".yamllint.yaml", ".yamllint.yml"}
	if c := flagValue(args, "-c", "--config-file"); c != "" {
		names = []string{c}
	}
	for _, n := range names {
		if strings.Contains(string(readCapped(filepath.Join(fp.abs, filepath.FromSlash(n)))), "yaml-files") {
			return false
		}
	}
	return true
}

// tomlSetsAny reports whether the TOML file, in the folder or at the root, sets one of keys
// in the table at table (nil: the top level).
func (fp fileProject) tomlSetsAny(table []string, file string, keys ...string) bool {
	for _, dir := range []string{fp.abs, fp.root} {
		var doc map[string]any
		if _, err := toml.Decode(string(readCapped(filepath.Join(dir, file))), &doc); err != nil {
			continue
		}
		for _, k := range table {
			doc, _ = doc[k].(map[string]any)
		}
		for _, k := range keys {
			if _, ok := doc[k]; ok {
				return true
			}
		}
	}
	return false
}
