package engine

import (
	"slices"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/census"
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
	untouched := untouchedLines(ch, nil)
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

// A change to a Go function's code that stops it reaching its own later lines (a branch that
// now returns first) is the change's doing: the lines of a function the change edited are not
// compared. The function's neighbours are.
func TestCoverageSkipsTheGoFunctionsTheChangeEdited(t *testing.T) {
	src := "package mux\n\nfunc Match() bool {\n\tif a {\n\t\treturn b\n\t}\n\tif c {\n\t\td()\n\t}\n\treturn true\n}\n\nfunc Other() {\n\te()\n}\n"
	ch := &snapshot.Change{Files: []*snapshot.File{{Path: "route.go", Status: snapshot.Modified,
		Hunks: []snapshot.Hunk{{OldStart: 4, OldLines: 0, NewStart: 5, NewLines: 1, Lines: []snapshot.Line{{Kind: snapshot.Add, New: 5, Text: "\t\treturn b"}}}}}}}
	untouched := untouchedLines(ch, map[string][]byte{"route.go": []byte(src)})
	if _, ok := untouched("route.go", 8); ok {
		t.Error("a line of the edited function Match is compared")
	}
	if _, ok := untouched("route.go", 14); !ok {
		t.Error("a line of the untouched function Other is not compared")
	}
}

// A removal inside a function (its early return deleted) edits it too.
func TestCoverageSkipsAGoFunctionALineWasRemovedFrom(t *testing.T) {
	src := "package mux\n\nfunc Match() bool {\n\tif c {\n\t\td()\n\t}\n\treturn true\n}\n\nfunc Other() {\n\te()\n}\n"
	ch := &snapshot.Change{Files: []*snapshot.File{{Path: "route.go", Status: snapshot.Modified,
		Hunks: []snapshot.Hunk{{OldStart: 3, OldLines: 3, NewStart: 3, NewLines: 2, Lines: []snapshot.Line{
			{Kind: snapshot.Context, Old: 3, New: 3, Text: "func Match() bool {"},
			{Kind: snapshot.Remove, Old: 4, Text: "\treturn false"},
			{Kind: snapshot.Context, Old: 5, New: 4, Text: "\tif c {"}}}}}}}
	untouched := untouchedLines(ch, map[string][]byte{"route.go": []byte(src)})
	if _, ok := untouched("route.go", 5); ok {
		t.Error("a line of Match, which lost a line, is compared")
	}
	if _, ok := untouched("route.go", 11); !ok {
		t.Error("a line of the untouched function Other is not compared")
	}
}

// A benchmark deleted is neither a test file nor code a test is named after: its stem
// ("hookable") must not excuse the tests named after it.
func TestClassifyFilesLeavesBenchmarksOut(t *testing.T) {
	info := &census.ChangeInfo{RenamedTests: map[string]string{}}
	classifyFiles(info, &snapshot.Change{Files: []*snapshot.File{
		{Path: "test/hookable.bench.ts", Status: snapshot.Deleted},
		{Path: "src/old.ts", Status: snapshot.Deleted},
		{Path: "test/old.test.ts", Status: snapshot.Deleted},
	}})
	if !slices.Equal(info.DeletedCode, []string{"src/old.ts"}) || !slices.Equal(info.DeletedTests, []string{"test/old.test.ts"}) {
		t.Errorf("code %q, tests %q", info.DeletedCode, info.DeletedTests)
	}
}

// Uncovered lines are those the change added or edited, nothing more: a Go package the change
// never touched (the change is a hook file elsewhere) has none, and neither have the lines of an
// edited function that the change left as they were. Coverage's comparison with the base is
// narrower (above); the change's own lines are not.
func TestLinesTheChangeAddedAreOnlyItsOwn(t *testing.T) {
	ch := &snapshot.Change{Files: []*snapshot.File{
		{Path: ".claude/settings.local.json", Status: snapshot.Added},
		{Path: "route.go", Status: snapshot.Modified,
			Hunks: []snapshot.Hunk{{OldStart: 4, OldLines: 0, NewStart: 5, NewLines: 1, Lines: []snapshot.Line{{Kind: snapshot.Add, New: 5, Text: "\t\treturn b"}}}}},
	}}
	unchanged := unchangedLines(ch)
	for _, tt := range []struct {
		file string
		line int
		want bool
	}{
		{"demo.go", 14, true},        // a package the change never touched
		{"server/serve.go", 3, true}, // likewise
		{"route.go", 8, true},        // in the edited function, but not a line the change wrote
		{"route.go", 5, false},       // the line it added
	} {
		if _, ok := unchanged(tt.file, tt.line); ok != tt.want {
			t.Errorf("%s:%d left as it was: %v, want %v", tt.file, tt.line, ok, tt.want)
		}
	}
}
