package scaffold

import (
	"regexp"
	"slices"
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
	const dir = `(?:[\w-]|\\\.)+(?:/(?:[\w-]|\\\.)+)*` // names of letters, digits, - and _, and escaped dots
	return regexp.MustCompile(`^(?:\^(?:\((` + dir + `(?:\|` + dir + `)*)\)/|\((` + dir + `/(?:\|` + dir + `/)*)\)|(` + dir + `)/))?` +
		`(?:\^?\.\*)?(?:\\\.(?:(\w+)|\((\w+(?:\|\w+)*)\))\$)?$`)
})

// hookFiles turns a pre-commit hook's files: pattern into the globs of the files it matches and
// the folders it names; both nil when there is no pattern or init cannot read it.
func hookFiles(pattern string) (globs, dirs []string) {
	if files := hookFileList(pattern); files != nil {
		return files, nil
	}
	m := hookFilesPattern().FindStringSubmatch(pattern)
	if pattern == "" || m == nil {
		return nil, nil
	}
	if d := strings.ReplaceAll(m[1]+strings.ReplaceAll(m[2], "/|", "|")+m[3], `\.`, "."); d != "" {
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

// hookFileListPattern reads a pattern that names whole files, anchored at both ends: ^docs/conf\.py$,
// ^(setup\.py|docs/conf\.py)$. A dot between two names may be unescaped (^docs/conf.py$, as
// pre-commit's own docs write it): it matches the file's dot, and only lookalike names besides.
var hookFileListPattern = sync.OnceValue(func() *regexp.Regexp {
	const file = `[\w-]+(?:(?:\\\.|\.|/)[\w-]+)*`
	return regexp.MustCompile(`^\^(?:\((` + file + `(?:\|` + file + `)*)\)|(` + file + `))\$$`)
})

// hookFileList is the files a pattern of whole files names, as globs; nil for any other pattern.
func hookFileList(pattern string) []string {
	m := hookFileListPattern().FindStringSubmatch(pattern)
	if m == nil {
		return nil
	}
	var out []string
	for _, f := range strings.Split(m[1]+m[2], "|") {
		out = append(out, escapeGlob(strings.ReplaceAll(f, `\.`, ".")))
	}
	return out
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

// hookExclude is a mapped hook's command and exclude for pre-commit's exclude: patterns (the
// config's, which holds for every hook, and the hook's own): pre-commit never passes the hook
// those files, so the gate leaves them out of the change it runs on and, for a tool that walks
// the tree itself, out of its walk, with the tool's own flag. A pattern init cannot read as
// globs is left alone, as before.
func hookExclude(cmd, id string, patterns []string, local bool) (string, []string) {
	var globs, regexps []string
	for _, p := range patterns {
		if g, _ := hookFiles(p); len(g) > 0 {
			globs = append(globs, g...)
			regexps = append(regexps, p)
		}
	}
	if len(globs) == 0 || local || strings.Contains(cmd, "{files}") {
		return cmd, globs
	}
	flag := preCommitExcludeFlags()[id]
	if flag == nil {
		return cmd, globs
	}
	words := strings.Fields(cmd)
	at := 1
	if len(words) > 1 && words[0] == "ruff" && !strings.HasPrefix(words[1], "-") {
		at = 2 // after ruff's subcommand
	}
	return strings.Join(slices.Concat(words[:at], flag(globs, regexps), words[at:]), " "), globs
}

// preCommitExcludeFlags are, by hook id, the flags that make a tool that walks the tree leave
// out files, given the exclude as globs (profiling/**) and as pre-commit's regexps. flake8's,
// ruff's and isort's add to what the tool's config excludes; mypy's --exclude takes the same
// regular expressions and replaces its config's, which holds only for mypy's own walk, one
// pre-commit never made (it passes mypy the files).
var preCommitExcludeFlags = sync.OnceValue(func() map[string]func(globs, regexps []string) []string {
	extend := func(globs, _ []string) []string {
		return []string{"--extend-exclude", strings.Join(excludeNames(globs), ",")}
	}
	return map[string]func(globs, regexps []string) []string{
		"flake8": extend, "ruff": extend, "ruff-check": extend, "ruff-format": extend,
		"ansible-lint": func(globs, _ []string) []string {
			var out []string
			for _, n := range excludeNames(globs) {
				out = append(out, "--exclude", quoteWord(n))
			}
			return out
		},
		"isort": func(globs, _ []string) []string {
			var out []string
			for _, n := range excludeNames(globs) {
				if !strings.Contains(n, "*") {
					n += "/*"
				}
				out = append(out, "--extend-skip-glob", quoteWord(n))
			}
			return out
		},
		"mypy": func(_, regexps []string) []string {
			var out []string
			for _, r := range regexps {
				// One word, so that the value is not taken for the files mypy checks.
				out = append(out, "--exclude="+quoteWord(r))
			}
			return out
		},
	}
})

// excludeNames are exclude globs as the tools' patterns: a folder (tests/data/** is tests/data),
// an extension (**/*.svg is *.svg).
func excludeNames(globs []string) []string {
	out := make([]string, 0, len(globs))
	for _, g := range globs {
		out = append(out, strings.TrimPrefix(strings.TrimSuffix(g, "/**"), "**/"))
	}
	return out
}
