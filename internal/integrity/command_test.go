package integrity

import (
	"slices"
	"testing"
)

// A shell command that gets around the hooks or hides a change is found; its honest twin, the
// same git command without the bypass, is not.
func TestDetectCommand(t *testing.T) {
	cases := []struct {
		line string
		want []string // rule ids
	}{
		{`git commit --no-verify -m "wip"`, []string{"hook-weakened"}},
		{`git commit -n -m wip`, []string{"hook-weakened"}},
		{`git add -A && git commit -anm wip`, []string{"hook-weakened"}},
		{`git push --no-verify origin main`, []string{"hook-weakened"}},
		{`HUSKY=0 git commit -m wip`, []string{"hook-weakened"}},
		{`SKIP=golangci-lint git commit -m wip`, []string{"hook-weakened"}},
		{`git -c core.hooksPath=/dev/null commit -m wip`, []string{"hook-weakened"}},
		{`git config core.hooksPath /tmp/none`, []string{"hook-weakened"}},
		{`git config --unset core.hooksPath`, []string{"hook-weakened"}},
		{`git update-index --assume-unchanged lib_test.go`, []string{"change-hidden"}},
		{`cd sub; /usr/bin/git update-index --skip-worktree a.go`, []string{"change-hidden"}},

		// The honest twins.
		{`git commit -m "fix the parser"`, nil},
		{`git commit -m "-n is not a flag here"`, nil},
		{`git commit -mn`, nil},
		{`git push origin main`, nil},
		{`git config core.hooksPath`, nil},
		{`git config --get core.hooksPath`, nil},
		{`HUSKY=1 git commit -m wip`, nil},
		{`git update-index --really-refresh`, nil},
		{`echo "git commit --no-verify"`, nil},
		{`go test ./... -run TestParse`, nil},
		{`git stash && go test ./... && git stash pop`, nil},
	}
	for _, tc := range cases {
		var got []string
		for _, f := range DetectCommand(tc.line) {
			if f.File != CommandPlace || f.Message == "" {
				t.Errorf("%q: finding %+v", tc.line, f)
			}
			got = append(got, f.Rule)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: rules %q, want %q", tc.line, got, tc.want)
		}
	}
}

// The one-file change in memory is what git would diff: only the lines the edit touches, and
// a removed test found as the stop finds it.
func TestOneFile(t *testing.T) {
	old := "package p\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif 1 != 1 {\n\t\tt.Fatal(\"x\")\n\t}\n}\n\nfunc TestB(t *testing.T) {}\n"
	removed := "package p\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) {}\n"
	got := render(Detect(OneFile("p_test.go", []byte(old), true, []byte(removed)), Inputs{ConfigFile: ".gauntlet.yml"}))
	if !slices.Contains(got, "test-removed p_test.go:5") {
		t.Errorf("removing TestA: %q", got)
	}
	added := old + "\nfunc TestC(t *testing.T) {}\n"
	if got := Detect(OneFile("p_test.go", []byte(old), true, []byte(added)), Inputs{}); len(got) != 0 {
		t.Errorf("adding a test: %s", renderMessages(got))
	}
	if files := OneFile("p_test.go", []byte(old), true, []byte(old)).Files(); len(files) != 0 {
		t.Errorf("no edit: %+v", files)
	}
	a, r := DiffLines([]string{"a", "b", "c", "d"}, []string{"a", "x", "c", "d", "e"})
	if len(a) != 2 || a[0] != (Line{N: 2, Text: "x"}) || a[1] != (Line{N: 5, Text: "e"}) || len(r) != 1 || r[0] != (Line{N: 2, At: 2, Text: "b"}) {
		t.Errorf("DiffLines: added %+v, removed %+v", a, r)
	}
}
