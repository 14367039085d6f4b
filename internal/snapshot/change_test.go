package snapshot

import (
	"maps"
	"slices"
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
