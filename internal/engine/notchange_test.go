package engine

import (
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

// A tree that differs from its commit only by the files the caller wrote itself (init's config
// before its first run) is the commit's; any other file makes it a change.
func TestOnlyAmong(t *testing.T) {
	wrote := []string{".gauntlet.yml", ".gitignore"}
	files := func(paths ...string) []*snapshot.File {
		var out []*snapshot.File
		for _, p := range paths {
			out = append(out, &snapshot.File{Path: p, Untracked: true})
		}
		return out
	}
	for _, c := range []struct {
		files []*snapshot.File
		want  bool
	}{
		{nil, true},
		{files(".gauntlet.yml", ".gitignore"), true},
		{files(".gauntlet.yml", "p.go"), false},
		{files("p.go"), false},
	} {
		if got := onlyAmong(c.files, wrote); got != c.want {
			t.Errorf("onlyAmong(%d files) = %v, want %v", len(c.files), got, c.want)
		}
		if got := onlyAmong(c.files, nil); got != (len(c.files) == 0) {
			t.Errorf("onlyAmong(%d files, none written) = %v", len(c.files), got)
		}
	}
}

// A commit of what init wrote (config, ignore files, a hook file) leaves the tests as they were;
// a commit that also touches anything else, or nothing at all, does not count as one.
func TestOnlySetupFiles(t *testing.T) {
	for _, c := range []struct {
		files []string
		want  bool
	}{
		{[]string{".gauntlet.yml", ".gitignore"}, true},
		{[]string{".gauntlet.yml", ".claude/settings.json"}, true},
		{[]string{".gauntlet.yml", "p.go"}, false},
		{[]string{"sub/.gitignore"}, false},
		{nil, false},
	} {
		if got := onlySetupFiles(c.files); got != c.want {
			t.Errorf("onlySetupFiles(%q) = %v, want %v", c.files, got, c.want)
		}
	}
}

func TestPackageOf(t *testing.T) {
	for _, tc := range []struct{ moduleDir, dir, want string }{
		{".", ".", "example.com/m"},
		{".", "sub/x", "example.com/m/sub/x"},
		{"go", "go", "example.com/m"},
		{"go", "go/sub", "example.com/m/sub"},
		{"go", "web", ""},
	} {
		got, ok := packageOf("example.com/m", tc.moduleDir, tc.dir)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("packageOf(%q, %q) = %q, %v; want %q", tc.moduleDir, tc.dir, got, ok, tc.want)
		}
	}
}
