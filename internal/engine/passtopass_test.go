package engine

import (
	"slices"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

func TestEmptiedDirsAreThoseWithNothingLeftInTheChange(t *testing.T) {
	ch := &snapshot.Change{Files: []*snapshot.File{
		{Path: "old/a_test.go", Status: snapshot.Deleted},
		{Path: "old/a.go", Status: snapshot.Deleted},
		{Path: "lib/b_test.go", Status: snapshot.Deleted},
		{Path: "lib/b.go", Status: snapshot.Modified},
		{Path: "moved/c_test.go", Status: snapshot.Deleted, RenamedTo: "elsewhere/c_test.go"},
	}}
	if got := emptiedDirs(ch); !slices.Equal(got, []string{"old"}) {
		t.Errorf("emptiedDirs = %q, want [old]: lib keeps a file, moved/ was renamed away", got)
	}
}

// Go coverage varies from run to run (a goroutine's error branch, a log line under load): a line
// counts as covered at the base only in the packages the change touched, where what it did can
// explain the loss. Other languages' tests live apart from the code they cover, and are compared
// everywhere.
func TestCoverageIsComparedInGoPackagesTheChangeTouched(t *testing.T) {
	ch := &snapshot.Change{Files: []*snapshot.File{
		{Path: "cart/cart_test.go", Status: snapshot.Modified},
		{Path: "old/gone.go", Status: snapshot.Deleted},
		{Path: "root_test.go", Status: snapshot.Added},
		{Path: "test/a.test.ts", Status: snapshot.Modified},
	}}
	untouched := untouchedLines(ch)
	for _, tt := range []struct {
		file string
		want bool
	}{
		{"cart/cart.go", true},     // its package's test changed
		{"old/other.go", true},     // a file of its package deleted
		{"main.go", true},          // the root package touched
		{"server/serve.go", false}, // a package the change never touched
		{"src/lib.ts", true},       // not Go: compared everywhere
	} {
		if _, ok := untouched(tt.file, 3); ok != tt.want {
			t.Errorf("%s compared: %v, want %v", tt.file, ok, tt.want)
		}
	}
}
