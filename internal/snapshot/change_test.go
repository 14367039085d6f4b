package snapshot

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestParseAdded(t *testing.T) {
	tests := []struct {
		name  string
		patch string
		want  map[string][]int
	}{
		{
			name: "context, removals and additions",
			patch: "diff --git a/f.go b/f.go\n--- a/f.go\n+++ b/f.go\n@@ -10,4 +10,5 @@ func x() {\n" +
				" ctx\n-old\n+new1\n+new2\n ctx\n\n",
			want: map[string][]int{"f.go": {11, 12}},
		},
		{
			name: "an added line starting with +++ is not a header",
			patch: "diff --git a/f.txt b/f.txt\n--- a/f.txt\n+++ b/f.txt\n@@ -1 +1,2 @@\n a\n+++ not a header\n" +
				"diff --git a/g.txt b/g.txt\n--- a/g.txt\n+++ b/g.txt\n@@ -3,0 +4 @@\n+g\n",
			want: map[string][]int{"f.txt": {2}, "g.txt": {4}},
		},
		{
			name:  "new file without trailing newline",
			patch: "diff --git a/n b/n\nnew file mode 100644\n--- /dev/null\n+++ b/n\n@@ -0,0 +1,2 @@\n+a\n+b\n\\ No newline at end of file\n",
			want:  map[string][]int{"n": {1, 2}},
		},
		{
			name:  "deleted file adds nothing",
			patch: "diff --git a/d b/d\ndeleted file mode 100644\n--- a/d\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n",
			want:  map[string][]int{},
		},
		{
			name:  "quoted and spaced names",
			patch: "diff --git \"a/t\\tab\" \"b/t\\tab\"\n--- \"a/t\\tab\"\n+++ \"b/t\\tab\"\n@@ -0,0 +1 @@\n+x\ndiff --git a/s p b/s p\n--- a/s p\t\n+++ b/s p\t\n@@ -1,0 +2 @@\n+y\n",
			want:  map[string][]int{"t\tab": {1}, "s p": {2}},
		},
		{
			name:  "patch cut inside a hunk",
			patch: "diff --git a/c b/c\n--- a/c\n+++ b/c\n@@ -1,2 +1,40 @@\n a\n+b\n+c\n",
			want:  map[string][]int{"c": {2, 3}},
		},
		{
			name:  "several hunks",
			patch: "diff --git a/m b/m\n--- a/m\n+++ b/m\n@@ -1,2 +1,2 @@\n-a\n+A\n b\n@@ -20 +20,2 @@\n x\n+y\n",
			want:  map[string][]int{"m": {1, 21}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseAdded([]byte(tt.patch))
			gotLines := map[string][]int{}
			for file, lines := range got {
				gotLines[file] = slices.Sorted(maps.Keys(lines))
			}
			if !maps.EqualFunc(gotLines, tt.want, slices.Equal) {
				t.Errorf("ParseAdded = %v, want %v", gotLines, tt.want)
			}
		})
	}
}

func TestHeaderPath(t *testing.T) {
	tests := []struct {
		line, want string
		ok         bool
	}{
		{"diff --git a/x.go b/x.go", "x.go", true},
		{"diff --git a/a b/c b/a b/c", "a b/c", true},
		{"diff --git a/dir/ b/x b/dir/ b/x", "dir/ b/x", true},
		{`diff --git "a/q\"uote" "b/q\"uote"`, `q"uote`, true},
		{`diff --git "a/caf\303\251" "b/caf\303\251"`, "café", true},
		{"diff --git a/x b/y", "", false},
		{"diff --git garbage", "", false},
	}
	for _, tt := range tests {
		got, ok := headerPath(tt.line)
		if got != tt.want || ok != tt.ok {
			t.Errorf("headerPath(%q) = %q, %v; want %q, %v", tt.line, got, ok, tt.want, tt.ok)
		}
	}
}

func TestQuotePathRoundTrips(t *testing.T) {
	for _, p := range []string{"plain.go", "with space", "tab\there", `back\slash`, `"quoted"`, "bell\a", "ünï"} {
		header := "diff --git " + quotePath("a/"+p) + " " + quotePath("b/"+p)
		if got, ok := headerPath(header); !ok || got != p {
			t.Errorf("%q: header %q reads back as %q, %v", p, header, got, ok)
		}
	}
}

func TestParsePatchModel(t *testing.T) {
	patch := "diff --git a/m.go b/m.go\nindex 1..2 100644\n--- a/m.go\n+++ b/m.go\n@@ -1,3 +1,3 @@ func f() {\n a\n-b\n+B\n c\n" +
		"diff --git a/old.txt b/old.txt\ndeleted file mode 100644\nindex 3..0\n--- a/old.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x\n-y\n" +
		"diff --git a/moved.txt b/moved.txt\nnew file mode 100644\nindex 0..3\n--- /dev/null\n+++ b/moved.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n" +
		"diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n" +
		"diff --git a/img.png b/img.png\nnew file mode 100644\nindex 0..4\nBinary files /dev/null and b/img.png differ\n" +
		"diff --git a/end b/end\nnew file mode 100644\n--- /dev/null\n+++ b/end\n@@ -0,0 +1 @@\n+last\n\\ No newline at end of file\n"
	c := ParsePatch([]byte(patch))
	if len(c.Files) != 6 {
		t.Fatalf("%d files, want 6: %+v", len(c.Files), c.Files)
	}
	m := c.File("m.go")
	if m == nil || m.Status != Modified || len(m.Hunks) != 1 {
		t.Fatalf("m.go = %+v", m)
	}
	h := m.Hunks[0]
	if h.OldStart != 1 || h.OldLines != 3 || h.NewStart != 1 || h.NewLines != 3 || h.Header != "func f() {" {
		t.Errorf("hunk header = %+v", h)
	}
	wantLines := []Line{{Context, 1, 1, "a", false}, {Remove, 2, 0, "b", false}, {Add, 0, 2, "B", false}, {Context, 3, 3, "c", false}}
	if !slices.Equal(h.Lines, wantLines) {
		t.Errorf("lines = %+v, want %+v", h.Lines, wantLines)
	}
	old, moved := c.File("old.txt"), c.File("moved.txt")
	if old.Status != Deleted || old.OldMode != "100644" || moved.Status != Added || moved.NewMode != "100644" {
		t.Errorf("old = %+v, moved = %+v", old, moved)
	}
	if moved.RenamedFrom != "old.txt" || old.RenamedTo != "moved.txt" {
		t.Errorf("same content deleted and added is a rename: from %q, to %q", moved.RenamedFrom, old.RenamedTo)
	}
	if r := c.File("run.sh"); r.Status != Modified || r.OldMode != "100644" || r.NewMode != "100755" || len(r.Hunks) != 0 {
		t.Errorf("run.sh = %+v", r)
	}
	if img := c.File("img.png"); !img.Binary || img.Status != Added || img.RenamedFrom != "" {
		t.Errorf("img.png = %+v", img)
	}
	if end := c.File("end"); len(end.Hunks) != 1 || !end.Hunks[0].Lines[0].NoNewline {
		t.Errorf("end = %+v", end)
	}
	added := c.Added()
	if !added.Has("m.go", 2) || added.Has("m.go", 1) || !added.Has("moved.txt", 2) || added.Has("old.txt", 1) {
		t.Errorf("Added = %v", added)
	}
}

// The model of a real change: committed, staged, unstaged and untracked files, from one diff.
func TestChangeOfARepository(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, "kept.txt", "1\n2\n3\n")
	write(t, dir, "gone.txt", "bye\n")
	commitAll(t, dir, "init")
	run(t, dir, "git", "switch", "-q", "-c", "feature")
	write(t, dir, "kept.txt", "1\ntwo\n3\n")
	commitAll(t, dir, "edit")
	run(t, dir, "git", "rm", "-q", "gone.txt")
	write(t, dir, "new/file.txt", "n\n")

	c, err := New(dir, Options{Base: "main"}).Change(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(c.Against, "main (merge-base ") || c.Cut {
		t.Errorf("Against = %q, Cut = %v", c.Against, c.Cut)
	}
	var got []string
	for _, f := range c.Files {
		got = append(got, f.Path+":"+string(f.Status)+map[bool]string{true: ":untracked"}[f.Untracked])
	}
	want := []string{"gone.txt:deleted", "kept.txt:modified", "new/file.txt:added:untracked"}
	if !slices.Equal(got, want) {
		t.Errorf("files = %q, want %q", got, want)
	}
	if !c.Added().Has("kept.txt", 2) || !c.Added().Has("new/file.txt", 1) {
		t.Errorf("Added = %v", c.Added())
	}
}
