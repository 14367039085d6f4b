package integrity

import (
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// suppressionMarkers are the comments and attributes that tell a linter, a type checker or a
// coverage tool to look away, by language.
var suppressionMarkers = map[lang]*lazyRegexp{
	langGo:     lazy(`//\s*nolint\b|//\s*lint:(?:file-)?ignore\b|#nosec\b|//\s*NOSONAR\b`),
	langJS:     lazy(`(?:/[/*]|^\s*\*)\s*(?:eslint-disable(?:-next-line|-line)?\b|@ts-(?:ignore|expect-error|nocheck)\b|(?:istanbul|c8|v8)\s+ignore\b|biome-ignore\b|oxlint-disable(?:-next-line|-line)?\b|jshint\s+ignore\b)`),
	langPython: lazy(`#\s*(?:noqa\b|type:\s*ignore\b|pylint:\s*disable\b|pragma:\s*no\s*(?:cover|branch)\b|nosec\b|pyright:\s*(?:ignore|basic)\b|mypy:\s*(?:ignore-errors|disable-error-code)\b|ruff:\s*noqa\b|pyre-(?:ignore|fixme)\b)`),
	langRust:   lazy(`#!?\[\s*(?:allow|expect)\s*\(|#!?\[\s*cfg_attr\s*\(.*\ballow\s*\(|#!?\[\s*coverage\s*\(\s*off\s*\)`),
}

// checkSuppressions reports suppressions the change adds to the project's own code. One the
// change removes elsewhere (the same directive, moved with its code) is not new.
func (j *judge) checkSuppressions() {
	moved, hits := markerChanges(j.files, suppressionMarkers, ours)
	var narrowed []markerHit
	for _, h := range hits {
		if !moved.take(h.key) {
			narrowed = append(narrowed, h)
		}
	}
	// Exact pairs first, so that a narrowed one cannot take the removal an unchanged one moved.
	for _, h := range narrowed {
		if !j.narrowedInPlace(h, moved) {
			j.add(gates.RuleSuppressionAdded, h.file, h.line, "suppression added: %s", excerpt(h.key))
		}
	}
}

// suppressionList reads a directive that names what it suppresses as a list: nolint:a,b;
// eslint-disable[-next-line|-line] a, b; noqa: A,B. Its kind, and the names (none: everything).
var suppressionList = lazy(`^(nolint|eslint-disable(?:-next-line|-line)?|noqa)(?:(?::\s*|\s+)([\w/@.-]+(?:\s*,\s*[\w/@.-]+)*))?(?:\s*(?://|--|#|\*/).*)?\s*$`)

// narrowedInPlace says whether the added suppression h narrows one its own file lost (a linter
// dropped from a nolint list), and uses that removal up: the same kind, suppressing at least what
// h does. A suppression removed in another file excuses only its exact copy (moved code).
func (j *judge) narrowedInPlace(h markerHit, moved tally) bool {
	kind, names, ok := listedSuppression(h.key)
	if !ok || len(names) == 0 {
		return false // everything: no removed one was wider
	}
	for _, f := range j.files {
		if f.Path != h.file || suppressionMarkers[langOf(f.Path)] == nil {
			continue
		}
		for _, l := range f.Removed {
			for _, k := range markerKeys(suppressionMarkers[langOf(f.Path)].get(), l.Text, langOf(f.Path)) {
				rkind, rnames, ok := listedSuppression(k)
				if moved[k] > 0 && ok && rkind == kind && (len(rnames) == 0 || isSubset(names, rnames)) {
					moved[k]--
					return true
				}
			}
		}
	}
	return false
}

// listedSuppression is a suppression's kind and the names it lists; false when it is not one of
// the list forms suppressionList reads.
func listedSuppression(key string) (kind string, names []string, ok bool) {
	m := suppressionList.get().FindStringSubmatch(strings.TrimLeft(key, "/#* "))
	if m == nil {
		return "", nil, false
	}
	for n := range strings.SplitSeq(m[2], ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, strings.ToLower(n))
		}
	}
	return m[1], names, true
}

func isSubset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// ours says whether a path is the project's own code, not vendored or generated.
func ours(p string) bool { return !notOurs(p) }
