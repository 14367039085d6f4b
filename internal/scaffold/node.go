package scaffold

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/findings"
)

// packageJSON is the part of package.json that says which checks exist and how to run them.
type packageJSON struct {
	Scripts         map[string]any `json:"scripts"`
	PackageManager  string         `json:"packageManager"`
	Dependencies    map[string]any `json:"dependencies"`
	DevDependencies map[string]any `json:"devDependencies"`
}

// npmInitTest is the test script `npm init` writes: it always fails, so it is no test suite.
const npmInitTest = `echo "Error: no test specified" && exit 1`

// packageManager is how one package manager runs a script and a dependency's binary.
type packageManager struct {
	name     string
	lockFile []string
	run      string // followed by the script name
	exec     string // followed by a binary from node_modules/.bin
}

// packageManagers in the order their lock files are looked for; npm last, because a stray
// package-lock.json often lingers beside another manager's lock file.
var packageManagers = []packageManager{
	{name: "pnpm", lockFile: []string{"pnpm-lock.yaml"}, run: "pnpm run", exec: "pnpm exec"},
	{name: "yarn", lockFile: []string{"yarn.lock"}, run: "yarn run", exec: "yarn"},
	{name: "bun", lockFile: []string{"bun.lockb", "bun.lock"}, run: "bun run", exec: "bunx"},
	{name: "npm", lockFile: []string{"package-lock.json", "npm-shrinkwrap.json"}, run: "npm run", exec: "npx"},
}

// typecheckScripts are the script names that conventionally type-check, most usual first.
var typecheckScripts = []string{"typecheck", "type-check", "tsc", "types", "check-types"}

// nodeScan is one package.json being read: what its scripts are, which of them become gates
// (kept), what each runs, and the gates so far. Each decision init makes about a Node project
// is one method below.
type nodeScan struct {
	c       *dirContext
	pkg     packageJSON
	pm      packageManager
	scripts map[string]string
	src     string                     // package.json, relative to the root
	runs    map[string]map[string]bool // each wanted script and every script it runs
	wanted  []string                   // the check scripts, by name
	kept    []string                   // those no other wanted script runs already
	tscRun  bool                       // a kept script (or a gate) runs the TypeScript compiler
	ordered map[string]bool            // gates whose needs the orchestrator's declared order decided
	nx      *nxWorkspace               // the folder's nx workspace, once read (nxWorkspace)
	p       *Project
}

func detectNode(c *dirContext) *Project {
	if !exists(c.abs, "package.json") {
		return nil
	}
	var pkg packageJSON
	err := json.Unmarshal(readCapped(filepath.Join(c.abs, "package.json")), &pkg)
	pm := choosePackageManager(c.abs, pkg.PackageManager)
	if pm.name == "npm" && c.rel != "" {
		// A folder without a lock file of its own may belong to the root's workspace.
		pm = choosePackageManager(c.root, pkg.PackageManager)
	}
	p := &Project{Kind: "Node", Tool: pm.name}
	if err != nil {
		p.Notes = append(p.Notes, "package.json could not be read ("+err.Error()+"): add its checks by hand.")
		return p
	}
	n := &nodeScan{c: c, pkg: pkg, pm: pm, scripts: checkableScripts(pkg), src: inDir(c.rel, "package.json"), p: p}
	n.chooseScripts()
	n.scriptGates()
	p.Gates = append(p.Gates, formatGate(n.scripts, n.runs, n.kept, pm, n.src)...)
	n.nxTaskGates()
	p.Notes = append(p.Notes, leftOutScripts(n.scripts, n.runs, n.kept, p.Gates, pm)...)
	p.Gates = append(p.Gates, n.fileToolScripts()...)
	n.toolsRunByCI()
	n.configuredLinters()
	n.typeScriptDefault()
	turbo := turboDeps(c.abs)
	n.filteredTaskGates(turbo)
	if len(p.Gates) == 0 {
		p.Notes = append(p.Notes, "package.json has none of the scripts lint, typecheck, tsc, check, test, build: add its checks by hand.")
	}
	n.waitForBuild(turbo)
	return p
}

// checkableScripts are package.json's scripts that are text and not npm init's failing test.
func checkableScripts(pkg packageJSON) map[string]string {
	scripts := map[string]string{}
	for name, v := range pkg.Scripts {
		if s, ok := v.(string); ok && strings.TrimSpace(s) != "" && strings.TrimSpace(s) != npmInitTest {
			scripts[name] = s
		}
	}
	return scripts
}

// chooseScripts picks the check scripts (lint, the first type-check name, check, test, build)
// and keeps those no other one runs: ky's test runs its lint and its build, so one test gate
// checks all three, and each error shows once.
func (n *nodeScan) chooseScripts() {
	n.wanted = wantedScripts(n.scripts)
	n.wanted = append(n.wanted, n.scriptsRunByCI()...)
	n.runs = map[string]map[string]bool{}
	for _, name := range n.wanted {
		n.runs[name] = scriptClosure(n.scripts, name)
	}
	for _, name := range n.wanted {
		if !n.coveredByOther(name) {
			n.kept = append(n.kept, name)
		}
	}
	n.tscRun = n.keptRun("tsc", "vue-tsc", "tsgo")
}

// wantedScripts are the check scripts the package has: lint, the first type-check name, check,
// test and build.
func wantedScripts(scripts map[string]string) []string {
	var wanted []string
	if scripts["lint"] != "" {
		wanted = append(wanted, "lint")
	}
	if i := slices.IndexFunc(typecheckScripts, func(name string) bool { return scripts[name] != "" }); i >= 0 {
		wanted = append(wanted, typecheckScripts[i])
	}
	for _, name := range []string{"check", "test", "build"} {
		if scripts[name] != "" {
			wanted = append(wanted, name)
		}
	}
	return wanted
}

// scriptsRunByCI are the other scripts CI or a hook runs by name that check (lint:ws running
// sherif): the project's own checks, whatever their names. Fixers, and scripts that run no check
// init knows (deploy, release), are not.
func (n *nodeScan) scriptsRunByCI() []string {
	var out []string
	for _, d := range n.c.decls {
		if d.rank != rankCI && d.rank != rankPreCommit && d.rank != rankLefthook {
			continue
		}
		for _, name := range scriptRefs(n.scripts, d.script) {
			script := n.scripts[name]
			// The format scripts are the fmt gate's (formatGate).
			formats := contains(formatWriters, name) || contains(formatChecks, name)
			if script == "" || formats || contains(out, name) || n.isWanted(name) || writesFiles(script) {
				continue
			}
			if scriptTool(script) != "" || checkTargets()[name] {
				out = append(out, name)
			}
		}
	}
	return out
}

func (n *nodeScan) isWanted(name string) bool { return contains(n.wanted, name) }

// coveredByOther reports whether another wanted script runs this one; of two that run each
// other, the first by name is kept.
func (n *nodeScan) coveredByOther(name string) bool {
	for _, other := range n.wanted {
		if other != name && n.runs[other][name] && !(n.runs[name][other] && other > name) {
			return true
		}
	}
	return false
}

// keptRun reports whether a kept script, or a script it runs, runs one of tools.
func (n *nodeScan) keptRun(tools ...string) bool {
	for _, name := range n.kept {
		for s := range n.runs[name] {
			if runsTool(n.scripts[s], tools...) {
				return true
			}
		}
	}
	return false
}

// scriptGates makes a gate of each kept script, run through the package manager: a script that
// writes files is the fixer of its check form, and a sibling fix script (lint:fix) its fix.
func (n *nodeScan) scriptGates() {
	for _, name := range n.kept {
		g := Gate{Name: nodeGateName(name), Comment: "the " + name + " script", Run: n.runScript(name),
			Timeout: nodeTimeout(name), Source: "from " + n.src + ", script " + name + n.runBy(name),
			Format: scriptFormat(n.scripts, n.runs[name])}
		if also := n.alsoRuns(name); len(also) > 0 {
			g.Comment += ", which also runs " + joinAnd(also)
		}
		if n.checkAndFix(&g, name) {
			n.p.Gates = append(n.p.Gates, g)
		}
	}
}

func (n *nodeScan) runScript(name string) string { return n.pm.run + " " + name }

// alsoRuns are the other wanted scripts a kept one runs.
func (n *nodeScan) alsoRuns(name string) []string {
	var also []string
	for _, w := range n.wanted {
		if w != name && n.runs[name][w] {
			also = append(also, w)
		}
	}
	return also
}

// runBy names the first declared check (CI, a hook) that runs the script, "" when none does.
func (n *nodeScan) runBy(name string) string {
	for _, d := range n.c.decls {
		if contains(scriptRefs(n.scripts, d.script), name) {
			return "; run by " + d.source
		}
	}
	return ""
}

// checkAndFix gives a script's gate its check and fix forms; false when the script rewrites
// files and no check form of it is known: it is no gate then, and a note says so.
func (n *nodeScan) checkAndFix(g *Gate, name string) bool {
	if check, ok := checkForm(n.scripts[name], n.pm); ok {
		// The script rewrites files (eslint --fix, biome --write): as a gate it would rewrite
		// the agent's code instead of judging it. It is the gate's fixer, and the gate runs
		// the same tools without their writing flags.
		g.Run, g.Fix = check, n.runScript(name)
		g.Comment = "what the " + name + " script checks, without its writing flags (the script itself is the fix)"
		return true
	}
	if writesFiles(n.scripts[name]) {
		n.p.Notes = append(n.p.Notes, "the "+name+" script rewrites files and gauntlet knows no check form of it: "+
			"it is no gate here. Add the check by hand, with `fix: "+n.runScript(name)+"`.")
		return false
	}
	if fixer := siblingFix(n.scripts, name); fixer != "" {
		g.Fix = n.runScript(fixer)
		g.Source += "; fix: script " + fixer
	} else if name == "lint" {
		g.Hint = "Run `" + n.runScript("lint") + "`; many linters fix what they can with --fix."
	}
	return true
}

// toolsRunByCI makes a gate, through the package manager, of each Node tool CI (or a hook) runs
// directly rather than through a script, when no kept script runs it either.
func (n *nodeScan) toolsRunByCI() {
	for _, key := range []string{"eslint", "biome", "prettier", "tsc", "vitest", "jest"} {
		g, ok := n.c.pick(key)
		if !ok {
			continue
		}
		tool := strings.Fields(g.Run)[0]
		if n.alreadyRuns(tool) {
			continue
		}
		if key == "tsc" {
			n.tscRun = true
		}
		g.Run = throughPM(g.Run, n.pm)
		if g.Fix != "" {
			g.Fix = throughPM(g.Fix, n.pm)
		}
		if hasGate(n.p.Gates, g.Name) {
			g.Name = tool
		}
		n.p.Gates = append(n.p.Gates, g)
	}
}

// alreadyRuns reports whether a gate or a kept script runs the tool already; the fmt gate of
// the formatting scripts runs them by name.
func (n *nodeScan) alreadyRuns(tool string) bool {
	if gateRuns(n.p.Gates, tool) || n.keptRun(tool) {
		return true
	}
	return slices.ContainsFunc(n.p.Gates, func(gate Gate) bool {
		s, ok := strings.CutPrefix(gate.Run, n.pm.run+" ")
		return ok && runsTool(n.scripts[s], tool)
	})
}

// configuredLinters: a linter configured in the project, among its dependencies, but run by none
// of its scripts, as configured and without fixing (offered when the project declares checks).
func (n *nodeScan) configuredLinters() {
	for _, l := range nodeLinters {
		cfg := firstExisting(n.c.abs, l.configs)
		if cfg == "" || !n.dependsOn(l.dep) || n.keptRun(l.tool) || gateRuns(n.p.Gates, l.tool) || n.orchestrates(l.tool) {
			continue
		}
		name := "lint"
		if contains(n.kept, "lint") || hasGate(n.p.Gates, "lint") {
			name = l.tool
		}
		n.p.Gates = append(n.p.Gates, Gate{Name: name, Comment: l.comment, Run: n.pm.exec + " " + l.run, Fix: n.pm.exec + " " + l.fix,
			Timeout: lintTime, Source: "from " + inDir(n.c.rel, cfg) + " (no script runs " + l.tool + ")", Inferred: true})
	}
}

// typeScriptDefault: without a script that runs tsc, a tsconfig.json and a typescript dependency
// give tsc --noEmit (gauntlet's guess).
func (n *nodeScan) typeScriptDefault() {
	if n.tscRun || hasAny(n.kept, typecheckScripts) || !exists(n.c.abs, "tsconfig.json") || !n.dependsOn("typescript") ||
		n.orchestrates("tsc") {
		return
	}
	n.p.Gates = append(n.p.Gates, Gate{Name: "typecheck", Comment: "type errors, as the TypeScript compiler reports them",
		Run: n.pm.exec + " tsc --noEmit", Timeout: lintTime,
		Source: "not declared by the project: gauntlet's default for tsconfig.json with a typescript dependency", Inferred: true})
}

func (n *nodeScan) dependsOn(dep string) bool {
	return n.pkg.DevDependencies[dep] != nil || n.pkg.Dependencies[dep] != nil
}

// orchestratedTools are the words of a task orchestrator's target names that say which tool
// the packages' targets run: nx run-many --targets=test:eslint,test:types runs eslint and tsc.
var orchestratedTools = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"eslint": {"eslint", "lint"},
		"biome":  {"biome", "lint"},
		"tsc":    {"tsc", "types", "typecheck", "type-check", "typescript"},
	}
})

// orchestrates reports whether a kept script runs, through a task orchestrator, a target whose
// name says it runs tool in the packages: the project checks with it, under that script's gate.
func (n *nodeScan) orchestrates(tool string) bool {
	for _, name := range n.kept {
		for s := range n.runs[name] {
			for _, target := range orchestratorTargets(n.scripts[s]) {
				parts := strings.FieldsFunc(target, func(r rune) bool { return r == ':' || r == '/' })
				if slices.ContainsFunc(parts, func(p string) bool { return contains(orchestratedTools()[tool], p) }) {
					return true
				}
			}
		}
	}
	return false
}

// orchestratorTargets are the targets a script's orchestrator commands run: nx's (see
// nxTargets), turbo run's names.
func orchestratorTargets(script string) []string {
	var targets []string
	for _, cmd := range splitCommands(script) {
		w := withoutNodeRunner(cmd.words)
		switch {
		case len(w) > 1 && w[0] == "nx":
			targets = append(targets, nxTargets(w[1:])...)
		case len(w) > 2 && w[0] == "turbo" && w[1] == "run":
			targets = append(targets, nonFlags(w[2:])...)
		}
	}
	return targets
}

// orchestrators run a task together with the tasks it depends on, usually the builds of the
// packages it uses: a test through nx builds first.
var orchestrators = []string{"nx", "turbo", "lerna", "wireit"}

// buildTools write build outputs (dist/, build/); tsc only without --noEmit.
var buildTools = []string{"vite", "tsup", "rollup", "webpack", "esbuild", "babel", "unbuild", "next", "swc", "parcel"}

// waitForBuild makes each script gate that builds too (through an orchestrator, or a build tool of
// its own) need the build gate: two gates writing the same outputs side by side would each read
// the other's half-written files. A gate in ordered has its needs from the orchestrator's own
// declared order (nx's dependsOn) already.
func (n *nodeScan) waitForBuild(turbo map[string][]string) {
	gs := n.p.Gates
	if !hasGate(gs, "build") {
		return
	}
	for i := range gs {
		g := &gs[i]
		name, ok := strings.CutPrefix(g.Run, n.pm.run+" ")
		if !ok || g.Name == "build" || n.ordered[g.Name] {
			continue
		}
		for s := range scriptClosure(n.scripts, name) {
			if n.buildsToo(n.scripts[s], turbo) {
				g.Needs = []string{"build"}
				break
			}
		}
	}
}

// buildsToo reports whether a script writes build outputs or runs tasks that may (turbo's, as
// its turbo.json orders them; nx's, as nx.json and the projects do).
func (n *nodeScan) buildsToo(script string, turbo map[string][]string) bool {
	for _, cmd := range splitCommands(script) {
		w := withoutNodeRunner(cmd.words)
		if len(w) > 1 && w[0] == "turbo" && w[1] == "run" {
			if tasks, _ := turboRun(w[2:]); turboBuilds(turbo, tasks) {
				return true
			}
			continue
		}
		if builds, ok := n.nxBuilds(w); ok {
			if builds {
				return true
			}
			continue
		}
		if builds(w) {
			return true
		}
	}
	return false
}

// nodeRunners start a tool from the project's node_modules.
var nodeRunners = [][]string{{"npx"}, {"pnpm", "exec"}, {"yarn", "exec"}, {"bunx"}, {"yarn"}, {"pnpm"}}

// withoutNodeRunner takes the runner in front of a tool off (npx tsc: tsc).
func withoutNodeRunner(w []string) []string {
	for _, p := range nodeRunners {
		if hasPrefix(w, p...) && len(w) > len(p) {
			return w[len(p):]
		}
	}
	return w
}

// builds reports whether a command writes build outputs: a task orchestrator, tsc without
// --noEmit, a build tool (vite and next only as `vite build`, `next build`).
func builds(w []string) bool {
	switch {
	case len(w) == 0:
		return false
	case contains(orchestrators, w[0]):
		return true
	case w[0] == "tsc":
		return !slices.Contains(w, "--noEmit") && !slices.Contains(w, "-noEmit")
	case contains(buildTools, w[0]):
		return w[0] != "vite" && w[0] != "next" || len(w) > 1 && w[1] == "build"
	}
	return false
}

// nodeLinters are the linters whose config file alone makes a gate.
var nodeLinters = []struct {
	tool, dep, run, fix, comment string
	configs                      []string
}{
	{"eslint", "eslint", "eslint .", "eslint --fix .", "eslint's rules", []string{"eslint.config.js", "eslint.config.mjs", "eslint.config.cjs",
		"eslint.config.ts", ".eslintrc.js", ".eslintrc.cjs", ".eslintrc.json", ".eslintrc.yml", ".eslintrc.yaml", ".eslintrc"}},
	{"biome", "@biomejs/biome", "biome check .", "biome check --write .", "biome's lint and format checks", []string{"biome.json", "biome.jsonc"}},
}

// throughPM runs each command of run through the package manager, which puts the project's
// node_modules/.bin on the PATH.
func throughPM(run string, pm packageManager) string {
	parts := strings.Split(run, " && ")
	for i := range parts {
		parts[i] = pm.exec + " " + parts[i]
	}
	return strings.Join(parts, " && ")
}

// plainChain reports whether a script is commands joined by && and nothing else of the shell:
// only then can it be taken apart and put together again without changing what it does.
func plainChain(script string) bool {
	return !strings.ContainsAny(strings.ReplaceAll(script, "&&", " "), "|;&<>`$(){}\n")
}

// writesFiles reports whether a command of the script is a known tool in its writing form.
func writesFiles(script string) bool {
	for _, cmd := range splitCommands(script) {
		if c, ok := classify(cmd.words); ok && c.writes {
			return true
		}
	}
	return false
}

// checkForm is a script that rewrites files, said as the checks of the same tools: each writing
// command in its check form, the others as they are, all through the package manager. ok is
// false when the script writes nothing, or when it cannot be taken apart safely.
func checkForm(script string, pm packageManager) (string, bool) {
	if !plainChain(script) {
		return "", false
	}
	var parts []string
	writes := false
	for _, cmd := range splitCommands(script) {
		words, wrote, ok := commandCheckForm(cmd)
		if !ok {
			return "", false
		}
		writes = writes || wrote
		words = trimPrefixWords(words, strings.Fields(pm.exec))
		parts = append(parts, pm.exec+" "+strings.Join(quoteAll(words), " "))
	}
	return strings.Join(parts, " && "), writes
}

// commandCheckForm is one command of a script as a check: a writing command's check form, any
// other as it is; wrote says it was a writing one; false when the command has no check form
// or runs elsewhere.
func commandCheckForm(cmd simpleCommand) (words []string, wrote, ok bool) {
	if cmd.cd != "" || len(cmd.words) == 0 {
		return nil, false, false
	}
	c, known := classify(cmd.words)
	if !known || !c.writes {
		return cmd.words, false, true
	}
	return c.words, true, c.words != nil
}

// trimPrefixWords is words without prefix in front, when it is there.
func trimPrefixWords(words, prefix []string) []string {
	if hasPrefix(words, prefix...) {
		return words[len(prefix):]
	}
	return words
}

// siblingFix finds the script that fixes what script name checks, by the usual names: lint:fix,
// lint-fix, lint_fix, fix:lint, and fix for lint.
func siblingFix(scripts map[string]string, name string) string {
	candidates := []string{name + ":fix", name + "-fix", name + "_fix", "fix:" + name}
	if name == "lint" {
		candidates = append(candidates, "fix")
	}
	for _, c := range candidates {
		if scripts[c] != "" {
			return c
		}
	}
	return ""
}

// formatGate is the fmt gate of the project's formatting scripts, when no kept script runs them
// already: its check script (format:check) with the writing one (format) as the fix, or, when
// there is only the writing one, the check form of the same tool.
func formatGate(scripts map[string]string, runs map[string]map[string]bool, kept []string, pm packageManager, src string) []Gate {
	free := func(s string) bool { return scripts[s] != "" && !runByKept(runs, kept, s) }
	writer := firstOf(formatWriters, free)
	if s := firstOf(formatChecks, free); s != "" {
		g := Gate{Name: "fmt", Comment: "the " + s + " script", Run: pm.run + " " + s, Timeout: 5 * time.Minute,
			Source: "from " + src + ", script " + s}
		if writer != "" {
			g.Fix = pm.run + " " + writer
			g.Source += "; fix: script " + writer
		}
		return []Gate{g}
	}
	if writer != "" && !writesFiles(scripts[writer]) {
		// A fixing sibling (format and format:fix) rewrites, so this one checks.
		if fixer := siblingFix(scripts, writer); fixer != "" {
			return []Gate{{Name: "fmt", Comment: "the " + writer + " script", Run: pm.run + " " + writer, Fix: pm.run + " " + fixer,
				Timeout: 5 * time.Minute, Source: "from " + src + ", script " + writer + "; fix: script " + fixer}}
		}
	}
	if writer == "" || biomeChecked(scripts, runs, kept, scripts[writer]) {
		return nil
	}
	check, ok := checkForm(scripts[writer], pm)
	if !ok {
		return nil
	}
	// The project formats with the script but checks the formatting nowhere: offered, not gated,
	// where it declares checks of its own.
	return []Gate{{Name: "fmt", Comment: "what the " + writer + " script formats, checked without writing (the script itself is the fix)",
		Run: check, Fix: pm.run + " " + writer, Timeout: 5 * time.Minute, Source: "from " + src + ", script " + writer, Inferred: true}}
}

// formatWriters are the script names that conventionally format the code; formatChecks those
// that check its formatting.
var (
	formatWriters = []string{"format", "fmt", "prettier"}
	formatChecks  = []string{"format:check", "fmt:check", "format-check", "check:format", "check-format", "prettier:check"}
)

// runByKept reports whether a kept script runs the script s.
func runByKept(runs map[string]map[string]bool, kept []string, s string) bool {
	return slices.ContainsFunc(kept, func(k string) bool { return runs[k][s] })
}

// firstOf is the first of names ok takes, "" when none.
func firstOf(names []string, ok func(string) bool) string {
	if i := slices.IndexFunc(names, ok); i >= 0 {
		return names[i]
	}
	return ""
}

// biomeChecked reports whether a biome format script's check is already done: biome check and
// biome ci check the formatting too, so a kept script that runs them covers it.
func biomeChecked(scripts map[string]string, runs map[string]map[string]bool, kept []string, writer string) bool {
	return runsTool(writer, "biome") && slices.ContainsFunc(keptChecks(scripts, runs, kept), checksFormatting)
}

// checksFormatting reports whether a check is biome check or biome ci, which check the
// formatting too.
func checksFormatting(c check) bool {
	return c.key == "biome" && len(c.words) > 1 && (c.words[1] == "check" || c.words[1] == "ci")
}

// keptChecks are the checks the kept scripts, and the scripts they run, run.
func keptChecks(scripts map[string]string, runs map[string]map[string]bool, kept []string) []check {
	var out []check
	for _, k := range kept {
		for s := range runs[k] {
			for _, cmd := range splitCommands(scripts[s]) {
				if c, ok := classify(cmd.words); ok {
					out = append(out, c)
				}
			}
		}
	}
	return out
}

// keptTools are the checks (classify's keys) the kept scripts run.
func keptTools(scripts map[string]string, runs map[string]map[string]bool, kept []string) map[string]bool {
	out := map[string]bool{}
	for _, c := range keptChecks(scripts, runs, kept) {
		out[c.key] = true
	}
	return out
}

// gateRuns reports whether a gate already runs tool (through the package manager or not).
func gateRuns(gs []Gate, tool string) bool {
	for _, g := range gs {
		if runsTool(g.Run, tool) {
			return true
		}
	}
	return false
}

func hasGate(gs []Gate, name string) bool {
	for _, g := range gs {
		if g.Name == name {
			return true
		}
	}
	return false
}

func nodeGateName(script string) string {
	for _, t := range typecheckScripts {
		if script == t {
			return "typecheck"
		}
	}
	return slug(script) // lint:ws: a gate's name has no colon
}

func nodeTimeout(script string) time.Duration {
	switch script {
	case "test", "check":
		return testTime
	case "build":
		return 15 * time.Minute
	}
	return lintTime
}

func hasAny(list, names []string) bool {
	for _, n := range names {
		if contains(list, n) {
			return true
		}
	}
	return false
}

func joinAnd(items []string) string {
	if len(items) == 1 {
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// scriptClosure is name and every script it runs, directly or through another script.
func scriptClosure(scripts map[string]string, name string) map[string]bool {
	seen := map[string]bool{}
	var walk func(string)
	walk = func(n string) {
		if seen[n] || scripts[n] == "" {
			return
		}
		seen[n] = true
		for _, ref := range scriptRefs(scripts, scripts[n]) {
			walk(ref)
		}
		// npm runs pre<name> and post<name> around a script.
		walk("pre" + n)
		walk("post" + n)
	}
	walk(name)
	return seen
}

// scriptRefs lists the scripts a script runs: `npm run X`, `pnpm X`, `yarn X`, `npm test`,
// `run-s X Y`, `npm-run-all X 'lint:*'`.
func scriptRefs(scripts map[string]string, script string) []string {
	var out []string
	for _, cmd := range splitCommands(script) {
		for _, name := range scriptsNamed(scripts, cmd.words) {
			out = append(out, expandScriptGlob(scripts, name)...)
		}
	}
	return out
}

// scriptsNamed are the scripts one command runs, by name or by a glob ending in * (run-s 'lint:*').
func scriptsNamed(scripts map[string]string, w []string) []string {
	if len(w) == 0 {
		return nil
	}
	args := nonFlags(w[1:])
	switch w[0] {
	case "npm", "pnpm", "yarn", "bun":
		return packageManagerRuns(scripts, w[0], args)
	case "run-s", "run-p", "npm-run-all", "npm-run-all2":
		return args
	case "nx":
		// nx runs the root package.json's scripts of a target's name as that target.
		var out []string
		for _, t := range nxTargets(w[1:]) {
			if scripts[t] != "" {
				out = append(out, t)
			}
		}
		return out
	}
	return nil
}

// packageManagerRuns is the script a package manager's command runs: npm run lint, npm test,
// pnpm lint, yarn lint.
func packageManagerRuns(scripts map[string]string, pm string, args []string) []string {
	if len(args) == 0 {
		return nil
	}
	switch args[0] {
	case "run", "run-script":
		return args[1:min(len(args), 2)]
	case "test", "t":
		return []string{"test"}
	}
	if pm != "npm" && scripts[args[0]] != "" {
		return args[:1] // pnpm lint, yarn lint
	}
	return nil
}

// expandScriptGlob is the scripts a name ending in * matches (run-s 'lint:*'), or a regular
// expression between slashes (pnpm run "/^test:.*/"), or the name itself.
func expandScriptGlob(scripts map[string]string, name string) []string {
	var match func(string) bool
	if prefix, ok := strings.CutSuffix(name, "*"); ok {
		match = func(s string) bool { return strings.HasPrefix(s, prefix) }
	} else if re, ok := scriptRegexp(name); ok {
		match = re.MatchString
	} else {
		return []string{name}
	}
	var out []string
	for s := range scripts {
		if match(s) {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// scriptRegexp is pnpm's selector of the scripts to run, a regular expression between slashes;
// false for a script's name, or an expression Go's regexp does not read.
func scriptRegexp(name string) (*regexp.Regexp, bool) {
	if len(name) < 3 || name[0] != '/' || name[len(name)-1] != '/' {
		return nil, false
	}
	re, err := regexp.Compile(name[1 : len(name)-1])
	return re, err == nil
}

// nxTargets are the targets an nx command runs: `run-many --targets=a,b`, `affected -t a`,
// `run project:target`.
func nxTargets(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		for _, flag := range []string{"--targets", "--target", "-t"} {
			if targets, next, ok := flagArg(args, i, flag); ok {
				out = append(out, strings.Split(targets, ",")...)
				i = next
				break // one word is one flag
			}
		}
		if i > 0 && args[0] == "run" && !strings.HasPrefix(a, "-") {
			if _, target, ok := strings.Cut(a, ":"); ok {
				out = append(out, target)
			}
		}
	}
	return out
}

// flagArg is the value args[i] gives flag ("--flag=v", or "--flag v", whose value is the next
// word) and the index of the last word read; false when args[i] is not that flag.
func flagArg(args []string, i int, flag string) (string, int, bool) {
	if v, ok := strings.CutPrefix(args[i], flag+"="); ok {
		return v, i, true
	}
	if args[i] == flag && i+1 < len(args) {
		return args[i+1], i + 1, true
	}
	return "", i, false
}

func nonFlags(words []string) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, "-") {
			if w == "--filter" || w == "-F" || w == "-C" || w == "--dir" {
				i++
			}
			continue
		}
		out = append(out, w)
	}
	return out
}

// runsTool reports whether a script runs one of tools itself.
func runsTool(script string, tools ...string) bool {
	for _, cmd := range splitCommands(script) {
		w := cmd.words
		for _, p := range [][]string{{"npx"}, {"pnpm", "exec"}, {"yarn", "exec"}, {"bunx"}, {"yarn"}} {
			if hasPrefix(w, p...) && len(w) > len(p) {
				w = w[len(p):]
				break
			}
		}
		if len(w) > 0 && contains(tools, w[0]) {
			return true
		}
	}
	return false
}

// rootScriptsCoverWorkspace reports whether root's package.json has a check script of its own.
func rootScriptsCoverWorkspace(root string) bool {
	var pkg packageJSON
	if json.Unmarshal(readCapped(filepath.Join(root, "package.json")), &pkg) != nil {
		return false
	}
	for _, name := range append([]string{"lint", "check", "test"}, typecheckScripts...) {
		if s, ok := pkg.Scripts[name].(string); ok && strings.TrimSpace(s) != "" && strings.TrimSpace(s) != npmInitTest {
			return true
		}
	}
	return false
}

// nodeWorkspaces are the workspace patterns of root's pnpm-workspace.yaml or package.json.
func nodeWorkspaces(root string) []string {
	var pnpm struct {
		Packages []string `yaml:"packages"`
	}
	if decodeYAML(readCapped(filepath.Join(root, "pnpm-workspace.yaml")), &pnpm) && len(pnpm.Packages) > 0 {
		return pnpm.Packages
	}
	var pkg struct {
		Workspaces json.RawMessage `json:"workspaces"`
	}
	if json.Unmarshal(readCapped(filepath.Join(root, "package.json")), &pkg) != nil || len(pkg.Workspaces) == 0 {
		return nil
	}
	var list []string
	if json.Unmarshal(pkg.Workspaces, &list) == nil {
		return list
	}
	var obj struct {
		Packages []string `json:"packages"`
	}
	_ = json.Unmarshal(pkg.Workspaces, &obj)
	return obj.Packages
}

// choosePackageManager goes by the lock file, then by the packageManager field of package.json
// (Corepack's "pnpm@9.1.0"); without either, npm.
func choosePackageManager(dir, declared string) packageManager {
	for _, pm := range packageManagers {
		for _, lock := range pm.lockFile {
			if exists(dir, lock) {
				return pm
			}
		}
	}
	name, _, _ := strings.Cut(declared, "@")
	for _, pm := range packageManagers {
		if pm.name == name {
			return pm
		}
	}
	return packageManagers[len(packageManagers)-1]
}

// scriptFormat is the findings parser of the one tool a script (and the scripts it runs) reads
// with: `pnpm run test` names no tool, so without it the gate's findings would be read by the
// generic reader only ("no findings were recognised" for vitest's). "" when the scripts run no
// known tool, or several (detection then reads the generic way, which is no worse).
func scriptFormat(scripts map[string]string, closure map[string]bool) string {
	var names []string
	for s := range closure {
		for _, cmd := range splitCommands(scripts[s]) {
			for _, n := range findings.Detect(cmd.words).Names() {
				if n != "generic" && !contains(names, n) {
					names = append(names, n)
				}
			}
		}
	}
	if len(names) == 1 {
		return names[0]
	}
	return ""
}

// leftOutScripts names the scripts that run a check (a tool init knows as one, or a check's
// name) but that no gate runs, each with why: a declared check is never dropped without a word.
func leftOutScripts(scripts map[string]string, runs map[string]map[string]bool, kept []string, gs []Gate, pm packageManager) []string {
	var out []string
	gated := keptTools(scripts, runs, kept)
	for _, name := range sortedKeys(scripts) {
		if scriptCovered(scripts, runs, kept, gs, pm, name) || strings.HasPrefix(name, "pre") || strings.HasPrefix(name, "post") {
			continue
		}
		if note := leftOutNote(name, scripts[name], gated, pm); note != "" {
			out = append(out, note)
		}
	}
	return out
}

// leftOutNote says that a script that checks is no gate, with the line to add by hand; "" for a
// script that only writes files, or runs a gate's tool in another mode, or checks nothing known.
func leftOutNote(name, script string, gated map[string]bool, pm packageManager) string {
	tool := scriptTool(script)
	switch {
	case writesFiles(script):
		return "" // a fixer or a formatter: never a gate, and not a check left out
	case gated[tool] || strings.Contains(name, "watch"):
		return "" // the same tool as a gate, in another mode (test:coverage, test:watch)
	case fileToolScriptReads(name, script):
		return "" // a gate of its own (fileToolScripts)
	case tool != "":
		return fmt.Sprintf("the %s script (%s) is no gate: init makes gates of the lint, type-check, check, test and build scripts only; add it by hand as `run: %s %s` if the project treats it as a check.", name, tool, pm.run, name)
	case checkTargets()[name]:
		return fmt.Sprintf("the %s script is no gate: it runs no check init knows; add it by hand as `run: %s %s` if it is one.", name, pm.run, name)
	}
	return ""
}

// scriptCovered reports whether a script is run by a kept script or is a gate's run or fix.
func scriptCovered(scripts map[string]string, runs map[string]map[string]bool, kept []string, gs []Gate, pm packageManager, name string) bool {
	for _, k := range kept {
		if runs[k][name] || scriptClosure(scripts, k)[name] {
			return true
		}
	}
	return slices.ContainsFunc(gs, func(g Gate) bool { return g.Run == pm.run+" "+name || g.Fix == pm.run+" "+name })
}

// scriptTool is the first check a script runs that init knows or names, "" when none.
func scriptTool(script string) string {
	for _, cmd := range splitCommands(script) {
		if c, ok := classify(cmd.words); ok {
			return c.key
		}
		if w := downloadedTool(cmd.words); len(w) > 0 && checkScriptTools()[w[0]] {
			return w[0]
		}
	}
	return ""
}

// downloadedTool is a command without what fetches and runs a package's binary (pnpm dlx, npx,
// yarn dlx, bunx) and the version pinned to it: `pnpm dlx sherif@latest` runs sherif.
func downloadedTool(words []string) []string {
	for _, p := range [][]string{{"pnpm", "dlx"}, {"yarn", "dlx"}, {"npx"}, {"bunx"}, {"npm", "exec", "--"}} {
		if hasPrefix(words, p...) && len(words) > len(p) {
			words = slices.Clone(words[len(p):])
			if i := strings.LastIndexByte(words[0], '@'); i > 0 {
				words[0] = words[0][:i]
			}
			break
		}
	}
	return words
}

// checkScriptTools are JavaScript checks classify does not shape into gates of their own.
var checkScriptTools = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"knip": true, "publint": true, "attw": true, "syncpack": true, "madge": true,
		"depcheck": true, "stylelint": true, "markdownlint": true, "cspell": true, "oxlint": true, "xo": true, "standard": true,
		"size-limit": true, "lint-staged": false, "sherif": true, "manypkg": true}
})
