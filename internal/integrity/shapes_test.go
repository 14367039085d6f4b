package integrity

import (
	"runtime"
	"testing"
)

// elsewhere is an operating system the tests do not run on: a constraint naming it excludes a
// file here, wherever "here" is.
var elsewhere = map[bool]string{true: "linux", false: "windows"}[runtime.GOOS == "windows"]

// Go files the go tool stops building where the gates run: their tests stop running.
func TestGoFilesThatStopBuilding(t *testing.T) {
	constrained := func(line string) map[string]string {
		return map[string]string{"x_test.go": line + "\n\n" + goTest}
	}
	runCases(t, []detectCase{
		{name: "go:build ignore added to a test file", old: map[string]string{"x_test.go": goTest}, new: constrained("//go:build ignore"),
			want: []string{"test-skipped x_test.go:1"}},
		{name: "go:build never added", old: map[string]string{"x_test.go": goTest}, new: constrained("//go:build never"),
			want: []string{"test-skipped x_test.go:1"}},
		{name: "+build ignore added", old: map[string]string{"x_test.go": goTest}, new: constrained("// +build ignore"),
			want: []string{"test-skipped x_test.go:1"}},
		{name: "a constraint excluding this platform", old: map[string]string{"x_test.go": goTest}, new: constrained("//go:build " + elsewhere),
			want: []string{"test-skipped x_test.go:1"}},
		{name: "a tag no gate passes", old: map[string]string{"x_test.go": goTest}, new: constrained("//go:build integration"),
			want: []string{"test-skipped x_test.go:1"}},
		// Twins: the file still builds where the gates run.
		{name: "a tag a gate passes", old: map[string]string{"x_test.go": goTest}, new: constrained("//go:build integration"),
			commands: []string{"go test -tags=integration,slow ./..."}},
		{name: "narrowed to this platform: it still runs here", old: map[string]string{"x_test.go": goTest}, new: constrained("//go:build " + runtime.GOOS)},
		{name: "a new test file behind a tag weakens no test", old: map[string]string{}, new: map[string]string{"it_test.go": "//go:build integration\n\n" + goTest}},
		{name: "a file excluded at the base stays excluded", old: constrained("//go:build ignore"), new: constrained("//go:build ignore && never")},
		{name: "constraint removed", old: constrained("//go:build ignore"), new: map[string]string{"x_test.go": goTest}},
		{name: "renamed for another platform", old: map[string]string{"x_test.go": goTest},
			new: map[string]string{"x_" + elsewhere + "_test.go": goTest}, renames: map[string]string{"x_test.go": "x_" + elsewhere + "_test.go"},
			want: []string{"test-file-removed x_" + elsewhere + "_test.go:0"}},
		{name: "renamed for this platform", old: map[string]string{"x_test.go": goTest},
			new: map[string]string{"x_" + runtime.GOOS + "_test.go": goTest}, renames: map[string]string{"x_test.go": "x_" + runtime.GOOS + "_test.go"}},
		{name: "tests moved by hand into an ignored file", old: map[string]string{"x_test.go": goTest},
			new:  map[string]string{"y_test.go": "//go:build ignore\n\n" + goTest},
			want: []string{"test-file-removed x_test.go:0"}},
	})
}

// Go skips the directories whose name starts with _ or . and testdata: a test file moved there
// stops running.
func TestGoTestFilesMovedWhereGoDoesNotLook(t *testing.T) {
	moved := func(to string) detectCase {
		return detectCase{name: "moved to " + to, old: map[string]string{"x_test.go": goTest}, new: map[string]string{to: goTest},
			renames: map[string]string{"x_test.go": to}, want: []string{"test-file-removed " + to + ":0"}}
	}
	byHand := func(to string) detectCase {
		return detectCase{name: "moved by hand to " + to, old: map[string]string{"x_test.go": goTest}, new: map[string]string{to: goTest + "\n// moved\n"},
			want: []string{"test-file-removed x_test.go:0"}}
	}
	runCases(t, []detectCase{
		moved("_attic/x_test.go"), moved("pkg/.old/x_test.go"), moved("testdata/x_test.go"),
		byHand("_attic/x_test.go"), byHand("testdata/x_test.go"),
		{name: "moved to another package directory", old: map[string]string{"x_test.go": goTest}, new: map[string]string{"pkg/other/x_test.go": goTest},
			renames: map[string]string{"x_test.go": "pkg/other/x_test.go"}},
		{name: "a directory whose name only contains an underscore", old: map[string]string{"x_test.go": goTest}, new: map[string]string{"my_pkg/x_test.go": goTest},
			renames: map[string]string{"x_test.go": "my_pkg/x_test.go"}},
	})
}
