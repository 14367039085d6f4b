package scaffold

import (
	"encoding/json"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// An nx task runs in the projects nx runs it in: `nx run www:lint` and `nx lint www` in www,
// `nx run-many -t lint --projects=www,api` in both, `nx affected -t test` and `run-many` without
// projects in every project that has the target. init makes each nx command the project runs
// (a CI step, a package script) a gate of those projects: run as the project runs it, on changes
// to their folders, waiting for the build only where nx's dependsOn says the target builds first.

// nxProject is what init reads of one nx project: its folder (relative to the root, slash-
// separated), its targets and each target's own dependsOn.
type nxProject struct {
	dir       string
	targets   map[string]bool
	dependsOn map[string][]string
}

// nxWorkspace is an nx workspace's projects by name and nx.json's targetDefaults' dependsOn by
// target.
type nxWorkspace struct {
	projects map[string]*nxProject
	defaults map[string][]string
}

// maxNxDepth bounds how deep under the root project.json files are looked for (apps/web/admin).
const maxNxDepth = 4

// maxNxWalk bounds the entries that walk looks at, as maxSizeWalk does the size walk's: the depth
// bound alone lets a wide source tree (thousands of files per folder) be walked whole.
var maxNxWalk = 20000

// readNxWorkspace reads the projects of the nx workspace at root: every project.json (bounded in
// depth and number), and every workspace package (its scripts are targets, its package.json's
// "nx" key may name it and add targets).
func readNxWorkspace(root string) *nxWorkspace {
	ws := &nxWorkspace{projects: map[string]*nxProject{}, defaults: nxTargetDefaults(root)}
	for _, dir := range workspacePackages(root) {
		ws.addPackage(root, dir)
	}
	walked := 0
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		walked++
		if walked > maxNxWalk || len(ws.projects) >= maxMembers {
			return filepath.SkipAll
		}
		if err != nil {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (skippedNxDir(d.Name()) || strings.Count(rel, "/") >= maxNxDepth) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() == "project.json" && rel != "project.json" {
			ws.addProjectJSON(root, pathDir(rel))
		}
		return nil
	})
	return ws
}

// pathDir is the folder of a slash-separated path.
func pathDir(rel string) string {
	i := strings.LastIndexByte(rel, '/')
	if i < 0 {
		return ""
	}
	return rel[:i]
}

// skippedNxDir are folders that hold no project of the workspace.
func skippedNxDir(name string) bool {
	return strings.HasPrefix(name, ".") || name == "node_modules" || name == "dist" || name == "build" ||
		name == "vendor" || name == "coverage" || name == "tmp"
}

// nxTargetConfig is a target of project.json or of package.json's "nx" key: its dependsOn, each
// a target name ("build", "^build") or an object naming one.
type nxTargetConfig struct {
	DependsOn []json.RawMessage `json:"dependsOn"`
}

// dependsOnNames are the target names a dependsOn lists.
func dependsOnNames(deps []json.RawMessage) []string {
	var out []string
	for _, raw := range deps {
		var name string
		if json.Unmarshal(raw, &name) == nil {
			out = append(out, name)
			continue
		}
		var obj struct {
			Target string `json:"target"`
		}
		if json.Unmarshal(raw, &obj) == nil && obj.Target != "" {
			out = append(out, obj.Target)
		}
	}
	return out
}

// nxTargetDefaults are nx.json's targetDefaults' dependsOn by target; empty (not nil) when nx.json
// declares none: then no target depends on a build. nil without an nx.json to read: nothing says
// a target does not build first.
func nxTargetDefaults(root string) map[string][]string {
	var cfg struct {
		TargetDefaults map[string]nxTargetConfig `json:"targetDefaults"`
	}
	data := readCapped(filepath.Join(root, "nx.json"))
	if data == nil || json.Unmarshal(withoutLineComments(data), &cfg) != nil {
		return nil
	}
	out := map[string][]string{}
	for name, t := range cfg.TargetDefaults {
		out[name] = dependsOnNames(t.DependsOn)
	}
	return out
}

// project is the project in dir, created under name when there is none yet.
func (ws *nxWorkspace) project(name, dir string) *nxProject {
	for _, p := range ws.projects {
		if p.dir == dir {
			return p
		}
	}
	p := &nxProject{dir: dir, targets: map[string]bool{}, dependsOn: map[string][]string{}}
	ws.projects[name] = p
	return p
}

// addTargets adds a project's declared targets and their dependsOn.
func (p *nxProject) addTargets(targets map[string]nxTargetConfig) {
	for name, t := range targets {
		p.targets[name] = true
		p.dependsOn[name] = append(p.dependsOn[name], dependsOnNames(t.DependsOn)...)
	}
}

// addPackage reads a workspace package: named by its package.json's "nx" name or its name, its
// scripts and "nx" targets its targets.
func (ws *nxWorkspace) addPackage(root, dir string) {
	var pkg struct {
		Name    string         `json:"name"`
		Scripts map[string]any `json:"scripts"`
		Nx      struct {
			Name    string                    `json:"name"`
			Targets map[string]nxTargetConfig `json:"targets"`
		} `json:"nx"`
	}
	if json.Unmarshal(readCapped(filepath.Join(root, filepath.FromSlash(dir), "package.json")), &pkg) != nil {
		return
	}
	p := ws.project(firstNonEmpty(pkg.Nx.Name, pkg.Name, filepath.Base(dir)), dir)
	for s := range pkg.Scripts {
		p.targets[s] = true
	}
	p.addTargets(pkg.Nx.Targets)
}

// addProjectJSON reads a project.json: its name (else the folder's), its targets. It wins over
// the package.json of the same folder for the project's name.
func (ws *nxWorkspace) addProjectJSON(root, dir string) {
	var pj struct {
		Name    string                    `json:"name"`
		Targets map[string]nxTargetConfig `json:"targets"`
	}
	if json.Unmarshal(readCapped(filepath.Join(root, filepath.FromSlash(dir), "project.json")), &pj) != nil {
		return
	}
	name := firstNonEmpty(pj.Name, filepath.Base(dir))
	p := ws.project(name, dir)
	for old, q := range ws.projects {
		if q == p && old != name {
			delete(ws.projects, old)
			ws.projects[name] = p
		}
	}
	p.addTargets(pj.Targets)
}

// nxTask is what one nx command runs: its targets, in the projects it names (none: every
// project with one of the targets), affected saying nx picks those a change touches.
type nxTask struct {
	targets, projects []string
	affected          bool
	// defaultProject: `nx test` runs the target in the workspace's default project, which init
	// does not read.
	defaultProject bool
}

// checks reports whether every target of the task checks (lint, test, typecheck, e2e,
// format:check): serving, building, deploying or releasing through nx is no gate.
func (t nxTask) checks() bool {
	return !slices.ContainsFunc(t.targets, func(target string) bool {
		return !hasCheckWord(strings.FieldsFunc(target, func(r rune) bool { return r == ':' || r == '-' || r == '_' })) &&
			!contains(typecheckScripts, target) && !strings.Contains(target, "e2e")
	})
}

// nxCommands are nx's own commands, which are no target: `nx format:check` is not the target
// check of a project format.
var nxCommands = []string{"run", "run-many", "affected", "graph", "dep-graph", "format", "format:check", "format:write",
	"release", "migrate", "reset", "show", "daemon", "init", "add", "generate", "g", "list", "report", "repair", "sync",
	"sync:check", "watch", "exec", "connect", "view-logs", "import", "login", "logout", "print-affected", "affected:graph",
	"workspace-lint"}

// parseNx reads the words after `nx`; false when they run no target nx can be asked for.
func parseNx(args []string) (nxTask, bool) {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return nxTask{}, false
	}
	cmd := args[0]
	switch {
	case cmd == "run" && len(args) > 1:
		return projectTarget(args[1])
	case cmd == "run-many" || cmd == "affected":
		t := nxTask{targets: nxListFlag(args[1:], "-t", "--target", "--targets"), projects: nxListFlag(args[1:], "-p", "--projects"),
			affected: cmd == "affected"}
		return t, len(t.targets) > 0
	case contains(nxCommands, cmd):
		return nxTask{}, false
	case strings.Contains(cmd, ":"):
		return projectTarget(cmd) // nx www:lint
	case len(args) > 1 && !strings.HasPrefix(args[1], "-"):
		return nxTask{targets: []string{cmd}, projects: []string{args[1]}}, true // nx lint www
	}
	return nxTask{targets: []string{cmd}, defaultProject: true}, true // nx test
}

// projectTarget reads project:target[:configuration].
func projectTarget(word string) (nxTask, bool) {
	project, rest, ok := strings.Cut(word, ":")
	target, _, _ := strings.Cut(rest, ":")
	if !ok || project == "" || target == "" {
		return nxTask{}, false
	}
	return nxTask{targets: []string{target}, projects: []string{project}}, true
}

// nxListFlag is the values of a list flag of nx: `-t a,b`, `--targets=a,b`, `-t a b` (every word
// up to the next flag).
func nxListFlag(args []string, flags ...string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		name, value, hasValue := strings.Cut(args[i], "=")
		if !contains(flags, name) {
			continue
		}
		if hasValue {
			out = append(out, splitList(value)...)
			continue
		}
		for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			i++
			out = append(out, splitList(args[i])...)
		}
	}
	return out
}

func splitList(s string) []string {
	return slices.DeleteFunc(strings.Split(s, ","), func(v string) bool { return v == "" })
}

// runsIn are the folders of the projects the task runs in, by project name; false when it names
// a project the workspace does not have, or no project has its targets.
func (ws *nxWorkspace) runsIn(t nxTask) (names, dirs []string, ok bool) {
	names = t.projects
	if len(names) == 0 {
		for _, name := range sortedKeys(ws.projects) {
			if slices.ContainsFunc(t.targets, func(target string) bool { return ws.projects[name].targets[target] }) {
				names = append(names, name)
			}
		}
	}
	for _, name := range names {
		p, found := ws.projects[name]
		if !found || p.dir == "" {
			return nil, nil, false
		}
		dirs = append(dirs, escapeGlob(p.dir)+"/**")
	}
	slices.Sort(dirs)
	return names, dirs, len(dirs) > 0
}

// builds reports whether the task's targets depend on a build, as the projects' own targets or
// nx.json's targetDefaults declare it; without an nx.json, they may.
func (ws *nxWorkspace) builds(t nxTask, projects []string) bool {
	if ws.defaults == nil {
		return true
	}
	deps := map[string][]string{}
	for target, d := range ws.defaults {
		deps[turboTaskName(target)] = append(deps[turboTaskName(target)], d...)
	}
	for _, name := range projects {
		if ws.projects[name] == nil {
			continue
		}
		for target, d := range ws.projects[name].dependsOn {
			deps[target] = append(deps[target], d...)
		}
	}
	return turboBuilds(deps, t.targets)
}

// nxTaskGates are the gates of the nx commands the project runs in CI (and its hooks and task
// runners) and in its package scripts that are no gate yet: each a gate of the projects it runs
// in.
func (n *nodeScan) nxTaskGates() {
	add := func(run, source string, words []string) {
		w := withoutNodeRunner(words)
		if len(w) < 2 || w[0] != "nx" {
			return
		}
		task, ok := parseNx(w[1:])
		if !ok || task.defaultProject || !task.checks() || slices.ContainsFunc(w, func(a string) bool { return a == "--fix" || a == "--write" }) {
			return
		}
		n.addNxGate(n.nxWorkspace(), task, run, source)
	}
	for _, d := range n.c.decls {
		for _, cmd := range splitCommands(d.script) {
			add(strings.Join(quoteAll(cmd.words), " "), "from "+d.source, cmd.words)
		}
	}
	for _, name := range sortedKeys(n.scripts) {
		if scriptCovered(n.scripts, n.runs, n.kept, n.p.Gates, n.pm, name) {
			continue
		}
		if cmds := splitCommands(n.scripts[name]); len(cmds) == 1 {
			add(n.pm.run+" "+name, "from "+n.src+", script "+name, cmds[0].words)
		}
	}
}

// addNxGate adds the gate of one nx task, unless a gate of that name or command is there.
func (n *nodeScan) addNxGate(ws *nxWorkspace, t nxTask, run, source string) {
	projects, paths, ok := ws.runsIn(t)
	if !ok {
		return
	}
	name, comment := nxGateName(t, projects)
	g := Gate{Name: name, Run: run, Comment: comment + ", through nx", Paths: paths, Source: source, Timeout: lintTime}
	if slices.ContainsFunc(t.targets, func(s string) bool { return strings.Contains(s, "test") }) {
		g.Timeout = testTime
	}
	if hasGate(n.p.Gates, g.Name) || slices.ContainsFunc(n.p.Gates, func(o Gate) bool { return o.Run == run }) {
		return
	}
	if !slices.Contains(t.targets, "build") && ws.builds(t, projects) && hasGate(n.p.Gates, "build") {
		g.Needs = []string{"build"}
	}
	n.p.Gates = append(n.p.Gates, g)
	if n.ordered == nil {
		n.ordered = map[string]bool{}
	}
	n.ordered[g.Name] = true
}

// nxGateName names the gate of an nx task and says what it runs: www-lint, www-api-lint-test,
// affected-test; a run-many over every project is its targets' name.
func nxGateName(t nxTask, projects []string) (name, comment string) {
	targets := strings.Join(t.targets, "-")
	what := strings.Join(t.targets, ", ")
	switch {
	case t.affected:
		return "affected-" + targets, "the " + what + " of the projects a change affects (" + strings.Join(projects, ", ") + ")"
	case len(t.projects) == 0:
		return targets, "the " + what + " of every project that has it (" + strings.Join(projects, ", ") + ")"
	}
	slugs := make([]string, len(projects))
	for i, p := range projects {
		slugs[i] = slug(p)
	}
	return strings.Join(slugs, "-") + "-" + targets, "the " + what + " of " + strings.Join(projects, ", ")
}

// nxWorkspace is the nx workspace of the folder, read once when first needed.
func (n *nodeScan) nxWorkspace() *nxWorkspace {
	if n.nx == nil {
		n.nx = readNxWorkspace(n.c.abs)
	}
	return n.nx
}

// nxBuilds reports whether an nx command runs a target that builds first, as nx.json and the
// projects declare it; nx's own commands (format:check, graph) build nothing. ok is false for a
// command that is not nx's.
func (n *nodeScan) nxBuilds(w []string) (builds, ok bool) {
	if len(w) == 0 || w[0] != "nx" {
		return false, false
	}
	task, isTask := parseNx(w[1:])
	if !isTask {
		return false, true
	}
	return n.nxWorkspace().builds(task, task.projects), true
}
