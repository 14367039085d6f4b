package coverage

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestStoredCoverageRoundTrips(t *testing.T) {
	c := goProfile(t, "base.out")
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var back Coverage
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Format != c.Format || back.Complete != c.Complete || len(back.Files) != len(c.Files) {
		t.Fatalf("round trip changed the coverage: %+v", back)
	}
	for name, f := range c.Files {
		if !slices.Equal(back.Files[name].Lines(), f.Lines()) || !slices.Equal(back.Files[name].CoveredLines(), f.CoveredLines()) {
			t.Errorf("%s: lines %v covered %v, want %v %v", name, back.Files[name].Lines(), back.Files[name].CoveredLines(), f.Lines(), f.CoveredLines())
		}
	}
}

func TestStoredCoverageRefusesSpansOutOfRange(t *testing.T) {
	for _, bad := range []string{
		`{"format":"go","complete":true,"files":{"a.go":{"i":[[0,3]]}}}`,
		`{"format":"go","complete":true,"files":{"a.go":{"i":[[5,3]]}}}`,
		`{"format":"go","complete":true,"files":{"a.go":{"i":[[1,99999999999]]}}}`,
		`{"format":"go","complete":true,"files":{"a.go":{"i":[[1,9000000]],"c":[[1,9000000]]}}}`,
	} {
		var c Coverage
		if err := json.Unmarshal([]byte(bad), &c); err == nil {
			t.Errorf("%s: read as %s", bad, c.Summary())
		}
	}
}

func TestMergeUnitesReports(t *testing.T) {
	a := Coverage{Format: "go", Complete: true, Files: map[string]*File{"a.go": {lines: map[int]bool{1: true, 2: false}}}}
	b := Coverage{Format: "go", Complete: false, Notes: []string{"cut"}, Files: map[string]*File{
		"a.go": {lines: map[int]bool{2: true, 3: false}}, "b.go": {lines: map[int]bool{7: false}}}}
	m := Merge(a, b)
	if m.Complete || !slices.Equal(m.Notes, []string{"cut"}) || m.Format != "go" {
		t.Fatalf("merged: %+v", m)
	}
	if got := m.Files["a.go"].CoveredLines(); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("a.go covered %v, want [1 2]: a line covered by either report is covered", got)
	}
	if got := m.Files["a.go"].Lines(); !slices.Equal(got, []int{1, 2, 3}) {
		t.Errorf("a.go lines %v", got)
	}
	if !m.Files["b.go"].Instrumented(7) || m.Files["b.go"].Covered(7) {
		t.Errorf("b.go: %v", m.Files["b.go"].lines)
	}
}

func TestReadSniffsTheFormat(t *testing.T) {
	for _, c := range []struct{ file, format string }{
		{"go/base.out", "go"},
		{"lcov/c8-base.info", "lcov"},
		{"coveragepy/base.json", "coverage.py"},
	} {
		data, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		cov, err := Read(bytes.NewReader(data), RootRelative("/nowhere"), goMap(t), Options{})
		if err != nil || cov.Format != c.format {
			t.Errorf("%s: format %q, err %v; want %q", c.file, cov.Format, err, c.format)
		}
	}
	if _, err := Read(strings.NewReader("<testsuites/>"), RootRelative("/"), nil, Options{}); err == nil {
		t.Error("a JUnit file read as coverage")
	}
	if _, err := Read(strings.NewReader("mode: set\n"), RootRelative("/"), nil, Options{}); err == nil {
		t.Error("a Go profile read without a go.mod to map it")
	}
}
