package scaffold

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
)

// turbo.json says which tasks run first (dependsOn): `turbo run lint` builds nothing unless the
// lint task, or one it depends on, is a build. init reads it so that a gate waits for the build
// only where the project declares that order.

// turboConfig is what init reads of turbo.json: each task's dependsOn (turbo 2's tasks, turbo
// 1's pipeline).
type turboConfig struct {
	Tasks    map[string]turboTask `json:"tasks"`
	Pipeline map[string]turboTask `json:"pipeline"`
}

type turboTask struct {
	DependsOn []string `json:"dependsOn"`
}

// turboDeps reads a folder's turbo.json (JSON with comments allowed at line starts): the tasks'
// dependsOn by task name; nil when there is none or it cannot be read.
func turboDeps(dir string) map[string][]string {
	data := readCapped(filepath.Join(dir, "turbo.json"))
	if data == nil {
		return nil
	}
	var cfg turboConfig
	if json.Unmarshal(withoutLineComments(data), &cfg) != nil {
		return nil
	}
	tasks := cfg.Tasks
	if tasks == nil {
		tasks = cfg.Pipeline
	}
	out := map[string][]string{}
	for name, t := range tasks {
		out[turboTaskName(name)] = append(out[turboTaskName(name)], t.DependsOn...)
	}
	return out
}

// withoutLineComments drops the lines of a JSONC file that are only a // comment.
func withoutLineComments(data []byte) []byte {
	lines := strings.Split(string(data), "\n")
	out := lines[:0]
	for _, l := range lines {
		if !strings.HasPrefix(strings.TrimSpace(l), "//") {
			out = append(out, l)
		}
	}
	return []byte(strings.Join(out, "\n"))
}

// turboTaskName is a task without its package (web#lint is lint) or its dependencies' mark
// (^build is build).
func turboTaskName(name string) string {
	name = strings.TrimPrefix(name, "^")
	if i := strings.LastIndexByte(name, '#'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// turboBuilds reports whether running tasks builds first: one of them, or a task they depend
// on (depth-first, each once), is a build. Without a turbo.json to say, it may.
func turboBuilds(deps map[string][]string, tasks []string) bool {
	if deps == nil {
		return true
	}
	seen := map[string]bool{}
	var walk func(task string) bool
	walk = func(task string) bool {
		task = turboTaskName(task)
		if seen[task] {
			return false
		}
		seen[task] = true
		if strings.Contains(task, "build") || strings.Contains(task, "compile") {
			return true
		}
		for _, d := range deps[task] {
			if walk(d) {
				return true
			}
		}
		return false
	}
	for _, t := range tasks {
		if walk(t) {
			return true
		}
	}
	return false
}

// turboValueFlags are turbo run's flags that take the next word as their value.
var turboValueFlags = []string{"--filter", "-F", "--concurrency", "--cache-dir", "--output-logs", "--log-order", "--graph",
	"--env-mode", "--log-prefix", "--cache", "--affected-base"}

// turboRun splits `turbo run ...` (words after run) into its tasks and its --filter values.
func turboRun(args []string) (tasks, filters []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, hasValue := strings.Cut(a, "=")
		switch {
		case !strings.HasPrefix(a, "-"):
			tasks = append(tasks, a)
		case contains(turboValueFlags, name) && !hasValue && i+1 < len(args):
			i++
			value, hasValue = args[i], true
		}
		if hasValue && (name == "--filter" || name == "-F") {
			filters = append(filters, value)
		}
	}
	return tasks, filters
}

// maxMembers bounds how many workspace packages are read to find the one a filter names.
const maxMembers = 500

// workspacePackages are the workspace's packages by name, each with its folder relative to the
// root (apps/www), from the workspace's patterns (apps/*, packages/ui).
func workspacePackages(root string) map[string]string {
	out := map[string]string{}
	for _, pat := range nodeWorkspaces(root) {
		pat = strings.TrimSuffix(strings.TrimPrefix(pat, "./"), "/")
		if strings.HasPrefix(pat, "!") || strings.Contains(pat, "**") {
			continue
		}
		dirs, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(pat)))
		for _, d := range dirs {
			if len(out) == maxMembers {
				return out
			}
			var pkg struct {
				Name string `json:"name"`
			}
			if json.Unmarshal(readCapped(filepath.Join(d, "package.json")), &pkg) == nil && pkg.Name != "" {
				if rel, err := filepath.Rel(root, d); err == nil {
					out[pkg.Name] = filepath.ToSlash(rel)
				}
			}
		}
	}
	return out
}

// filterPackage is the folder of the one package a turbo --filter names, by name (www) or by
// folder (./apps/www); "" for any other filter (a glob, dependents, a git range).
func filterPackage(filter string, members map[string]string) (name, dir string) {
	if d, ok := members[filter]; ok {
		return filter, d
	}
	clean := strings.TrimSuffix(strings.TrimPrefix(filter, "./"), "/")
	for n, d := range members {
		if d == clean {
			return n, d
		}
	}
	return "", ""
}

// filteredTaskGates are the gates of the turbo runs the project declares for one package
// (`turbo run --filter=www check` in CI): that package's tasks, run as the project runs them, on
// changes to its folder.
func (n *nodeScan) filteredTaskGates(turbo map[string][]string) {
	var members map[string]string
	for _, d := range n.c.decls {
		for _, cmd := range splitCommands(d.script) {
			w := withoutNodeRunner(cmd.words)
			if len(w) < 3 || w[0] != "turbo" || w[1] != "run" {
				continue
			}
			tasks, filters := turboRun(w[2:])
			if len(filters) != 1 || len(tasks) == 0 {
				continue
			}
			if members == nil {
				members = workspacePackages(n.c.abs)
			}
			name, dir := filterPackage(filters[0], members)
			if dir == "" {
				continue
			}
			n.addFilteredTask(d, cmd, name, dir, tasks, turbo)
		}
	}
}

// addFilteredTask adds the gate of one package's turbo tasks, unless a gate of that name is
// there already.
func (n *nodeScan) addFilteredTask(d declared, cmd simpleCommand, name, dir string, tasks []string, turbo map[string][]string) {
	g := Gate{Name: slug(name) + "-" + strings.Join(tasks, "-"), Run: strings.Join(quoteAll(cmd.words), " "),
		Comment: "the " + name + " package's " + strings.Join(tasks, ", ") + ", through turbo", Paths: []string{escapeGlob(dir) + "/**"},
		Source: "from " + d.source, Timeout: lintTime}
	if slices.ContainsFunc(tasks, func(t string) bool { return strings.Contains(t, "test") }) {
		g.Timeout = testTime
	}
	if hasGate(n.p.Gates, g.Name) {
		return
	}
	if turboBuilds(turbo, tasks) && hasGate(n.p.Gates, "build") {
		g.Needs = []string{"build"}
	}
	n.p.Gates = append(n.p.Gates, g)
}
