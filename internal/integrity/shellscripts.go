package integrity

import (
	"path"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// Script files a gate runs (`sh ./check.sh`, `python3 check.py`, `node check.mjs`) are checks as
// much as a package script is: a change that ends them before their checks, lets a check's
// failure pass, or turns off sh's stop on failure is script-neutered. A line added that checks
// more, and a comment changed, are not.

// scriptLangs are the script files read, by extension, with the interpreters that name them.
var scriptLangs = map[string]string{
	".sh": "sh", ".bash": "sh", ".py": "python", ".js": "node", ".mjs": "node", ".cjs": "node",
}

var (
	// earlyExit is a top-level line that ends the script with success, by language.
	earlyExit = map[string]*lazyRegexp{
		"sh":     lazy(`^(?:exit|return)(?:\s+0)?\s*;?\s*(?:#.*)?$`),
		"python": lazy(`^(?:sys\.exit|exit|quit|os\._exit)\(\s*0?\s*\)\s*(?:#.*)?$|^raise\s+SystemExit(?:\(\s*0?\s*\))?\s*$`),
		"node":   lazy(`^process\.exit\(\s*0?\s*\)\s*;?\s*(?://.*)?$`),
	}
	// swallowed is a line whose failure is turned into success.
	swallowed     = lazy(`^(.*?\S)\s*\|\|\s*(?:true|:|exit\s+0)\s*;?\s*$`)
	setErrexitOn  = lazy(`^set\s+(?:-[a-zA-Z]*e[a-zA-Z]*|-o\s+errexit)\b`)
	setErrexitOff = lazy(`^set\s+(?:\+[a-zA-Z]*e[a-zA-Z]*|\+o\s+errexit)\b`)
)

// gateScript says the language of a script file a gate's command names, "" when none does.
func (j *judge) gateScript(p string) string {
	lang := scriptLangs[path.Ext(p)]
	if lang == "" {
		return ""
	}
	for _, cmd := range j.reachedCommands() {
		for _, w := range strings.Fields(cmd) {
			if path.Clean(strings.Trim(w, `'"`)) == p {
				return lang
			}
		}
	}
	return ""
}

// reachedCommands are the gates' commands and what they run through the base's package.json
// scripts and Makefile targets (the conventional ones and those the gates call): `npm test`
// whose script is "./test.sh" runs test.sh as much as a gate naming it does. Read once.
func (j *judge) reachedCommands() []string {
	if j.reached != nil {
		return j.reached
	}
	j.reached = slices.Clone(j.in.Commands)
	if data, ok := j.ch.Old("package.json"); ok {
		if m, err := parseJSON(data); err == nil {
			scripts := getMap(m, "scripts")
			for _, name := range j.scriptNames(scripts) {
				j.reached = append(j.reached, str(scripts[name]))
			}
		}
	}
	for _, mf := range []string{"GNUmakefile", "makefile", "Makefile"} {
		if data, ok := j.ch.Old(mf); ok {
			rules := parseMakefile(data)
			for _, name := range j.makeTargets(rules) {
				j.reached = append(j.reached, rules[name].recipe...)
			}
		}
	}
	return j.reached
}

// checkScriptFiles judges the script files the gates run that the change edits.
func (j *judge) checkScriptFiles() {
	for _, f := range j.files {
		if f.Created || f.Deleted || notOurs(f.Path) {
			continue
		}
		if lang := j.gateScript(f.Path); lang != "" {
			j.scriptFile(f, lang)
		}
	}
}

func (j *judge) scriptFile(f File, lang string) {
	data, _ := j.ch.New(f.Path)
	lines := strings.Split(string(data), "\n")
	removed := map[string]bool{}
	for _, l := range f.Removed {
		removed[strings.TrimSpace(l.Text)] = true
	}
	for _, l := range f.Added {
		j.scriptLine(f.Path, lang, l, lines, removed)
	}
	if lang == "sh" {
		j.errexitRemoved(f)
	}
}

// scriptLine judges one added line: an early exit at the top level, or || true on a check the
// base had.
func (j *judge) scriptLine(file, lang string, l Line, lines []string, removed map[string]bool) {
	text := strings.TrimSpace(l.Text)
	switch {
	case l.Text == text && earlyExit[lang].MatchString(text) && checksAfter(lines, l.N, lang):
		j.add(gates.RuleScriptNeutered, file, l.N, "%s added before the script's checks: they no longer run", shown(text))
	case lang == "sh":
		if m := swallowed.FindStringSubmatch(text); m != nil && removed[m[1]] {
			j.add(gates.RuleScriptNeutered, file, l.N, "%s added to %s: its failure no longer fails the script",
				shown(strings.TrimSpace(strings.TrimPrefix(text, m[1]))), shown(m[1]))
		}
		if setErrexitOff.MatchString(text) {
			j.add(gates.RuleScriptNeutered, file, l.N, "`set -e` turned off (%s): a failing check no longer stops the script", shown(text))
		}
	}
}

// checksAfter says whether a line that does something (not blank, not a comment) follows line n
// (1-based) of the script.
func checksAfter(lines []string, n int, lang string) bool {
	comment := "#"
	if lang == "node" {
		comment = "//"
	}
	return slices.ContainsFunc(lines[min(n, len(lines)):], func(s string) bool {
		s = strings.TrimSpace(s)
		return s != "" && !strings.HasPrefix(s, comment)
	})
}

// errexitRemoved reports a set -e the base had and the change removed, none added back (a set +e
// added in its place is reported as such).
func (j *judge) errexitRemoved(f File) {
	if slices.ContainsFunc(f.Added, func(l Line) bool {
		t := strings.TrimSpace(l.Text)
		return setErrexitOn.MatchString(t) || setErrexitOff.MatchString(t) // kept, or reported as turned off
	}) {
		return
	}
	for _, l := range f.Removed {
		if setErrexitOn.MatchString(strings.TrimSpace(l.Text)) {
			j.add(gates.RuleScriptNeutered, f.Path, l.At, "`set -e` removed: a failing check no longer stops the script")
			return
		}
	}
}
