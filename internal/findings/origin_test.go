package findings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// goModule makes a module example.com/m in a temporary root.
func goModule(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/m\n\ngo 1.25\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func filesOf(fs []gates.Finding) string {
	var files []string
	for _, f := range fs {
		files = append(files, f.File+" "+f.Rule)
	}
	return strings.Join(files, ", ")
}

// A package that passes ends (its ok line) between the root package's failures and its FAIL
// line: the failures are the root's, not the passing package's.
func TestGoTestOkLineClaimsNoFindings(t *testing.T) {
	out := "--- FAIL: TestRoot (0.00s)\n    calc_test.go:9: want 5, got 4\n" +
		"ok  \texample.com/m/sub\t0.01s\n" +
		"FAIL\nFAIL\texample.com/m\t0.02s\nFAIL\n"
	got := readAll(mustParse(t, "gotest"), Options{Root: goModule(t)}, []byte(out))
	if files := filesOf(got); files != "calc_test.go TestRoot" {
		t.Errorf("findings on %q, want calc_test.go", files)
	}
}

// With the package of each line told (go test -json's Package), two failing packages whose
// lines interleave keep their own files, whatever FAIL line comes first.
func TestGoTestFindingsOfTheOriginPackage(t *testing.T) {
	r := NewReader(mustParse(t, "gotest"), Options{Root: goModule(t)})
	lines := []struct{ origin, line string }{
		{"example.com/m", "--- FAIL: TestRoot (0.00s)"},
		{"example.com/m", "    calc_test.go:9: want 5, got 4"},
		{"example.com/m/sub", "--- FAIL: TestSub (0.00s)"},
		{"example.com/m/sub", "    sub_test.go:3: broken"},
		{"example.com/m/sub", "FAIL"},
		{"example.com/m/sub", "FAIL\texample.com/m/sub\t0.01s"},
		{"example.com/m", "FAIL"},
		{"example.com/m", "FAIL\texample.com/m\t0.02s"},
		{"", "FAIL"},
	}
	// The root's failure, then the sub package's, ended by its FAIL line before the root's.
	for _, l := range lines {
		r.Origin(l.origin)
		r.Line([]byte(l.line))
	}
	var o gates.Outcome
	r.Finish(&o)
	if files := filesOf(o.Findings); files != "sub/sub_test.go TestSub, calc_test.go TestRoot" && files != "calc_test.go TestRoot, sub/sub_test.go TestSub" {
		t.Errorf("findings on %q", files)
	}
}
