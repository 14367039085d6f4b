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
	b := newBuilder("lcov", opts)
	lr := boundedio.NewLineReader(r)
	var cur *File
	in, bad := false, 0
	for {
		line, ok := lr.Next()
		if !ok {
			break
		}
		if lr.Long {
			b.incomplete("a line longer than 64 KiB was skipped")
			continue
		}
		line = bytes.TrimSpace(line)
		switch {
		case bytes.HasPrefix(line, []byte("SF:")):
			in, cur = true, recordFile(b, paths, string(line[3:]))
		case bytes.Equal(line, []byte("end_of_record")):
			in, cur = false, nil
		case bytes.HasPrefix(line, []byte("DA:")):
			n, covered, ok := parseDA(line[3:])
			if !in || !ok {
				bad++
				continue
			}
			b.add(cur, n, covered)
		}
	}
	if in {
		b.incomplete("the last lcov record has no end_of_record")
	}
	if bad > 0 {
		b.note(strconv.Itoa(bad) + " DA lines were not understood")
	}
	return b.done(), lr.Err
}

// recordFile is the file a record's SF names, nil when paths drops it.
func recordFile(b *builder, paths PathMap, name string) *File {
	rel, keep := paths(name)
	if !keep {
		b.dropped++
		return nil
	}
	return b.file(rel)
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
