package coverage

import (
	"bytes"
	"io"
	"strconv"

	"github.com/gauntlet-dev/gauntlet/internal/boundedio"
)

// ReadLCOV reads an lcov tracefile (istanbul, c8, node --test's lcov reporter, cargo-llvm-cov,
// geninfo): records from "SF:path" to "end_of_record", each "DA:line,count[,checksum]" an
// instrumented line, covered when its count is not zero. paths maps the SF names (absolute, or
// relative to where the tool ran: RootRelative). A file in several records (tests merged) is
// covered where any record covered it. Other lines (TN, FN, FNDA, BRDA, LF, LH) are skipped.
//
// The error is the stream's own read error; lines that are not understood are counted in the
// notes, and a last record without end_of_record makes the coverage incomplete.
func ReadLCOV(r io.Reader, paths PathMap, opts Options) (Coverage, error) {
	lc := &lcovReader{b: newBuilder("lcov", opts), paths: paths}
	lr := boundedio.NewLineReader(r)
	for {
		line, ok := lr.Next()
		if !ok {
			break
		}
		if lr.Long {
			lc.b.incomplete("a line longer than 64 KiB was skipped")
			continue
		}
		lc.line(bytes.TrimSpace(line))
	}
	if lc.in {
		lc.b.incomplete("the last lcov record has no end_of_record")
	}
	if lc.bad > 0 {
		lc.b.note(strconv.Itoa(lc.bad) + " DA lines were not understood")
	}
	return lc.b.done(), lr.Err
}

// lcovReader is ReadLCOV's state between lines: the record open, and its file when kept.
type lcovReader struct {
	b     *builder
	paths PathMap
	cur   *File
	in    bool
	bad   int // DA lines not understood
}

// line reads one line of the tracefile, trimmed.
func (lc *lcovReader) line(line []byte) {
	switch {
	case bytes.HasPrefix(line, []byte("SF:")):
		lc.in, lc.cur = true, keptFile(lc.b, lc.paths, string(line[3:]))
	case bytes.Equal(line, []byte("end_of_record")):
		lc.in, lc.cur = false, nil
	case bytes.HasPrefix(line, []byte("DA:")):
		n, covered, ok := parseDA(line[3:])
		if !lc.in || !ok {
			lc.bad++
			return
		}
		lc.b.add(lc.cur, n, covered)
	}
}

// parseDA parses what follows "DA:": "line,count[,checksum]".
func parseDA(da []byte) (line int, covered, ok bool) {
	fields := bytes.Split(da, []byte(","))
	if len(fields) < 2 {
		return 0, false, false
	}
	n, ok := atoi(bytes.TrimSpace(fields[0]))
	cnt := bytes.TrimSpace(fields[1])
	if !ok || len(cnt) == 0 {
		return 0, false, false
	}
	return n, hit(cnt), true
}

// hit reads an lcov count: a decimal (gcov's can be negative after a counter overflow, or
// fractional from some converters) is a hit when it is above zero.
func hit(cnt []byte) bool {
	if cnt[0] == '-' {
		return false
	}
	for _, c := range cnt {
		if c >= '1' && c <= '9' {
			return true
		}
	}
	return false
}
