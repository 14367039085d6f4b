package scaffold

import (
	"encoding/json"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/tailscale/hujson"
)

// Several tools keep a cache of their own that reruns only what an edit can affect, finer than
// gauntlet's, which only answers a gate whose inputs did not change at all. toolCaches lets them
// work: it turns on eslint's and tsc's caches where the project has not (their cache files go under
// node_modules/, which git ignores there, so they never show as a change of the tree), and takes
// out the flags that turn Go's, ruff's and mypy's off. Each gate it changes says why in a comment.

// Where the caches that init turns on are written, relative to the gate's folder.
const (
	eslintCacheDir = "node_modules/.cache/eslint/"
	tscCacheDir    = "node_modules/.cache/tsc/"
)

// The comments of the gates whose command was changed.
const (
	noteGoCount      = "-count=1 left out: Go's test cache reruns only the packages an edit can affect (it keys on every file and environment variable a test reads)."
	noteEslintCache  = "--cache added: eslint relints only the files changed since its last run; the cache is under node_modules/, which .gitignore keeps out of git."
	noteEslintTyped  = "eslint's --cache is left off: the config uses type information or rules that read other files (imports), which eslint's per-file cache does not follow."
	noteTscCache     = "--incremental added: tsc rechecks only what an edit can affect; its build info is under node_modules/, which .gitignore keeps out of git."
	noteRuffNoCache  = "--no-cache left out: ruff's cache rechecks only the files that changed."
	noteMypyNoIncrem = "--no-incremental left out: mypy's cache rechecks only the modules an edit can affect."
)

// toolCaches rewrites the gates of every project for the tools' own caches.
func toolCaches(root string, projects []Project) {
	for i := range projects {
		p := &projects[i]
		t := &cacheTuner{root: root, rel: p.Dir, abs: filepath.Join(root, filepath.FromSlash(p.Dir))}
		for j := range p.Gates {
			g := &p.Gates[j]
			run, notes := t.tune(g.Run)
			g.Run = run
			g.CacheNote = strings.Join(notes, " ")
		}
	}
}

// cacheTuner looks at one project's folder; what it reads there it reads once.
type cacheTuner struct {
	root, rel, abs string
	ignored        *bool // whether git ignores the folder's node_modules
}

// tune changes each command of run (commands joined by " && ", as init writes them) that it can
// write back exactly as it read it; anything else (a pipeline, a subshell) stays as it is.
func (t *cacheTuner) tune(run string) (string, []string) {
	parts := strings.Split(run, " && ")
	var notes []string
	for i, part := range parts {
		cmd, ok := exactCommand(part)
		if !ok {
			continue
		}
		words, note := t.command(cmd.words)
		if words != nil {
			parts[i] = simpleCommand{words: words}.String()
		}
		if note != "" && !contains(notes, note) {
			notes = append(notes, note)
		}
	}
	return strings.Join(parts, " && "), notes
}

// exactCommand is run as one simple command, when writing it back gives run exactly (no
// pipeline, subshell, cd or quoting init would write otherwise).
func exactCommand(run string) (simpleCommand, bool) {
	cmds := splitCommands(run)
	if len(cmds) != 1 || cmds[0].cd != "" || cmds[0].String() != run {
		return simpleCommand{}, false
	}
	return cmds[0], true
}

// command returns the command's new words (nil: unchanged) and the comment that says why.
func (t *cacheTuner) command(words []string) ([]string, string) {
	if len(words) == 3 && words[1] == "run" && contains([]string{"npm", "pnpm", "yarn", "bun"}, words[0]) {
		return t.script(words)
	}
	s := toolAt(words)
	if s < 0 {
		return nil, ""
	}
	tool := path.Base(words[s])
	tune, ok := cacheTuners()[tool]
	if !ok {
		return nil, ""
	}
	args, note := tune(t, tool, words[s+1:])
	if args == nil {
		return nil, note
	}
	return append(slices.Clone(words[:s+1]), args...), note
}

// cacheTuners change a tool's arguments (given after the tool) for its own cache: the new
// arguments, nil when unchanged, and the comment that says why.
var cacheTuners = sync.OnceValue(func() map[string]func(t *cacheTuner, tool string, args []string) ([]string, string) {
	return map[string]func(t *cacheTuner, tool string, args []string) ([]string, string){
		"go":     goTestCache,
		"eslint": (*cacheTuner).withCache,
		"tsc":    (*cacheTuner).withCache,
		"ruff":   ruffCache,
		"mypy":   mypyCache,
	}
})

// goTestCache leaves go test's -count=1 out.
func goTestCache(_ *cacheTuner, _ string, args []string) ([]string, string) {
	if len(args) > 0 && args[0] == "test" {
		if out := dropCount1(args); len(out) < len(args) {
			return out, noteGoCount
		}
	}
	return nil, ""
}

// withCache adds the flags that turn on eslint's or tsc's cache.
func (t *cacheTuner) withCache(tool string, args []string) ([]string, string) {
	add, note := t.additions(tool, args)
	if add == nil {
		return nil, note
	}
	return append(slices.Clone(args), add...), note
}

// ruffCache leaves ruff's --no-cache out.
func ruffCache(_ *cacheTuner, _ string, args []string) ([]string, string) {
	if out := drop(args, "--no-cache"); len(out) < len(args) {
		return out, noteRuffNoCache
	}
	return nil, ""
}

// mypyCache leaves out what turns mypy's incremental cache off.
func mypyCache(_ *cacheTuner, _ string, args []string) ([]string, string) {
	out := drop(args, "--no-incremental", "--cache-dir=/dev/null")
	if i := slices.Index(out, "--cache-dir"); i >= 0 && i+1 < len(out) && out[i+1] == "/dev/null" {
		out = slices.Delete(out, i, i+2)
	}
	if len(out) < len(args) {
		return out, noteMypyNoIncrem
	}
	return nil, ""
}

// script handles a gate that runs a package script (`npm run lint`): when the script is one
// eslint or tsc command, the flags that turn its cache on are passed through the package
// manager, which appends them to the script (npm after a `--`; pnpm, yarn and bun take them
// as they are, and pnpm would hand a `--` on to the tool).
func (t *cacheTuner) script(words []string) ([]string, string) {
	tool, args, ok := t.scriptTool(words[2])
	if !ok {
		return nil, ""
	}
	add, note := t.additions(tool, args)
	if add == nil {
		return nil, note
	}
	out := slices.Clone(words)
	if words[0] == "npm" {
		out = append(out, "--")
	}
	return append(out, add...), note
}

// scriptTool is the eslint or tsc a package script runs as its one command, with its
// arguments; false when the script is a chain (flags appended would reach only its last
// command), ends in a -- (they would be read as file names), or runs another tool.
func (t *cacheTuner) scriptTool(name string) (string, []string, bool) {
	var pkg struct {
		Scripts map[string]any `json:"scripts"`
	}
	if json.Unmarshal(readCapped(filepath.Join(t.abs, "package.json")), &pkg) != nil {
		return "", nil, false
	}
	script, _ := pkg.Scripts[name].(string)
	cmds := splitCommands(script)
	if len(cmds) != 1 || cmds[0].cd != "" {
		return "", nil, false
	}
	w := cmds[0].words
	s := toolAt(w)
	if s < 0 || slices.Contains(w[s+1:], "--") {
		return "", nil, false
	}
	tool := path.Base(w[s])
	return tool, w[s+1:], tool == "eslint" || tool == "tsc"
}

// additions are the flags that turn on eslint's or tsc's cache, nil when it is on already, the
// command is no check, or the cache cannot be trusted or kept out of git here.
func (t *cacheTuner) additions(tool string, args []string) ([]string, string) {
	switch tool {
	case "eslint":
		return t.eslintCacheFlags(args)
	case "tsc":
		return t.tscCacheFlags(args)
	}
	return nil, ""
}

// eslintNoLint are eslint's flags that make a run no lint of the project.
var eslintNoLint = []string{"--print-config", "--init", "--stdin", "-h", "--help", "-v", "--version", "--env-info"}

// tscNoCheck are tsc's flags that decide its build info already, or make a run no check.
var tscNoCheck = []string{"--incremental", "-i", "-b", "--build", "-w", "--watch", "--init", "--showConfig", "-v",
	"--version", "-h", "--help", "--all", "--listFilesOnly"}

// eslintCacheDecided: the project set eslint's cache itself, or the run lints nothing.
func eslintCacheDecided(a string) bool {
	return strings.HasPrefix(a, "--cache") || contains(eslintNoLint, a)
}

// tscCacheDecided: the project set tsc's build info itself, or the run checks nothing.
func tscCacheDecided(a string) bool {
	return strings.HasPrefix(a, "--tsBuildInfoFile") || contains(tscNoCheck, a)
}

func (t *cacheTuner) eslintCacheFlags(args []string) ([]string, string) {
	if slices.ContainsFunc(args, eslintCacheDecided) || !t.nodeModulesIgnored() {
		return nil, ""
	}
	switch t.eslintCrossFile(flagValue(args, "-c", "--config")) {
	case crossFileNo:
		return []string{"--cache", "--cache-location", eslintCacheDir}, noteEslintCache
	case crossFileYes:
		return nil, noteEslintTyped
	}
	return nil, ""
}

func (t *cacheTuner) tscCacheFlags(args []string) ([]string, string) {
	if slices.ContainsFunc(args, tscCacheDecided) || !t.nodeModulesIgnored() {
		return nil, ""
	}
	project := flagValue(args, "-p", "--project")
	opts := tsconfigOptions(t.abs, project)
	switch {
	case opts.Incremental != nil || opts.Composite != nil && *opts.Composite:
		return nil, "" // the project decided
	case opts.TsBuildInfoFile != "":
		return []string{"--incremental"}, noteTscCache
	}
	return []string{"--incremental", "--tsBuildInfoFile", tscCacheDir + tscInfoName(project)}, noteTscCache
}

// toolAt is the index of the tool in a command, past the runners that start it in the project's
// environment (npx, pnpm exec, uv run, python -m ...); -1 when they leave nothing.
func toolAt(words []string) int {
	s := len(words) - len(withoutEnvRunner(words))
	for _, p := range toolRunners {
		if hasPrefix(words[s:], p...) {
			s += len(p)
			break
		}
	}
	if s >= len(words) {
		return -1
	}
	return s
}

// toolRunners start a tool of the project's: from node_modules, or a Python module.
var toolRunners = [][]string{{"npx"}, {"pnpm", "exec"}, {"yarn", "exec"}, {"bunx"}, {"npm", "exec", "--"}, {"yarn"},
	{"python", "-m"}, {"python3", "-m"}}

// dropCount1 removes -count=1 (and its spellings) from go test's arguments.
// isCountFlag reports whether a is go test's -count flag, written without its value.
func isCountFlag(a string) bool { return a == "-count" || a == "--count" }

func dropCount1(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-count=1" || a == "--count=1":
		case isCountFlag(a) && i+1 < len(args) && args[i+1] == "1":
			i++
		case a == "-args": // what follows is the test binary's
			return append(out, args[i:]...)
		default:
			out = append(out, a)
		}
	}
	return out
}

// flagValue is the value of the first of names among args ("-p X", "--project=X"), or "".
func flagValue(args []string, names ...string) string {
	for i, a := range args {
		for _, n := range names {
			if a == n && i+1 < len(args) {
				return args[i+1]
			}
			if v, ok := strings.CutPrefix(a, n+"="); ok {
				return v
			}
		}
	}
	return ""
}

// nodeModulesIgnored reports whether git ignores the node_modules folder of the project, going by
// the root's .gitignore and the project folder's own (a later matching line wins, as in git).
func (t *cacheTuner) nodeModulesIgnored() bool {
	if t.ignored != nil {
		return *t.ignored
	}
	target := path.Join(t.rel, "node_modules")
	ignored := false
	bases := []string{""}
	if t.rel != "" {
		bases = append(bases, t.rel)
	}
	for _, base := range bases {
		rel := target
		if base != "" {
			rel = strings.TrimPrefix(target, base+"/")
		}
		data := readCapped(filepath.Join(t.root, filepath.FromSlash(base), ".gitignore"))
		for _, line := range strings.Split(string(data), "\n") {
			if matched, neg := gitignoreMatch(line, rel); matched {
				ignored = !neg
			}
		}
	}
	t.ignored = &ignored
	return ignored
}

// gitignoreMatch reports whether one .gitignore line matches rel (relative to the .gitignore's
// folder), and whether the line negates ("!").
func gitignoreMatch(line, rel string) (matched, negated bool) {
	line = strings.TrimRight(line, " \t\r")
	if line == "" || strings.HasPrefix(line, "#") {
		return false, false
	}
	negated = strings.HasPrefix(line, "!")
	pat := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(line, "!"), "/**"), "/")
	if strings.Contains(pat, "/") {
		pat = strings.TrimPrefix(pat, "/") // anchored to the .gitignore's folder
	} else {
		pat = "**/" + pat // a name, at any depth
	}
	matched, _ = doublestar.Match(pat, rel)
	return matched, negated
}

// Whether eslint's config reads across files, going by the words of the config files.
const (
	crossFileUnknown = iota // no config file found: the cache stays off
	crossFileNo
	crossFileYes
)

// eslintConfigs are the names eslint finds its config under, flat and legacy.
var eslintConfigs = []string{"eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts",
	"eslint.config.mts", "eslint.config.cts", ".eslintrc.js", ".eslintrc.cjs", ".eslintrc.json", ".eslintrc.yml",
	".eslintrc.yaml", ".eslintrc"}

// eslintCrossFileWords mark a config whose rules read other files than the one they check: typed
// linting (typescript-eslint's parserOptions.project or projectService, its *TypeChecked configs,
// shared configs built on them) and the import plugins' rules, which resolve what a file imports.
// eslint's cache reuses a file's result while that file is unchanged, so with these rules an edit
// of one file could leave another's stale pass: the cache stays off.
var eslintCrossFileWords = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`projectService|TypeChecked|type-checked|requiring-type-checking|tsconfig|\bproject['"]?\s*:|` +
		`import/|import-x|eslint-plugin-import|eslint-plugin-n\b|plugin:n/|plugin:node/|eslint-plugin-node|` +
		`airbnb-typescript|with-typescript|xo-typescript|eslint-config-love`)
})

// eslintCrossFile reads the eslint config files from the project's folder up to the root (the
// explicit -c file when given), with package.json's eslintConfig and dependencies, and says whether
// any of them reads across files. Any doubt reads as "yes" or "unknown": both leave the cache off.
func (t *cacheTuner) eslintCrossFile(explicit string) int {
	var texts []string
	if explicit != "" {
		data := readCapped(filepath.Join(t.abs, filepath.FromSlash(explicit)))
		if data == nil {
			return crossFileUnknown
		}
		texts = append(texts, string(data))
	}
	found := explicit != ""
	for _, dir := range foldersUp(t.root, t.rel) {
		more, configured := eslintTexts(dir)
		texts = append(texts, more...)
		found = found || configured
	}
	if !found {
		return crossFileUnknown
	}
	if slices.ContainsFunc(texts, eslintCrossFileWords().MatchString) {
		return crossFileYes
	}
	return crossFileNo
}

// foldersUp are the folder rel under root and each folder above it up to root, as paths.
func foldersUp(root, rel string) []string {
	var out []string
	for {
		if rel == "." {
			rel = ""
		}
		out = append(out, filepath.Join(root, filepath.FromSlash(rel)))
		if rel == "" {
			return out
		}
		rel = path.Dir(rel)
	}
}

// eslintTexts are the words of one folder's eslint config: its config files, package.json's
// eslintConfig and the names of its dependencies; configured says whether it has a config.
func eslintTexts(dir string) (texts []string, configured bool) {
	for _, name := range eslintConfigs {
		if data := readCapped(filepath.Join(dir, name)); data != nil {
			texts = append(texts, string(data))
			configured = true
		}
	}
	var pkg struct {
		ESLintConfig    json.RawMessage `json:"eslintConfig"`
		Dependencies    map[string]any  `json:"dependencies"`
		DevDependencies map[string]any  `json:"devDependencies"`
	}
	if json.Unmarshal(readCapped(filepath.Join(dir, "package.json")), &pkg) != nil {
		return texts, configured
	}
	if len(pkg.ESLintConfig) > 0 {
		texts = append(texts, string(pkg.ESLintConfig))
		configured = true
	}
	for _, deps := range []map[string]any{pkg.Dependencies, pkg.DevDependencies} {
		for name := range deps {
			texts = append(texts, `"`+name+`"`)
		}
	}
	return texts, configured
}

// tsOptions are the compiler options that decide whether tsc keeps build info already.
type tsOptions struct {
	Incremental     *bool  `json:"incremental"`
	Composite       *bool  `json:"composite"`
	TsBuildInfoFile string `json:"tsBuildInfoFile"`
}

// tsconfigOptions reads the project's tsconfig (tsconfig.json, or the -p file or folder), which
// is JSON with comments and trailing commas, following relative `extends` a few levels; a file
// that cannot be read or parsed counts as setting nothing.
func tsconfigOptions(dir, project string) tsOptions {
	file := tsconfigFile(dir, project)
	var out tsOptions
	for range 5 {
		var cfg struct {
			Extends         json.RawMessage `json:"extends"`
			CompilerOptions tsOptions       `json:"compilerOptions"`
		}
		std, err := hujson.Standardize(readCapped(file))
		if err != nil || json.Unmarshal(std, &cfg) != nil {
			return out
		}
		out = out.or(cfg.CompilerOptions)
		next := localParent(cfg.Extends)
		if next == "" {
			return out
		}
		file = filepath.Join(filepath.Dir(file), filepath.FromSlash(next))
	}
	return out
}

// tsconfigFile is the tsconfig tsc reads: tsconfig.json, or the -p file, or the one in the -p
// folder.
func tsconfigFile(dir, project string) string {
	if project == "" {
		return filepath.Join(dir, "tsconfig.json")
	}
	file := filepath.Join(dir, filepath.FromSlash(project))
	if !strings.HasSuffix(project, ".json") {
		file = filepath.Join(file, "tsconfig.json")
	}
	return file
}

// or is o with what it leaves unset taken from base, as a config's options override those it
// extends.
func (o tsOptions) or(base tsOptions) tsOptions {
	if o.Incremental == nil {
		o.Incremental = base.Incremental
	}
	if o.Composite == nil {
		o.Composite = base.Composite
	}
	if o.TsBuildInfoFile == "" {
		o.TsBuildInfoFile = base.TsBuildInfoFile
	}
	return o
}

// localParent is the last relative config an extends names (one or a list), with .json; a
// package's config (@tsconfig/node20) is not read: "".
func localParent(extends json.RawMessage) string {
	var parents []string
	var one string
	if json.Unmarshal(extends, &one) == nil {
		parents = []string{one}
	} else {
		_ = json.Unmarshal(extends, &parents)
	}
	next := ""
	for _, p := range parents {
		if strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") {
			next = p
		}
	}
	if next != "" && !strings.HasSuffix(next, ".json") {
		next += ".json"
	}
	return next
}

// tscInfoName names the build info of one tsconfig, so that two tsc commands of a gate
// (-p tsconfig.app.json, -p tsconfig.node.json) do not overwrite each other's.
func tscInfoName(project string) string {
	p := strings.TrimSuffix(path.Clean(strings.TrimPrefix(project, "./")), "/")
	if project == "" || p == "." || p == "tsconfig.json" {
		return "tsbuildinfo"
	}
	return slug(strings.TrimSuffix(p, ".json")) + ".tsbuildinfo"
}
