package coverage

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
	"io"
	"maps"
	"slices"
	"strconv"
)

// Merge is the coverage of several reports of one run (a gate that runs go test twice, a
// report per package): a line is instrumented when any report instruments it, covered when any
// covers it. It is complete only when every part is.
func Merge(parts ...Coverage) Coverage {
	b := newBuilder("", Options{})
	for i, p := range parts {
		if i == 0 || b.cov.Format == p.Format {
			b.cov.Format = p.Format
		} else {
			b.cov.Format = "mixed"
		}
		if !p.Complete {
			b.cov.Complete = false
		}
		for _, n := range p.Notes {
			b.note(n)
		}
		for _, name := range sortedNames(p.Files) {
			f := b.file(name)
			for _, l := range p.Files[name].Lines() {
				b.add(f, l, p.Files[name].Covered(l))
			}
		}
	}
	return b.done()
}

// Sniff names a report's format from its first bytes: "go" for a cover profile, "coverage.py"
// for JSON, "lcov" for lcov's records; "" when it is none of them.
func Sniff(head []byte) string {
	head = bytes.TrimLeft(head, " \t\r\n\ufeff")
	switch {
	case bytes.HasPrefix(head, []byte("mode:")):
		return "go"
	case bytes.HasPrefix(head, []byte("{")):
		return "coverage.py"
	}
	for _, rec := range []string{"TN:", "SF:"} {
		if bytes.HasPrefix(head, []byte(rec)) || bytes.Contains(head, []byte("\n"+rec)) {
			return "lcov"
		}
	}
	return ""
}

// Read reads a report in whatever format it is in (Sniff), names mapped by paths; a Go profile's
// import paths by goPaths, which may be nil when the project has no go.mod.
func Read(r io.Reader, paths, goPaths PathMap, opts Options) (Coverage, error) {
	br := bufio.NewReaderSize(r, 4096)
	head, _ := br.Peek(4096)
	switch Sniff(head) {
	case "go":
		if goPaths == nil {
			return Coverage{}, errors.New("a Go cover profile, and no go.mod to map its import paths")
		}
		return ReadGoProfile(br, goPaths, opts)
	case "coverage.py":
		return ReadCoveragePy(br, paths, opts)
	case "lcov":
		return ReadLCOV(br, paths, opts)
	}
	return Coverage{}, errors.New("not a coverage report gauntlet reads (a Go cover profile, lcov, or coverage.py's JSON)")
}

// stored is a coverage as kept between runs: each file's instrumented and covered lines as runs
// of consecutive lines, a fraction of the size of a report.
type stored struct {
	Format   string                `json:"format"`
	Complete bool                  `json:"complete"`
	Notes    []string              `json:"notes,omitempty"`
	Files    map[string]storedFile `json:"files"`
}

type storedFile struct {
	Instrumented [][2]int `json:"i"`
	Covered      [][2]int `json:"c,omitempty"`
}

// MarshalJSON writes the coverage in its stored form.
func (c Coverage) MarshalJSON() ([]byte, error) {
	st := stored{Format: c.Format, Complete: c.Complete, Notes: c.Notes, Files: make(map[string]storedFile, len(c.Files))}
	for name, f := range c.Files {
		st.Files[name] = storedFile{Instrumented: spans(f.Lines()), Covered: spans(f.CoveredLines())}
	}
	return json.Marshal(st)
}

// UnmarshalJSON reads the stored form back within the readers' default bounds; a span out of
// range, or more lines than the bounds keep, makes the whole coverage unreadable rather than
// silently smaller.
func (c *Coverage) UnmarshalJSON(data []byte) error {
	var st stored
	if err := json.Unmarshal(data, &st); err != nil {
		return err
	}
	opts := Options{}.withDefaults()
	if len(st.Files) > opts.MaxFiles {
		return errors.New("stored coverage: too many files")
	}
	out := Coverage{Format: st.Format, Complete: st.Complete, Notes: st.Notes, Files: make(map[string]*File, len(st.Files))}
	total := 0
	for _, name := range slices.Sorted(maps.Keys(st.Files)) {
		sf := st.Files[name]
		f := &File{lines: map[int]bool{}}
		if err := f.addStored(name, sf.Instrumented, false, &total, opts); err != nil {
			return err
		}
		if err := f.addStored(name, sf.Covered, true, &total, opts); err != nil {
			return err
		}
		out.Files[name] = f
	}
	*c = out
	return nil
}

// addStored adds the stored spans of file name, covered or only instrumented, counting their
// lines in total against the bounds of opts.
func (f *File) addStored(name string, spans [][2]int, covered bool, total *int, opts Options) error {
	for _, s := range spans {
		if s[0] < 1 || s[1] < s[0] || s[1] > opts.MaxLineNumber {
			return fmt.Errorf("stored coverage: %s: span %d-%d out of range", name, s[0], s[1])
		}
		if *total += s[1] - s[0] + 1; *total > 2*opts.MaxLines {
			return errors.New("stored coverage: more lines than a coverage keeps")
		}
		for l := s[0]; l <= s[1]; l++ {
			if covered || !f.lines[l] {
				f.lines[l] = covered
			}
		}
	}
	return nil
}

// spans folds sorted lines into runs of consecutive lines.
func spans(lines []int) [][2]int {
	var out [][2]int
	for _, l := range lines {
		if n := len(out); n > 0 && out[n-1][1]+1 == l {
			out[n-1][1] = l
			continue
		}
		out = append(out, [2]int{l, l})
	}
	return out
}

// Summary is a coverage in a sentence: "412 of 530 lines covered in 14 files".
func (c Coverage) Summary() string {
	lines, covered := 0, 0
	for _, f := range c.Files {
		lines += len(f.lines)
		covered += len(f.CoveredLines())
	}
	return strconv.Itoa(covered) + " of " + strconv.Itoa(lines) + " lines covered in " + termtext.Count(len(c.Files), "file")
}
