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
	pool := map[string]int{}
	type hit struct {
		key, file string
		line      int
		text      string
	}
	var hits []hit
	for _, f := range j.files {
		l := langOf(f.Path)
		re := suppressionMarkers[l]
		if re == nil {
			continue
		}
		if !notOurs(cmpOr(f.OldPath, f.Path)) {
			for _, line := range f.Removed {
				for _, k := range markerKeys(re.get(), line.Text, l) {
					pool[k]++
				}
			}
		}
		if f.Deleted || notOurs(f.Path) {
			continue
		}
		for _, line := range f.Added {
			for _, k := range markerKeys(re.get(), line.Text, l) {
				hits = append(hits, hit{k, f.Path, line.N, line.Text})
			}
		}
	}
	for _, h := range hits {
		if pool[h.key] > 0 {
			pool[h.key]--
			continue
		}
		j.add(gates.RuleSuppressionAdded, h.file, h.line, "suppression added: %s", excerpt(h.key))
	}
}
