package scaffold

import (
	"regexp"
	"strings"
	"sync"
)

// preCommitTakesFiles are the mapped hooks whose tool checks the files pre-commit passes it, so
// that the folders of a files: pattern are the files the gate's command checks too.
var preCommitTakesFiles = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"ruff": true, "ruff-check": true, "ruff-format": true, "black": true, "isort": true, "flake8": true, "pylint": true,
		"mypy": true, "pyright": true, "basedpyright": true, "codespell": true, "go-fmt": true,
		"prettier": true, "eslint": true, "biome-check": true, "biome-ci": true,
	}
})

// hookFilesPattern reads the usual forms of a hook's files: regexp: folders (^src/,
// ^(src|tests)/, ^(src/|tests/)), an extension (\.md$, \.(md|rst)$), or both (^src/.*\.py$).
// Anything else (a lookahead, a character class) is not read.
var hookFilesPattern = sync.OnceValue(func() *regexp.Regexp {
	const dir = `[\w-]+(?:/[\w-]+)*`
	return regexp.MustCompile(`^(?:\^(?:\((` + dir + `(?:\|` + dir + `)*)\)/|\((` + dir + `/(?:\|` + dir + `/)*)\)|(` + dir + `)/))?` +
		`(?:\^?\.\*)?(?:\\\.(?:(\w+)|\((\w+(?:\|\w+)*)\))\$)?$`)
})

// hookFiles turns a pre-commit hook's files: pattern into the globs of the files it matches and
// the folders it names; both nil when there is no pattern or init cannot read it.
func hookFiles(pattern string) (globs, dirs []string) {
	m := hookFilesPattern().FindStringSubmatch(pattern)
	if pattern == "" || m == nil {
		return nil, nil
	}
	if d := m[1] + strings.ReplaceAll(m[2], "/|", "|") + m[3]; d != "" {
		dirs = strings.Split(strings.TrimSuffix(d, "/"), "|")
	}
	var exts []string
	if e := m[4] + m[5]; e != "" {
		exts = strings.Split(e, "|")
	}
	prefixes := []string{""}
	if len(dirs) > 0 {
		prefixes = nil
		for _, d := range dirs {
			prefixes = append(prefixes, escapeGlob(d)+"/")
		}
	}
	for _, p := range prefixes {
		if len(exts) == 0 {
			globs = append(globs, p+"**")
		}
		for _, e := range exts {
			globs = append(globs, p+"**/*."+e)
		}
	}
	return globs, dirs
}

// hookScope is a mapped hook's command and paths for its files: pattern: pre-commit passes the
// hook only the files it matches, so the gate runs when one of them changes and, for a tool that
// checks the files it is given, checks the pattern's folders. A local hook's entry is kept as
// written.
func hookScope(cmd, id, files string, local bool) (string, []string) {
	paths, dirs := hookFiles(files)
	if len(dirs) > 0 && !local && preCommitTakesFiles()[id] {
		cmd = withTargets(cmd, dirs)
	}
	return cmd, paths
}

// withTargets makes a command that checks the whole project (its "." or, with none named, its
// working directory) check dirs instead.
func withTargets(cmd string, dirs []string) string {
	var words []string
	for _, w := range strings.Fields(cmd) {
		if w != "." {
			words = append(words, w)
		}
	}
	for _, d := range dirs {
		words = append(words, quoteWord(d))
	}
	return strings.Join(words, " ")
}
