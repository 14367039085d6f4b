package integrity

import (
	"path"
	"strings"
)

// lang is a language whose tests and suppressions gauntlet recognises line by line.
type lang int

const (
	langNone lang = iota
	langGo
	langJS
	langPython
	langRust
)

func langOf(p string) lang {
	switch strings.ToLower(path.Ext(p)) {
	case ".go":
		return langGo
	case ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts", ".vue", ".svelte":
		return langJS
	case ".py", ".pyi":
		return langPython
	case ".rs":
		return langRust
	}
	return langNone
}

// notOurs are directories whose files are not the project's own code: vendored dependencies and
// test fixtures that exist to be linted or parsed, not run.
func notOurs(p string) bool {
	for _, dir := range []string{"vendor/", "node_modules/", "testdata/", "third_party/", "__fixtures__/"} {
		if strings.HasPrefix(p, dir) || strings.Contains(p, "/"+dir) {
			return true
		}
	}
	return false
}

var (
	jsTestFile  = lazy(`(^|/)(__tests__|tests?|spec)/|\.(test|spec)\.[cm]?[jt]sx?$`)
	jsBenchFile = lazy(`\.bench\.[cm]?[jt]sx?$`)
	pyTestFile  = lazy(`(^|/)(test_[^/]*|[^/]*_test|conftest)\.py$|(^|/)tests?/[^/]*\.py$`)
	rsTestFile  = lazy(`(^|/)tests/.*\.rs$`)
)

// IsTestFile says whether the test runner of the file's language picks it up as a test file
// under its usual conventions (Go, JavaScript and TypeScript, Python, Rust).
func IsTestFile(p string) bool { return isTestFile(p) }

// isTestFile says whether the test runner of the file's language picks it up as a test file
// under its usual conventions.
func isTestFile(p string) bool {
	if notOurs(p) {
		return false
	}
	switch langOf(p) {
	case langGo:
		return strings.HasSuffix(p, "_test.go") && goWalked(p)
	case langJS:
		// vitest runs *.bench.* only under `vitest bench`: a benchmark is no test, wherever it is.
		return jsTestFile.MatchString(p) && !jsBenchFile.MatchString(p)
	case langPython:
		return pyTestFile.MatchString(p)
	case langRust:
		return rsTestFile.MatchString(p)
	}
	return false
}

// quotesOf are the characters that open a string in a language (Rust's ' is mostly a lifetime).
func quotesOf(l lang) string {
	if l == langRust {
		return `"`
	}
	return "\"'`"
}

// inString reports whether position i of line is inside a string literal, judged by the quotes
// before it on the same line: a marker quoted in code ("//nolint") is data, not a directive.
func inString(line string, i int, quotes string) bool {
	var open byte
	for j := 0; j < i && j < len(line); j++ {
		c := line[j]
		switch {
		case open == 0 && strings.IndexByte(quotes, c) >= 0:
			open = c
		case open != 0 && c == '\\':
			j++
		case c == open:
			open = 0
		}
	}
	return open != 0
}

// normalize collapses whitespace, so that a reindented line matches its old self.
func normalize(s string) string { return strings.Join(strings.Fields(s), " ") }
