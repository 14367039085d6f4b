package findings

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// benchLines is a realistic gate output: the captured go test failure, repeated, so that the
// cost per line (noise and findings alike) shows; b.N counts lines.
func benchLines(b *testing.B, name string) [][]byte {
	b.Helper()
	out, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		b.Fatal(err)
	}
	var lines [][]byte
	for l := range bytes.Lines(out) {
		// As the runner hands them over: escape sequences stripped.
		lines = append(lines, termtext.Strip(nil, bytes.TrimSuffix(l, []byte("\n"))))
	}
	return lines
}

func benchmarkReader(b *testing.B, spec Spec, lines [][]byte) {
	root := b.TempDir()
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/shop\n"), 0o644)
	r := NewReader(spec, Options{Root: root})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.Line(lines[i%len(lines)])
	}
	var o gates.Outcome
	r.Finish(&o)
}

func BenchmarkGoTestLine(b *testing.B) {
	benchmarkReader(b, Detect([]string{"go", "test"}), benchLines(b, "gotest.txt"))
}

func BenchmarkDetectedAllLine(b *testing.B) {
	// The worst case: every parser reading every line.
	var s Spec
	for _, name := range []string{"go", "gotest", "eslint", "tsc", "vitest", "jest", "ava", "ruff", "mypy", "pytest", "rust", "shellcheck", "gcc", "generic"} {
		s.parsers = append(s.parsers, builtin()[name])
	}
	benchmarkReader(b, s, benchLines(b, "vitest.txt"))
}

func BenchmarkNoiseLine(b *testing.B) {
	lines := [][]byte{[]byte(fmt.Sprintf("%0200d", 7)), []byte("Usage: shop [flags] noise line that matches nothing at all")}
	benchmarkReader(b, Detect([]string{"make"}), lines)
}

// Memory does not grow with the output: 20,000 findings keep the cap, and the go test
// parser's waiting buffers stay bounded however many tests log before passing.
func TestMemoryBounded(t *testing.T) {
	r := NewReader(mustParse(t, "gcc"), Options{Max: 100})
	line := []byte("a.c:1:1: warning: same place, different message 0000000")
	for i := 0; i < 20_000; i++ {
		copy(line[len(line)-7:], fmt.Sprintf("%07d", i))
		r.Line(line)
	}
	var o gates.Outcome
	r.Finish(&o)
	if len(o.Findings) != 100 || r.Dropped() != 20_000-100 || len(r.seen) > 100 {
		t.Errorf("kept %d, dropped %d, seen %d", len(o.Findings), r.Dropped(), len(r.seen))
	}

	p := newGoTestParser(func(gates.Finding) {}, Options{}).(*goTestParser)
	for i := 0; i < 3*maxPending; i++ {
		p.line(fmt.Sprintf("=== RUN   TestN%d", i))
		p.line(fmt.Sprintf("    n_test.go:%d: log", i))
		if i%2 == 0 {
			p.line(fmt.Sprintf("--- FAIL: TestOther%d (0.00s)", i))
		}
	}
	if len(p.early) > maxPending || len(p.pkg) > maxPending || len(p.failed) > maxPending {
		t.Errorf("go test buffers grew: early %d, pkg %d, failed %d", len(p.early), len(p.pkg), len(p.failed))
	}
}
