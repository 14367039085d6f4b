package baseline

import (
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/state"
)

func TestKeyNormalises(t *testing.T) {
	f := gates.Finding{File: "lib_test.go", Line: 6, Rule: "TestF", Message: "F() = 3, want 1 (took 0.01s)"}
	g := f
	g.Message = "F() = 2, want 1   (took 0.02s)"
	if KeyOf(f, 6, "/base") != KeyOf(g, 6, "/head") {
		t.Error("numbers and spacing tell the same failing check apart")
	}
	g.Rule = "TestG"
	if KeyOf(f, 6, "") == KeyOf(g, 6, "") {
		t.Error("another test is the same finding")
	}
	if KeyOf(f, 6, "") == KeyOf(f, 7, "") {
		t.Error("another line is the same finding")
	}
	a := gates.Finding{File: "x.go", Line: 1, Message: "open /tmp/base-1/x.go: denied"}
	b := gates.Finding{File: "x.go", Line: 1, Message: "open /work/app/x.go: denied"}
	if KeyOf(a, 1, "/tmp/base-1") != KeyOf(b, 1, "/work/app") {
		t.Error("the roots of the two trees tell the findings apart")
	}
}

func TestTakeShiftsLinesAndCounts(t *testing.T) {
	patch := []byte("diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1,0 +2,2 @@\n+a\n+b\n")
	s := NewSet("the merge-base 0123", true)
	s.Add(gates.Finding{File: "x.go", Line: 5, Message: "old"}, "/base")
	s.Lines, s.Root = snapshot.ParsePatch(patch).LineMap(), "/head"
	c := s.Clone()
	if !c.Take(gates.Finding{File: "x.go", Line: 7, Message: "old"}) {
		t.Error("the finding moved down by the two added lines is not matched")
	}
	if c.Take(gates.Finding{File: "x.go", Line: 7, Message: "old"}) {
		t.Error("one finding at the base excused two")
	}
	if !s.Take(gates.Finding{File: "x.go", Line: 7, Message: "old"}) {
		t.Error("Take on a clone consumed the original")
	}
	if s.Take(gates.Finding{File: "x.go", Line: 2, Message: "old"}) {
		t.Error("an added line matched")
	}
}

func TestCacheRoundTrip(t *testing.T) {
	sd, err := state.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer sd.Close()
	s := NewSet("the merge-base 0123", true)
	s.Add(gates.Finding{File: "x.go", Line: 5, Message: "old"}, "/base")
	s.Add(gates.Finding{File: "x.go", Line: 5, Message: "old"}, "/base")
	g := gates.Gate{Name: "lint", Run: "lint"}
	key := CacheKey(g, "0123", "v1")
	if _, ok := LoadCached(sd, key); ok {
		t.Fatal("found before stored")
	}
	if err := SaveCached(sd, key, s); err != nil {
		t.Fatal(err)
	}
	got, ok := LoadCached(sd, key)
	if !ok || got.Len() != 2 || !got.Failed || got.Source != s.Source {
		t.Fatalf("loaded %+v %v", got, ok)
	}
	if CacheKey(g, "0124", "v1") == key || CacheKey(gates.Gate{Name: "lint", Run: "lint2"}, "0123", "v1") == key ||
		CacheKey(g, "0123", "v2") == key {
		t.Error("the key does not follow the commit, the command or the version")
	}
	for i := range maxCached + 3 {
		if err := SaveCached(sd, CacheKey(g, strings.Repeat("a", i+1), "v1"), s); err != nil {
			t.Fatal(err)
		}
	}
	list, err := sd.ReadDir(cacheDir)
	if err != nil || len(list) > maxCached {
		t.Errorf("%d stored sets, want at most %d (%v)", len(list), maxCached, err)
	}
}

func TestFileRoundTrip(t *testing.T) {
	f := &File{SchemaVersion: SchemaVersion, Gates: map[string]GateEntry{
		"lint": {Commit: "0123456789abcdef", Definition: "d", Failed: true, Findings: []Entry{
			EntryOf(gates.Finding{File: "b.go", Line: 2, Message: "in /root/b.go"}, "/root"),
			{File: "a.go", Line: 9, Message: "x"},
		}},
	}}
	data, err := f.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"message": "in $ROOT/b.go"`) || strings.Index(string(data), "a.go") > strings.Index(string(data), "b.go") {
		t.Errorf("encoded:\n%s", data)
	}
	back, err := ParseFile(data)
	if err != nil {
		t.Fatal(err)
	}
	s := back.Gates["lint"].Set("the baseline")
	s.Root = "/elsewhere"
	if !s.Take(gates.Finding{File: "b.go", Line: 2, Message: "in /elsewhere/b.go"}) {
		t.Error("a baseline entry does not match the same finding in another checkout")
	}
	if _, err := ParseFile([]byte(`{"schema_version": 2}`)); err == nil {
		t.Error("another schema version was read")
	}
}
