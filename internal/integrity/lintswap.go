package integrity

import (
	"path"
	"regexp"
	"strings"
)

// A linter's config deleted while the change creates another linter's (eslint to oxlint or biome,
// an .eslintrc migrated to a flat config) is a swap: it is judged by what the new config checks,
// not reported as a linter removed. A new config that checks nothing (no severity above off, no
// preset, category or plugin) leaves the deletion reported.

// lintFamily names the linter whose config lives at p; "" when it is none of the ones a swap is
// read between.
func lintFamily(p string) string {
	b := path.Base(p)
	switch {
	case b == ".eslintrc" || strings.HasPrefix(b, ".eslintrc.") || strings.HasPrefix(b, "eslint.config."):
		return "eslint"
	case b == ".oxlintrc.json":
		return "oxlint"
	case b == "biome.json" || b == "biome.jsonc":
		return "biome"
	}
	return ""
}

// checksWords are what makes a lint config check something: a severity above off, a preset, a
// category, a plugin.
var checksWords = lazy(`(?i)["'](error|warn|warning|deny|on)["']|\b(recommended|categories|extends|plugins|configs)\b|\b[12]\s*[,}\]]`)

// lintSuccessor says whether the change creates a lint config, other than the one deleted at
// deleted, that checks something: then the deletion is a linter swapped.
func (j *judge) lintSuccessor(deleted string) bool {
	for _, f := range j.files {
		if f.Created && !f.Deleted && f.Path != deleted && lintFamily(f.Path) != "" && checksSomething(f) {
			return true
		}
	}
	return false
}

func checksSomething(f File) bool {
	for _, l := range f.Added {
		if checksWords.get().MatchString(jsCode(l.Text)) {
			return true
		}
	}
	return false
}

// swappedFrom is the text of the lint configs the change deleted, when f is a config it created
// in their place; "" when f replaces none.
func (j *judge) swappedFrom(f File) string {
	if !f.Created || lintFamily(f.Path) == "" {
		return ""
	}
	var b strings.Builder
	for _, d := range j.files {
		if d.Deleted && d.Path != f.Path && lintFamily(d.Path) != "" {
			for _, l := range d.Removed {
				b.WriteString(l.Text)
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}

// checkedBefore says whether a rule a swap's new config turns off was named in the config it
// replaced: a rule the old config did not name came with the new preset, and turning it off
// relaxes nothing the base checked.
func checkedBefore(old, rule string) bool {
	return regexp.MustCompile(`(^|[^\w/@-])` + regexp.QuoteMeta(rule) + `($|[^\w/-])`).MatchString(old)
}

// presetSwapped says whether an eslint config's presets were swapped for others: one dropped and
// one added that checks (not one that only turns rules off, as prettier's do). Judged by what the
// new config checks, the swap relaxes nothing by itself; the rules the new config turns off that
// the old one did not name come with the new preset, and are not reported either. A rule the old
// config named and the new one lowers still is.
func presetSwapped(old, new any) bool {
	if len(grown(new, old)) == 0 {
		return false
	}
	for _, p := range grown(old, new) {
		if !strings.Contains(strings.ToLower(p), "prettier") {
			return true
		}
	}
	return false
}
