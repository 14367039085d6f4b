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
