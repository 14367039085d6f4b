package scaffold

import (
	"slices"
	"testing"
)

// The usual forms of a pre-commit files: pattern read as globs; the others not at all.
func TestHookFiles(t *testing.T) {
	for _, tt := range []struct {
		pattern     string
		globs, dirs []string
	}{
		{`^src/`, []string{"src/**"}, []string{"src"}},
		{`^src/.*`, []string{"src/**"}, []string{"src"}},
		{`^(src|tests)/`, []string{"src/**", "tests/**"}, []string{"src", "tests"}},
		{`^(src|tests)/.*\.py$`, []string{"src/**/*.py", "tests/**/*.py"}, []string{"src", "tests"}},
		{`^(src/|testing/)`, []string{"src/**", "testing/**"}, []string{"src", "testing"}},
		{`^(src/|tests/).*\.py$`, []string{"src/**/*.py", "tests/**/*.py"}, []string{"src", "tests"}},
		{`^(src/|tests)`, nil, nil},
		{`^src/pkg/.*\.(py|pyi)$`, []string{"src/pkg/**/*.py", "src/pkg/**/*.pyi"}, []string{"src/pkg"}},
		{`\.md$`, []string{"**/*.md"}, nil},
		{`^.*\.(md|rst)$`, []string{"**/*.md", "**/*.rst"}, nil},
		{``, nil, nil},
		{`^src/(?!generated/)`, nil, nil},
		{`^src/[a-z]+\.py$`, nil, nil},
		{`(?x)^(src/|tests/)`, nil, nil},
		// A folder whose name has an escaped dot (a hidden folder, a versioned one).
		{`^(files/vendor/|\.github/)`, []string{"files/vendor/**", ".github/**"}, []string{"files/vendor", ".github"}},
		{`^docs/v1\.2/`, []string{"docs/v1.2/**"}, []string{"docs/v1.2"}},
	} {
		globs, dirs := hookFiles(tt.pattern)
		if !slices.Equal(globs, tt.globs) || !slices.Equal(dirs, tt.dirs) {
			t.Errorf("%q: globs %q, dirs %q; want %q, %q", tt.pattern, globs, dirs, tt.globs, tt.dirs)
		}
	}
}
