package scaffold

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Checks of no one language: spelling, YAML, Ansible, Markdown (mdl), GitHub workflows, Go's
// vulnerability database, and the project's own check scripts. Where the project runs one (a CI
// step or action, a pre-commit hook, a check target), it is a gate of the folder's project, and a
// repository with no manifest at all (shell scripts, playbooks, docs) gets a project of its own
// for them, so that a CI-only repository is gated as its CI gates it.

// anyKind is the kind of the project that holds a folder's checks of no language when no
// language was found there.
const anyKind = "Repository"

// anyTools are the checks of no one language init knows, by program: each runs as written, less
// the flags that would rewrite files (dropped), which are its fix.
var anyTools = sync.OnceValue(func() map[string]anyTool {
	return map[string]anyTool{
		"typos": {check{key: "typos", name: "typos", comment: "misspelt words, as typos finds them", timeout: quick},
			[]string{"-w", "--write-changes"}},
		"misspell": {check{key: "misspell", name: "misspell", comment: "misspelt words, as misspell finds them", timeout: quick},
			[]string{"-w"}},
		"yamllint": {check{key: "yamllint", name: "yamllint", comment: "YAML files, as yamllint judges them", timeout: quick}, nil},
		"ansible-lint": {check{key: "ansible-lint", name: "ansible-lint", comment: "playbooks and roles, as ansible-lint judges them",
			timeout: lintTime}, []string{"--fix", "--write"}},
		// ansible-lint's module, as `python3 -m ansiblelint` runs it
		"ansiblelint": {check{key: "ansible-lint", name: "ansible-lint", comment: "playbooks and roles, as ansible-lint judges them",
			timeout: lintTime}, []string{"--fix", "--write"}},
		"mdl":        {check{key: "mdl", name: "mdl", comment: "Markdown files, as mdl judges them", timeout: quick}, nil},
		"actionlint": {check{key: "actionlint", name: "actionlint", comment: "GitHub workflows, as actionlint judges them", timeout: quick}, nil},
		"govulncheck": {check{key: "govulncheck", name: "vulncheck",
			comment: "known vulnerabilities the code reaches, as govulncheck reports them (it reads Go's vulnerability database)",
			timeout: lintTime}, nil},
	}
})

// anyTool is one check of no language and its writing flags.
type anyTool struct {
	check
	writing []string
}

// classifyAnyTool is such a tool's command as a gate: as written, without its writing flags.
func classifyAnyTool(tool string, words []string) (check, bool) {
	t := anyTools()[tool]
	c := t.check
	c.kind = anyKind
	c.words = slices.DeleteFunc(slices.Clone(words), func(w string) bool { return slices.Contains(t.writing, w) })
	c.writes = len(c.words) != len(words)
	if len(t.writing) > 0 {
		c.fix = append(slices.Clone(c.words), t.writing[0])
	}
	return c, true
}

// projectScriptCheck is a script of the project's own that its CI or a check target runs and
// that says it checks (shell/update.sh --check, scripts/check-links): the project's check, run
// as written. Named by the script (update).
func projectScriptCheck(d declared, words []string) (check, bool) {
	// The check is asked for by an argument (--check): a script whose name alone says so
	// (ci/test-complete) may need what CI's earlier steps built, and is named instead.
	if len(words) < 2 || !projectPath(words[0]) || !hasCheckWord(words[1:]) || hasSetupWord(words) || !checkingSource(d) ||
		packageScriptRun(d, words) {
		return check{}, false
	}
	file := filepath.Join(d.root, filepath.FromSlash(d.dir), filepath.FromSlash(words[0]))
	if info, err := os.Stat(file); err != nil || !info.Mode().IsRegular() {
		return check{}, false
	}
	name := strings.TrimSuffix(path.Base(words[0]), path.Ext(words[0]))
	return check{key: "script:" + words[0], kind: anyKind, name: slug(name), comment: "the project's own check script", words: words,
		timeout: lintTime}, true
}

// packageScriptRun reports whether a command runs what one of the folder's package scripts runs,
// flags aside (bin/bats test --print-output-on-failure, where the test script is bin/bats test):
// the script's gate checks it already.
func packageScriptRun(d declared, words []string) bool {
	var pkg packageJSON
	if d.root == "" || json.Unmarshal(readCapped(filepath.Join(d.root, filepath.FromSlash(d.dir), "package.json")), &pkg) != nil {
		return false
	}
	want := sameRun(words)
	for _, script := range checkableScripts(pkg) {
		for _, cmd := range splitCommands(script) {
			if len(cmd.words) > 1 && slices.Equal(sameRun(cmd.words), want) {
				return true
			}
		}
	}
	return false
}

// sameRun is a command as compared with another: its program without ./ and its arguments that
// are not flags.
func sameRun(words []string) []string {
	out := []string{strings.TrimPrefix(words[0], "./")}
	for _, w := range words[1:] {
		if !strings.HasPrefix(w, "-") {
			out = append(out, strings.TrimSuffix(w, "/"))
		}
	}
	return out
}

// projectPath reports whether a program is named by a path inside the project (shell/update.sh),
// not by a variable, an absolute path or one under the home folder.
func projectPath(program string) bool {
	return strings.Contains(program, "/") && !strings.ContainsAny(program, "$`") && !path.IsAbs(program) &&
		!strings.HasPrefix(program, "~")
}

// checkingSource reports whether a declared script may run checks: not a formatting target, a
// release workflow or a tox env that publishes.
func checkingSource(d declared) bool {
	return d.root != "" && !d.fixer && !(d.rank == rankCI && releaseWorkflow(d.source)) && !notCheckUnit(d.unit)
}

// anyToolGates gives each folder the checks of no language it runs, in its project, or in a
// project of its own at the root when the repository has no project there.
func anyToolGates(projects *[]Project, checks []found) {
	var keys, dirs []string
	for _, f := range checks {
		if f.kind == anyKind && !contains(keys, f.key) {
			keys = append(keys, f.key)
		}
	}
	for _, f := range checks {
		if f.kind == anyKind && !contains(dirs, f.dir) {
			dirs = append(dirs, f.dir)
		}
	}
	for _, dir := range dirs {
		c := &dirContext{rel: dir, found: inFolder(checks, func(f found) string { return f.dir }, dir)}
		var gates []Gate
		for _, key := range keys {
			if g, ok := c.pick(key); ok {
				gates = append(gates, g)
			}
		}
		if len(gates) > 0 {
			addGates(projects, dir, gates)
		}
	}
}

// addGates adds gates to the project of dir, or a project of their own there when it has none
// (the root) and they cannot go to the root project (another folder).
func addGates(projects *[]Project, dir string, gates []Gate) {
	i := slices.IndexFunc(*projects, func(p Project) bool { return p.Dir == dir })
	if i < 0 {
		*projects = append(*projects, Project{Dir: dir, Kind: anyKind})
		slices.SortStableFunc(*projects, func(a, b Project) int { return strings.Compare(a.Dir, b.Dir) })
		i = slices.IndexFunc(*projects, func(p Project) bool { return p.Dir == dir })
	}
	p := &(*projects)[i]
	for _, g := range gates {
		if !slices.ContainsFunc(p.Gates, func(o Gate) bool { return o.Name == g.Name }) {
			p.Gates = append(p.Gates, g)
		}
	}
}
