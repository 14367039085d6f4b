package engine

import (
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	goPaths := []string{"**/*.go", "go.mod", "go.sum"}
	tests := []struct {
		name       string
		paths      []string
		exclude    []string
		files      []string
		want       bool
		wantReason string
	}{
		{"no paths always runs", nil, nil, nil, true, "no paths filter"},
		{"root file matches **", goPaths, nil, []string{"main.go"}, true, `"main.go" matches "**/*.go"`},
		{"nested file matches **", goPaths, nil, []string{"README.md", "internal/deep/x.go"}, true, `"internal/deep/x.go" matches "**/*.go"`},
		{"exact name at root only", goPaths, nil, []string{"sub/go.mod"}, false, "no changed file matches paths"},
		{"exact name at root", goPaths, nil, []string{"go.mod"}, true, `"go.mod" matches "go.mod"`},
		{"nothing changed", goPaths, nil, nil, false, "no changed files"},
		{"excluded file does not count", goPaths, []string{"**/testdata/**"}, []string{"pkg/testdata/x.go"}, false, "no changed file matches paths"},
		{"another file still counts", goPaths, []string{"**/testdata/**"}, []string{"pkg/testdata/x.go", "pkg/y.go"}, true, `"pkg/y.go" matches "**/*.go"`},
		{"directory glob", []string{"docs/**"}, nil, []string{"docs/a/b.md"}, true, `"docs/a/b.md" matches "docs/**"`},
		{"brace alternatives", []string{"**/*.{ts,tsx}"}, nil, []string{"web/app.tsx"}, true, `"web/app.tsx" matches "**/*.{ts,tsx}"`},
		{"single star stays in one directory", []string{"cmd/*.go"}, nil, []string{"cmd/sub/x.go"}, false, "no changed file matches paths"},
		{"invalid pattern runs the gate", []string{"[unclosed"}, nil, []string{"a.go"}, true, "invalid pattern"},
		{"invalid exclude runs the gate", goPaths, []string{"{x"}, nil, true, "invalid pattern"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, reason := matchPaths(tt.paths, tt.exclude, tt.files)
			if got != tt.want || !strings.Contains(reason, tt.wantReason) {
				t.Errorf("Match = %v, %q; want %v, %q", got, reason, tt.want, tt.wantReason)
			}
		})
	}
}
