package config

import (
	"slices"
	"strings"
)

// filesPlaceholder is internal/filesarg's: config must not import the engine's packages.
const filesPlaceholder = "{files}"

// filesProblem says what is wrong with where a command names {files}, "" when nothing is: gauntlet
// puts each file there as one quoted word of the shell, so {files} must be a word of its own, not
// inside quotes or glued to other text; in an argv, an element of its own.
func filesProblem(run *string, argv []string) string {
	if argv != nil {
		for _, a := range argv {
			if a != filesPlaceholder && strings.Contains(a, filesPlaceholder) {
				return "{files} must be an argv element of its own (each file becomes one element), not part of " + quoteText(a)
			}
		}
		return ""
	}
	if run == nil {
		return ""
	}
	s := *run
	for i := strings.Index(s, filesPlaceholder); i >= 0; {
		end := i + len(filesPlaceholder)
		if !wordEdge(s, i-1) || !wordEdge(s, end) {
			return "{files} must stand as a word of its own in run: (gauntlet quotes each file for the shell), not inside quotes or joined to other text"
		}
		next := strings.Index(s[end:], filesPlaceholder)
		if next < 0 {
			break
		}
		i = end + next
	}
	return ""
}

// wordEdge says the byte at i of s ends a shell word: the string's edge, a blank, or an operator.
func wordEdge(s string, i int) bool {
	return i < 0 || i >= len(s) || strings.IndexByte(" \t\n;&|()<>", s[i]) >= 0
}

func quoteText(s string) string { return `"` + s + `"` }

// usesFiles says whether a setup step's command names {files}, which only gates can: a step runs
// once for all the gates that need it.
func usesFiles(run *string, argv []string) bool {
	return run != nil && strings.Contains(*run, filesPlaceholder) || slices.ContainsFunc(argv, func(a string) bool {
		return strings.Contains(a, filesPlaceholder)
	})
}

// commandKey names the key a command was given in: argv when it is a list, else run.
func commandKey(argv []string) string {
	if argv != nil {
		return "argv"
	}
	return "run"
}
