package engine

import (
	"fmt"

	"github.com/bmatcuk/doublestar/v4"
)

// matchPaths decides whether a gate scoped by paths (and exclude) runs for the changed files, and says
// why in a few words for reports. No paths means the gate is not scoped. An invalid pattern makes
// the gate run: skipping a quality gate by accident is worse than running it once too often.
func matchPaths(paths, exclude []string, files []string) (bool, string) {
	if len(paths) == 0 {
		return true, "no paths filter"
	}
	for _, patterns := range [][]string{paths, exclude} {
		for _, p := range patterns {
			if !doublestar.ValidatePattern(p) {
				return true, fmt.Sprintf("invalid pattern %q; running", p)
			}
		}
	}
	if len(files) == 0 {
		return false, "no changed files"
	}
	for _, f := range files {
		if matchesAny(exclude, f) != "" {
			continue
		}
		if p := matchesAny(paths, f); p != "" {
			return true, fmt.Sprintf("%q matches %q", f, p)
		}
	}
	return false, "no changed file matches paths"
}

// matchesAny returns the first pattern that matches name, or "".
func matchesAny(patterns []string, name string) string {
	for _, p := range patterns {
		if ok, _ := doublestar.Match(p, name); ok {
			return p
		}
	}
	return ""
}
