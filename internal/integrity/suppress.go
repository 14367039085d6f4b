package integrity

import (
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
	for _, h := range hits {
		if !moved.take(h.key) {
			j.add(gates.RuleSuppressionAdded, h.file, h.line, "suppression added: %s", excerpt(h.key))
		}
	}
}

// ours says whether a path is the project's own code, not vendored or generated.
func ours(p string) bool { return !notOurs(p) }
