package integrity

import (
	"bufio"
	"bytes"
	"path"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// checkScripts are the script and target names that run checks by convention, beside the ones
// the gates name.
var checkScripts = []string{"test", "tests", "lint", "check", "vet", "typecheck", "type-check", "types", "ci", "verify", "coverage"}

var (
	pkgScriptCall = lazy(`\b(?:npm|pnpm|yarn|bun)\s+(?:(?:run|run-script)\s+)?(?:--?[\w-]+\s+)*([\w:.-]+)`)
	makeCall      = lazy(`\bmake\s+((?:-\S+\s+|\w+=\S+\s+)*)([\w./ -]+)`)
	// cannotFail is a command that succeeds whatever it is given to check.
	cannotFail = lazy(`^(?:true|:|exit\s+0|echo\b.*|printf\b.*|)$|(?:\|\||;)\s*(?:true|:|exit\s+0|echo\b[^|;&]*)\s*$`)
)

// neutered says whether a script can no longer fail.
func neutered(cmd string) bool { return cannotFail.MatchString(strings.TrimSpace(cmd)) }

// scriptNames are the package scripts that matter: the conventional ones and those the gates run.
func (j *judge) scriptNames(scripts map[string]any) []string {
	var out []string
	for name := range scripts {
		base, _, _ := strings.Cut(name, ":")
		if slices.Contains(checkScripts, base) {
			out = append(out, name)
		}
	}
	for _, cmd := range j.in.Commands {
		for _, m := range pkgScriptCall.FindAllStringSubmatch(cmd, -1) {
			name := m[1]
			if name == "t" {
				name = "test"
			}
			if _, ok := scripts[name]; ok {
				out = append(out, name)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// packageJSON judges the scripts, the eslint config and the jest test selection kept in
// package.json.
func (j *judge) packageJSON(c configPair) {
	if c.file.Deleted {
		return
	}
	oldScripts, newScripts := getMap(c.old, "scripts"), getMap(c.new, "scripts")
	for _, name := range j.scriptNames(oldScripts) {
		if n, still := newScripts[name]; still {
			j.scriptWeakened(c, name, str(oldScripts[name]), str(n))
		}
	}
	if oe, ne := getMap(c.old, "eslintConfig"), getMap(c.new, "eslintConfig"); oe != nil {
		j.eslintTree(c, oe, ne, []string{"eslintConfig"})
	}
	j.jsRunnerConfig(c, getMap(c.old, "jest"), getMap(c.new, "jest"))
}

// scriptWeakened reports a package script that stays but can no longer fail or runs fewer tests.
func (j *judge) scriptWeakened(c configPair, name, o, n string) {
	at := cmpOr0(lineOf(c.newData, "scripts", name), lineOf(c.newData, "scripts"))
	if !neutered(o) && neutered(n) {
		j.add(gates.RuleScriptNeutered, c.file.Path, at, "script %q replaced by %s, which cannot fail", name, shown(n))
	}
	if why, _ := narrowedCommands([]string{o}, []string{n}); why != "" {
		j.add(gates.RuleTestsExcluded, c.file.Path, at, "script %q runs fewer tests: %s", name, why)
	}
}

// makeRule is a target's prerequisites and recipe, with the line each recipe line starts on.
type makeRule struct {
	prereqs []string
	recipe  []string
	lines   []int
}

var makeTargetLine = lazy(`^([\w./%-]+(?:\s+[\w./%-]+)*)\s*::?\s*([^=]*)$`)

// parseMakefile reads the explicit rules of a Makefile; enough to tell what a target runs.
func parseMakefile(data []byte) map[string]*makeRule {
	r := makeReader{rules: map[string]*makeRule{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var cont string
	n, start := 0, 0
	for sc.Scan() {
		n++
		if cont == "" {
			start = n
		}
		line := cont + sc.Text()
		cont = ""
		if strings.HasSuffix(line, "\\") {
			cont = strings.TrimSuffix(line, "\\") + " "
			continue
		}
		r.line(line, start)
	}
	return r.rules
}

// makeReader is parseMakefile's state: the rules so far, and those the recipe lines being read
// belong to.
type makeReader struct {
	rules map[string]*makeRule
	cur   []*makeRule
}

// line reads one logical line (continuations joined) that starts on line start.
func (r *makeReader) line(line string, start int) {
	if strings.HasPrefix(line, "\t") {
		for _, rule := range r.cur {
			rule.recipe = append(rule.recipe, strings.TrimSpace(line))
			rule.lines = append(rule.lines, start)
		}
		return
	}
	t := strings.TrimSpace(line)
	if t == "" || strings.HasPrefix(t, "#") {
		return
	}
	r.cur = nil
	if m := makeTargetLine.FindStringSubmatch(t); m != nil {
		r.targets(strings.Fields(m[1]), m[2])
	}
}

// targets starts the rules of a target line: its targets, and its prerequisites up to a ; (an
// inline recipe).
func (r *makeReader) targets(names []string, rest string) {
	prereqs, _, _ := strings.Cut(rest, ";")
	for _, target := range names {
		rule := r.rules[target]
		if rule == nil {
			rule = &makeRule{}
			r.rules[target] = rule
		}
		rule.prereqs = append(rule.prereqs, strings.Fields(prereqs)...)
		r.cur = append(r.cur, rule)
	}
}

// canFail says whether a recipe line can make the target fail: not an echo or a true, and not
// prefixed with - (make ignores its errors).
func canFail(line string) bool {
	t := strings.TrimLeft(line, "@+ ")
	if strings.HasPrefix(strings.TrimLeft(line, "@+ "), "-") || strings.HasPrefix(line, "-") {
		return false
	}
	return !neutered(t)
}

// makeTargets are the targets that matter: the conventional ones and those the gates run.
func (j *judge) makeTargets(rules map[string]*makeRule) []string {
	var out []string
	for name := range rules {
		if slices.Contains(checkScripts, name) {
			out = append(out, name)
		}
	}
	for _, cmd := range j.in.Commands {
		for _, m := range makeCall.FindAllStringSubmatch(cmd, -1) {
			for _, t := range strings.Fields(m[2]) {
				if _, ok := rules[t]; ok {
					out = append(out, t)
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// makefile reports targets the gates rely on whose recipe can no longer fail or runs fewer
// tests, .IGNORE added, and makefiles read that the base did not have.
func (j *judge) makefile(f File) {
	if f.Deleted || f.Created {
		return
	}
	oldData, _ := j.ch.Old(cmpOr(f.OldPath, f.Path))
	newData, _ := j.ch.New(f.Path)
	old, new := parseMakefile(oldData), parseMakefile(newData)
	if _, had := old[".IGNORE"]; !had && new[".IGNORE"] != nil {
		j.add(gates.RuleScriptNeutered, f.Path, lineOf(newData, ".IGNORE"), ".IGNORE added: make ignores every recipe's errors")
	}
	for _, name := range j.makeTargets(old) {
		if n := new[name]; n != nil {
			j.makeTargetWeakened(f.Path, newData, name, old[name], n)
		}
	}
	j.makeIncludes(f, newData)
}

// makeTargetWeakened reports a target that stays but can no longer fail, no longer runs a
// prerequisite, or runs fewer tests.
func (j *judge) makeTargetWeakened(file string, newData []byte, name string, o, n *makeRule) {
	switch {
	case recipeCanFail(o) && !recipeCanFail(n) && len(n.prereqs) == 0:
		j.add(gates.RuleScriptNeutered, file, targetLine(newData, name), "make target %q can no longer fail: %s", name, shown(strings.Join(n.recipe, "; ")))
	case len(o.prereqs) > 0:
		if lost := grown(anySlice(n.prereqs), anySlice(o.prereqs)); len(lost) > 0 {
			j.add(gates.RuleScriptNeutered, file, targetLine(newData, name), "make target %q no longer runs %s", name, list(lost, 3))
		}
	}
	if why, at := narrowedCommands(o.recipe, n.recipe); why != "" {
		j.add(gates.RuleTestsExcluded, file, n.lines[at], "make target %q runs fewer tests: %s", name, why)
	}
}

func recipeCanFail(r *makeRule) bool { return slices.ContainsFunc(r.recipe, canFail) }

// makeInclude is a directive that reads another makefile; - and s make a missing one no error.
var makeInclude = lazy(`^\s*(-include|sinclude|include)\s+(.+?)\s*$`)

// makeIncludes reports include directives added that read a makefile the base did not have: a
// local, untracked or new file can redefine any target a check runs. Dependency files (.d) are
// what compilers write; an include moved within the makefiles is not new.
func (j *judge) makeIncludes(f File, newData []byte) {
	moved := j.includesRemoved()
	for _, l := range f.Added {
		m := includeDirective(l.Text)
		if m == nil {
			continue
		}
		if moved.take(normalize(m[0])) {
			continue
		}
		if unknown := j.includesNew(f, m[2]); len(unknown) > 0 {
			j.add(gates.RuleScriptNeutered, f.Path, l.N, "%s %s added: a makefile the base did not have can redefine any target a check runs", m[1], list(unknown, 3))
		}
	}
}

// includeDirective reads an include directive (not a recipe line): the directive and what it
// names; nil when the line is none.
func includeDirective(text string) []string {
	if strings.HasPrefix(text, "\t") {
		return nil
	}
	return makeInclude.FindStringSubmatch(text)
}

// includesRemoved counts the include directives the change removes from any makefile, by their
// text: one added again elsewhere moved.
func (j *judge) includesRemoved() tally {
	pool := tally{}
	for _, other := range j.files {
		if !isMakefile(other.Path) && !isMakefile(other.OldPath) {
			continue
		}
		for _, l := range other.Removed {
			if m := includeDirective(l.Text); m != nil {
				pool[normalize(m[0])]++
			}
		}
	}
	return pool
}

// includesNew are the makefiles an include in f names that the base did not have (a name made
// of variables counts as unknown); dependency files aside.
func (j *judge) includesNew(f File, names string) []string {
	var unknown []string
	for _, name := range strings.Fields(names) {
		if strings.HasSuffix(name, ".d") || strings.HasSuffix(name, ".d)") {
			continue
		}
		if _, had := j.ch.Old(path.Join(path.Dir(f.Path), name)); had && !strings.Contains(name, "$") {
			continue
		}
		unknown = append(unknown, name)
	}
	return unknown
}

func anySlice(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

func targetLine(data []byte, target string) int {
	for i, line := range strings.Split(string(data), "\n") {
		if m := makeTargetLine.FindStringSubmatch(strings.TrimSpace(line)); m != nil && !strings.HasPrefix(line, "\t") &&
			slices.Contains(strings.Fields(m[1]), target) {
			return i + 1
		}
	}
	return 0
}

// MakeTarget is what make runs for target, read from a Makefile's explicit rules: its
// prerequisites and its recipe lines (the @, - and + prefixes removed); false when the Makefile
// has no rule for it. The census reads it to find the test runner `make test` hides.
func MakeTarget(data []byte, target string) (prereqs, recipe []string, ok bool) {
	rule := parseMakefile(data)[target]
	if rule == nil {
		return nil, nil, false
	}
	for _, line := range rule.recipe {
		recipe = append(recipe, strings.TrimLeft(line, "@-+ \t"))
	}
	return rule.prereqs, recipe, true
}
