package config

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Problem is one thing wrong with a config file, at the place a user would fix it.
type Problem struct {
	File string // as it should be displayed: relative to the working directory when inside it
	Line int
	Col  int
	Msg  string
}

func (p Problem) String() string {
	if p.Line == 0 {
		return p.File + ": " + p.Msg // about the file as a whole
	}
	return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Col, p.Msg)
}

// Errors is every problem found while loading, so that a user can fix them all in one pass.
type Errors struct {
	Problems []Problem
}

// Error prints one "FILE:LINE:COL: message" line per problem.
func (e *Errors) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// sortProblems orders by place; the sort is stable so that two problems at one spot keep the
// order in which they were found.
func sortProblems(ps []Problem) {
	slices.SortStableFunc(ps, func(a, b Problem) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
}

// DisplayPath shows a file relative to the working directory when it is inside it, the way
// compilers do, so that `.gauntlet.yml:4:3` is clickable from the repository root.
func DisplayPath(abs string) string {
	wd, err := os.Getwd()
	if err != nil {
		return abs
	}
	rel, err := filepath.Rel(wd, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return abs
	}
	return rel
}
