package coverage

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func goMap(t *testing.T) PathMap {
	t.Helper()
	pm, err := GoModMap(readFile(t, "testdata/go/go.mod.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return pm
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func goProfile(t *testing.T, name string) Coverage {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata/go", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := ReadGoProfile(f, goMap(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestReadGoProfileEveryMode(t *testing.T) {
	for _, name := range []string{"base.out", "base-count.out", "base-atomic.out"} {
		c := goProfile(t, name)
		if !c.Complete || len(c.Notes) != 0 {
			t.Errorf("%s: complete %v, notes %q", name, c.Complete, c.Notes)
		}
		if got := mapsKeys(c.Files); !slices.Equal(got, []string{"lib.go", "sub/sub.go"}) {
			t.Fatalf("%s: files %q", name, got)
		}
		// Blocks 4.25-5.11, 5.11-7.3, 8.2-8.12, 8.12-10.3, 11.2-11.19, 15.21-16.11, 16.11-18.3, 19.2-19.10.
		want := []int{4, 5, 6, 7, 8, 9, 10, 11, 15, 16, 17, 18, 19}
		if got := c.Files["lib.go"].Lines(); !slices.Equal(got, want) {
			t.Errorf("%s: lib.go lines %v, want %v", name, got, want)
		}
		if got := c.Files["lib.go"].CoveredLines(); !slices.Equal(got, want) {
			t.Errorf("%s: lib.go covered %v, want %v", name, got, want)
		}
		if got := c.Files["sub/sub.go"].CoveredLines(); !slices.Equal(got, []int{4, 5, 6}) {
			t.Errorf("%s: sub.go covered %v", name, got)
		}
	}
}

func TestReadGoProfileNarrowed(t *testing.T) {
	c := goProfile(t, "narrowed.out")
	f := c.Files["lib.go"]
	// Line 5 (`if x < 0 {`) ends the function's first block, which ran: covered.
	if got, want := f.CoveredLines(), []int{4, 5, 8, 11, 15, 16, 17, 18, 19}; !slices.Equal(got, want) {
		t.Errorf("covered %v, want %v", got, want)
	}
	if !f.Instrumented(6) || f.Covered(6) {
		t.Error("line 6 should be instrumented and not covered")
	}
}

func TestReadGoProfileMalformed(t *testing.T) {
	pm := GoModules(Module{Path: "example.com/m"}, Module{Path: "example.com/m/tools", Dir: "tools"})
	in := "mode: count\n" +
		"example.com/m/a.go:1.1,3.2 1 1\n" +
		"example.com/m/tools/b.go:2.1,2.9 1 0\n" +
		"fmt/print.go:1.1,2.1 1 1\n" + // standard library: dropped
		"garbage\n" +
		"example.com/m/a.go:9.1,8.1 1 1\n" + // ends before it starts
		"example.com/m/a.go:5.1,5.9 0 1\n" + // no statement: nothing instrumented
		"example.com/m/a.go:6.1,7.1 1 99999999999999999999999\n" + // a count past int64; ends at column 1
		"mode: count\n" + // a second profile appended
		"example.com/m/a.go:20.1,20.5 1 0\n"
	c, err := ReadGoProfile(strings.NewReader(in), pm, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Files["a.go"].Lines(); !slices.Equal(got, []int{1, 2, 3, 6, 20}) {
		t.Errorf("a.go lines %v", got)
	}
	if got := c.Files["a.go"].CoveredLines(); !slices.Equal(got, []int{1, 2, 3, 6}) {
		t.Errorf("a.go covered %v", got)
	}
	if !c.Files["tools/b.go"].Instrumented(2) {
		t.Error("tools/b.go: the nested module's file was not mapped")
	}
	if !strings.Contains(strings.Join(c.Notes, "|"), "2 lines were not cover profile blocks") {
		t.Errorf("notes %q", c.Notes)
	}
	if _, err := ReadGoProfile(strings.NewReader("SF:x\n"), pm, Options{}); err == nil {
		t.Error("lcov read as a Go profile")
	}
}

func TestGoModPath(t *testing.T) {
	for in, want := range map[string]string{
		"module example.com/m\n\ngo 1.22\n":     "example.com/m",
		"// c\nmodule \"example.com/q\" // x\n": "example.com/q",
		"go 1.22\nmodule\texample.com/t\n":      "example.com/t",
	} {
		if got, err := GoModPath([]byte(in)); err != nil || got != want {
			t.Errorf("GoModPath(%q) = %q, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "go 1.22\n", "modules x\n"} {
		if got, err := GoModPath([]byte(in)); err == nil {
			t.Errorf("GoModPath(%q) = %q, want an error", in, got)
		}
	}
}

func lcovFile(t *testing.T, name string) Coverage {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata/lcov", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := ReadLCOV(f, RootRelative("/work/covjs"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestReadLCOV(t *testing.T) {
	all := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}
	for _, name := range []string{"c8-base.info", "node-base.info"} {
		c := lcovFile(t, name)
		if !c.Complete {
			t.Errorf("%s: incomplete: %q", name, c.Notes)
		}
		if got := c.Files["src/lib.js"].CoveredLines(); !slices.Equal(got, all) {
			t.Errorf("%s: covered %v", name, got)
		}
	}
	n := lcovFile(t, "c8-narrowed.info").Files["src/lib.js"]
	if got, want := n.CoveredLines(), []int{1, 2, 3, 4, 5, 8, 11, 12, 13, 14}; !slices.Equal(got, want) || !slices.Equal(n.Lines(), all) {
		t.Errorf("narrowed: covered %v (want %v), lines %v", got, want, n.Lines())
	}
	if v := lcovFile(t, "c8-vacuous.info"); len(v.Files) != 0 || !v.Complete {
		t.Errorf("vacuous: %d files, complete %v", len(v.Files), v.Complete)
	}
}

func TestReadLCOVMerged(t *testing.T) {
	in := "TN:a\nSF:/repo/x.ts\nDA:1,0\nDA:2,0\nend_of_record\n" +
		"TN:b\nSF:x.ts\nDA:2,5,abcd\nDA:3,-1\nDA:x,1\nend_of_record\n" +
		"SF:/elsewhere/y.ts\nDA:1,1\nend_of_record\n" +
		"SF:../z.ts\nDA:1,1\n" // outside the root, and no end_of_record
	c, err := ReadLCOV(strings.NewReader(in), RootRelative("/repo"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := c.Files["x.ts"]
	if !slices.Equal(f.Lines(), []int{1, 2, 3}) || !slices.Equal(f.CoveredLines(), []int{2}) {
		t.Errorf("x.ts lines %v covered %v", f.Lines(), f.CoveredLines())
	}
	if len(c.Files) != 1 || c.Complete {
		t.Errorf("files %v, complete %v", mapsKeys(c.Files), c.Complete)
	}
	notes := strings.Join(c.Notes, "|")
	for _, want := range []string{"no end_of_record", "1 DA lines were not understood", "2 file names outside"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q lack %q", notes, want)
		}
	}
}

func pyFixture(t *testing.T, name string) Coverage {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata/coveragepy", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := ReadCoveragePy(f, RootRelative("/srv/calc"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestReadCoveragePy(t *testing.T) {
	stmts := []int{1, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15}
	b := pyFixture(t, "base.json")
	if f := b.Files["calc/lib.py"]; !slices.Equal(f.Lines(), stmts) || !slices.Equal(f.CoveredLines(), stmts) {
		t.Errorf("base: lines %v covered %v", f.Lines(), f.CoveredLines())
	}
	if f := b.Files["calc/__init__.py"]; f == nil || len(f.Lines()) != 0 {
		t.Errorf("base: __init__.py %v", f)
	}
	n := pyFixture(t, "narrowed.json").Files["calc/lib.py"]
	if !slices.Equal(n.Lines(), stmts) || !slices.Equal(n.CoveredLines(), []int{1, 4, 5, 7, 9, 12, 13, 14, 15}) {
		t.Errorf("narrowed: lines %v covered %v", n.Lines(), n.CoveredLines())
	}
	if v := pyFixture(t, "vacuous.json"); v.Files["calc/lib.py"] != nil {
		t.Error("vacuous: calc/lib.py present")
	}
}

func TestReadCoveragePyBroken(t *testing.T) {
	for _, in := range []string{``, `[]`, `{"meta": {}}`, `{"files": {"a.py": {"executed_lines": [1, [2]]}}}`,
		`{"files": {"a.py": {"executed_lines": [1, 2`, `{"files": ` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}`} {
		if _, err := ReadCoveragePy(strings.NewReader(in), RootRelative("/r"), Options{}); err == nil {
			t.Errorf("%.40q: no error", in)
		}
	}
	c, err := ReadCoveragePy(strings.NewReader(`{"x": `+strings.Repeat("[", 60)+strings.Repeat("]", 60)+`, "files": {"a.py": {"executed_lines": [2, 1.5, -3, 1e300], "missing_lines": [3]}}}`), RootRelative("/r"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f := c.Files["a.py"]; !slices.Equal(f.Lines(), []int{2, 3}) || !slices.Equal(f.CoveredLines(), []int{2}) {
		t.Errorf("a.py lines %v covered %v", f.Lines(), f.CoveredLines())
	}
}

func TestBounds(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("mode: set\n")
	sb.WriteString("example.com/m/long.go:" + strings.Repeat("9", 70<<10) + "\n")
	for i := range 50 {
		sb.WriteString("example.com/m/f" + strings.Repeat("x", i%3) + string(rune('a'+i%26)) + ".go:1.1,40.2 3 1\n")
	}
	sb.WriteString("example.com/m/big.go:1.1,999999999.1 1 1\n")
	c, err := ReadGoProfile(strings.NewReader(sb.String()), GoModules(Module{Path: "example.com/m"}), Options{MaxFiles: 10, MaxLines: 100})
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, f := range c.Files {
		lines += len(f.Lines())
	}
	if len(c.Files) > 10 || lines > 100 || c.Complete {
		t.Errorf("%d files, %d lines, complete %v", len(c.Files), lines, c.Complete)
	}
	notes := strings.Join(c.Notes, "|")
	for _, want := range []string{"more than 10 files", "more than 100 instrumented lines", "longer than 64 KiB"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q lack %q", notes, want)
		}
	}
}

func TestRootRelative(t *testing.T) {
	pm := RootRelative("/repo")
	for in, want := range map[string]string{
		"/repo/a/b.js": "a/b.js", "a/./b.js": "a/b.js", `a\b.js`: "a/b.js", "/repo/../etc/x": "",
		"/other/x": "", "../x": "", "": "", "/repo": "", "C:/repo/x": "",
	} {
		got, ok := pm(in)
		if got != want || ok != (want != "") {
			t.Errorf("RootRelative(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if got, ok := RootRelative(`C:\repo`)(`C:\repo\x.js`); !ok || got != "x.js" {
		t.Errorf("windows: %q %v", got, ok)
	}
}

func mapsKeys(m map[string]*File) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
