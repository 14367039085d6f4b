package snapshot

import "testing"

func TestLineMapOld(t *testing.T) {
	patch := []byte(`diff --git a/x.go b/x.go
index 1111111..2222222 100644
--- a/x.go
+++ b/x.go
@@ -1,3 +1,5 @@
 package x
+// one
+// two
 
 func A() {}
@@ -10,3 +12,2 @@ func B() {}
 func C() {}
-func D() {}
 func E() {}
@@ -20,0 +22,1 @@ func F() {}
+func G() {}
@@ -30,2 +31,0 @@
-func H() {}
-func I() {}
diff --git a/new.go b/new.go
new file mode 100644
--- /dev/null
+++ b/new.go
@@ -0,0 +1,2 @@
+package x
+func N() {}
diff --git a/gone.go b/gone.go
deleted file mode 100644
--- a/gone.go
+++ /dev/null
@@ -1 +0,0 @@
-package x
`)
	m := ParsePatch(patch).LineMap()
	for _, tt := range []struct {
		file      string
		line      int
		old       int
		unchanged bool
	}{
		{"x.go", 1, 1, true},
		{"x.go", 2, 0, false}, // added
		{"x.go", 3, 0, false}, // added
		{"x.go", 4, 2, true},
		{"x.go", 5, 3, true},
		{"x.go", 8, 6, true},   // between hunks: shifted by the two added lines
		{"x.go", 12, 10, true}, // context of the second hunk
		{"x.go", 13, 12, true}, // after the removed line
		{"x.go", 14, 13, true}, // after the second hunk: +2 -1
		{"x.go", 21, 20, true},
		{"x.go", 22, 0, false}, // G, added
		{"x.go", 23, 21, true},
		{"x.go", 29, 27, true},
		{"x.go", 31, 29, true},
		{"x.go", 32, 32, true}, // after the removal of H and I
		{"x.go", 0, 0, true},   // the whole file
		{"new.go", 1, 0, false},
		{"new.go", 0, 0, false},
		{"other.go", 7, 7, true},
		{"./x.go", 4, 2, true},
	} {
		old, ok := m.Old(tt.file, tt.line)
		if old != tt.old || ok != tt.unchanged {
			t.Errorf("Old(%s, %d) = %d, %v; want %d, %v", tt.file, tt.line, old, ok, tt.old, tt.unchanged)
		}
	}
}
