package coverage

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// diffMap is what the caller's untouched is: the lines of the file now that a line diff keeps
// from the base, mapped to their base line. Files not given are unchanged (identity), files
// given as nil are deleted.
func diffMap(files map[string][2][]byte) Untouched {
	maps := map[string]map[int]int{}
	for name, v := range files {
		if v[1] == nil {
			maps[name] = map[int]int{}
			continue
		}
		maps[name] = lcsMap(strings.Split(string(v[0]), "\n"), strings.Split(string(v[1]), "\n"))
	}
	return func(file string, nowLine int) (int, bool) {
		m, ok := maps[file]
		if !ok {
			return nowLine, true
		}
		b, ok := m[nowLine]
		return b, ok
	}
}

func lcsMap(a, b []string) map[int]int {
	n, m := len(a), len(b)
	dp := make([][]int, n+1)
	for i := range dp {
		dp[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	out := map[int]int{}
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case a[i] == b[j]:
			out[j+1] = i + 1
			i, j = i+1, j+1
		case dp[i+1][j] >= dp[i][j+1]:
			i++
		default:
			j++
		}
	}
	return out
}

func src(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(dir + "/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// goLost compares the captured Go profiles of two scenarios, lib.go mapped by a line diff.
func goLost(t *testing.T, base, now string) []Finding {
	t.Helper()
	u := diffMap(map[string][2][]byte{"lib.go": {src(t, "testdata/go/"+base, "lib.go"), src(t, "testdata/go/"+now, "lib.go")}})
	return Lost(goProfile(t, base+".out"), goProfile(t, now+".out"), u)
}

func TestLostHonestChanges(t *testing.T) {
	for _, c := range [][2]string{
		{"base", "base"},
		{"base", "refactor"},      // code moved down: lines mapped, still covered
		{"base", "untested"},      // new code without a test: never covered, not lost
		{"noabstest", "base"},     // a test added
		{"noabstest", "untested"}, // a test added, and new untested code
	} {
		if got := goLost(t, c[0], c[1]); len(got) != 0 {
			t.Errorf("%s → %s: %v", c[0], c[1], got)
		}
	}
}

func TestLostVacuousTest(t *testing.T) {
	got := goLost(t, "base", "vacuous")
	want := []Finding{
		{File: "lib.go", From: 4, To: 19, Message: "lib.go:4-19 were covered at the base and are not now"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

func TestLostNarrowedTest(t *testing.T) {
	got := goLost(t, "base", "narrowed")
	want := []Finding{
		{File: "lib.go", From: 6, To: 7, Message: "lib.go:6-7 were covered at the base and are not now"},
		{File: "lib.go", From: 9, To: 10, Message: "lib.go:9-10 were covered at the base and are not now"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

func TestLostLinesTheChangeModified(t *testing.T) {
	// The narrowed coverage, but the change rewrote lines 6 and 9-10: judged by their new tests,
	// not by the base's. Line 7 alone stays lost.
	u := func(file string, l int) (int, bool) {
		if l == 6 || l == 9 || l == 10 {
			return 0, false
		}
		return l, true
	}
	got := Lost(goProfile(t, "base.out"), goProfile(t, "narrowed.out"), u)
	want := []Finding{{File: "lib.go", From: 7, To: 7, Message: "lib.go:7 was covered at the base and is not now"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

func TestLostLCOV(t *testing.T) {
	same := func(_ string, l int) (int, bool) { return l, true }
	base := lcovFile(t, "c8-base.info")
	if got := Lost(base, lcovFile(t, "node-base.info"), same); len(got) != 0 {
		t.Errorf("c8 base vs node base: %v", got)
	}
	got := Lost(base, lcovFile(t, "c8-narrowed.info"), same)
	want := []Finding{
		{File: "src/lib.js", From: 6, To: 7, Message: "src/lib.js:6-7 were covered at the base and are not now"},
		{File: "src/lib.js", From: 9, To: 10, Message: "src/lib.js:9-10 were covered at the base and are not now"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("narrowed: got %v\nwant %v", got, want)
	}
	// The vacuous test no longer loads lib.js: one finding for the whole file.
	got = Lost(base, lcovFile(t, "c8-vacuous.info"), same)
	want = []Finding{{File: "src/lib.js", Message: "src/lib.js had 14 lines covered at the base and has no coverage at all now"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("vacuous: got %v\nwant %v", got, want)
	}
	// lib.js deleted: quiet.
	deleted := diffMap(map[string][2][]byte{"src/lib.js": {src(t, "testdata/lcov", "lib.js"), nil}})
	if got := Lost(base, lcovFile(t, "c8-vacuous.info"), deleted); len(got) != 0 {
		t.Errorf("deleted: %v", got)
	}
}

func TestLostCoveragePy(t *testing.T) {
	same := func(_ string, l int) (int, bool) { return l, true }
	base := pyFixture(t, "base.json")
	got := Lost(base, pyFixture(t, "narrowed.json"), same)
	want := []Finding{
		{File: "calc/lib.py", From: 6, To: 6, Message: "calc/lib.py:6 was covered at the base and is not now"},
		{File: "calc/lib.py", From: 8, To: 8, Message: "calc/lib.py:8 was covered at the base and is not now"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("narrowed: got %v\nwant %v", got, want)
	}
	got = Lost(base, pyFixture(t, "vacuous.json"), same)
	want = []Finding{{File: "calc/lib.py", Message: "calc/lib.py had 11 lines covered at the base and has no coverage at all now"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("vacuous: got %v\nwant %v", got, want)
	}
}

func TestLostQuietCases(t *testing.T) {
	same := func(_ string, l int) (int, bool) { return l, true }
	base := Coverage{Complete: true, Files: map[string]*File{"a.go": {lines: map[int]bool{1: true, 2: true, 3: false, 4: true}}}}
	// Line 2 deleted (no longer instrumented), line 3 was never covered, line 4 still covered.
	now := Coverage{Complete: true, Files: map[string]*File{"a.go": {lines: map[int]bool{1: true, 3: false, 4: true}}}}
	if got := Lost(base, now, same); len(got) != 0 {
		t.Errorf("got %v", got)
	}
	// An incomplete coverage now is not compared.
	now = Coverage{Files: map[string]*File{}}
	if got := Lost(base, now, same); len(got) != 0 {
		t.Errorf("incomplete: %v", got)
	}
	// A run of lost lines goes on across a line not instrumented now.
	now = Coverage{Complete: true, Files: map[string]*File{"a.go": {lines: map[int]bool{1: false, 4: false}}}}
	want := []Finding{{File: "a.go", From: 1, To: 4, Message: "a.go:1-4 were covered at the base and are not now"}}
	if got := Lost(base, now, same); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v want %v", got, want)
	}
}
