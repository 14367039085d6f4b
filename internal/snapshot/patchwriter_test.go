package snapshot

import (
	"strings"
	"testing"
)

// A patch asked for with --text shows a text file's lines whatever the attributes say, and a file
// that really is binary (a NUL byte) as git's note, never as raw bytes.
func TestPatchWriterBinarySection(t *testing.T) {
	in := "diff --git a/img.png b/img.png\nindex 1..2 100644\n--- a/img.png\n+++ b/img.png\n@@ -1 +1 @@\n-\x00old\n+\x00new\n" +
		"diff --git a/a.txt b/a.txt\nindex 3..4 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new\n"
	w := newPatchWriter(0, nil)
	if err := w.consume(strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	want := "diff --git a/img.png b/img.png\nBinary files a/img.png and b/img.png differ\n" +
		"diff --git a/a.txt b/a.txt\nindex 3..4 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new\n"
	if got := string(w.text); got != want {
		t.Errorf("patch:\n%q\nwant:\n%q", got, want)
	}
}
