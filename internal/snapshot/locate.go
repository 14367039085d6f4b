package snapshot

import (
	"path"
	"path/filepath"
	"strings"
)

// Locate finds a reported place among the added lines, forgiving the usual ways a tool or a
// reviewer spells a path: "./x.go", "b/x.go", or absolute under the project root. It returns the
// root-relative path when line is one the change adds. Review gates (a reviewer's findings) and
// check gates with new_only (a parser's findings) both decide "did the change do this" here, so
// the two can never disagree about it.
func (a AddedLines) Locate(file string, line int, root string) (string, bool) {
	if line <= 0 {
		return "", false
	}
	for _, c := range pathCandidates(file, root) {
		if a.Has(c, line) {
			return c, true
		}
	}
	return "", false
}

// TouchesFile reports whether the change adds any line to file (spelled as Locate accepts it):
// how a finding about a whole file (a gofmt list) is attributed.
func (a AddedLines) TouchesFile(file, root string) bool {
	for _, c := range pathCandidates(file, root) {
		if len(a[c]) > 0 {
			return true
		}
	}
	return false
}

func pathCandidates(file, root string) []string {
	file = strings.TrimSpace(filepath.ToSlash(file))
	if file == "" {
		return nil
	}
	if path.IsAbs(file) && root != "" {
		file = relativeIfInside(root, file)
	}
	file = path.Clean(file)
	candidates := []string{file}
	if len(file) > 2 && (file[:2] == "a/" || file[:2] == "b/") {
		candidates = append(candidates, file[2:])
	}
	return candidates
}

// relativeIfInside is file relative to root when it is inside it, else file as it is.
func relativeIfInside(root, file string) string {
	if rel, err := filepath.Rel(root, filepath.FromSlash(file)); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return file
}
