package coverage

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func seed(f *testing.F, glob string) {
	names, _ := filepath.Glob(glob)
	for _, n := range names {
		if b, err := os.ReadFile(n); err == nil {
			f.Add(b)
		}
	}
}

// checkBounds holds what every reader promises, whatever its input.
func checkBounds(t *testing.T, c Coverage, opts Options) {
	lines := 0
	for name, f := range c.Files {
		if _, ok := cleanRel(name); !ok {
			t.Fatalf("kept a file name that leaves the root: %q", name)
		}
		for _, l := range f.Lines() {
			if l < 1 || l > opts.MaxLineNumber {
				t.Fatalf("%s: line %d kept", name, l)
			}
		}
		lines += len(f.Lines())
	}
	if len(c.Files) > opts.MaxFiles || lines > opts.MaxLines {
		t.Fatalf("%d files, %d lines kept", len(c.Files), lines)
	}
}

var fuzzOpts = Options{MaxFiles: 8, MaxLines: 64, MaxLineNumber: 1000}

func FuzzReadGoProfile(f *testing.F) {
	seed(f, "testdata/go/*.out")
	f.Fuzz(func(t *testing.T, data []byte) {
		c, _ := ReadGoProfile(bytes.NewReader(data), GoModules(Module{Path: "example.com/covsample"}), fuzzOpts)
		checkBounds(t, c, fuzzOpts)
		Lost(c, c, func(_ string, l int) (int, bool) { return l, true })
	})
}

func FuzzReadLCOV(f *testing.F) {
	seed(f, "testdata/lcov/*.info")
	f.Fuzz(func(t *testing.T, data []byte) {
		c, _ := ReadLCOV(bytes.NewReader(data), RootRelative("/work/covjs"), fuzzOpts)
		checkBounds(t, c, fuzzOpts)
	})
}

func FuzzReadCoveragePy(f *testing.F) {
	seed(f, "testdata/coveragepy/*.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		c, _ := ReadCoveragePy(bytes.NewReader(data), RootRelative("/srv/calc"), fuzzOpts)
		checkBounds(t, c, fuzzOpts)
	})
}
