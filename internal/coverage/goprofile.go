package coverage

import (
	"bytes"
	"errors"
	"io"
	"strconv"

	"github.com/gauntlet-dev/gauntlet/internal/boundedio"
)

// ReadGoProfile reads a Go cover profile (go test -coverprofile, any -covermode): a "mode:" line,
// then one line per block, "name.go:startLine.startCol,endLine.endCol numStmt count". Files are
// named by import path; paths maps them to root-relative paths (GoModMap, GoModules). Every line
// of a block with statements is instrumented, and covered when the block's count is not zero: a
// line shared by blocks is covered when any of them ran, as a line's hit count reads in lcov.
// Profiles concatenated (several "mode:" lines, as merging tools write) are read as one.
//
// The error is the stream's own read error, or a profile that does not start with "mode:";
// lines that are not blocks are counted in the notes and skipped.
func ReadGoProfile(r io.Reader, paths PathMap, opts Options) (Coverage, error) {
	b := newBuilder("go", opts)
	lr := boundedio.NewLineReader(r)
	first, bad := true, 0
	var lastName []byte
	var lastFile *File
	lastKept := false
	work := 0 // lines of blocks walked: bounds the time a hostile profile takes
	for {
		line, ok := lr.Next()
		if !ok {
			break
		}
		if lr.Long {
			b.incomplete("a line longer than 64 KiB was skipped")
			continue
		}
		if bytes.HasPrefix(line, []byte("mode:")) {
			first = false
			continue
		}
		if first {
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			return b.done(), errors.New("not a Go cover profile: the first line is not mode:")
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		name, blk, ok := parseGoBlock(line)
		if !ok {
			bad++
			continue
		}
		if lastName == nil || !bytes.Equal(name, lastName) {
			lastName = append(lastName[:0], name...)
			rel, keep := paths(string(name))
			lastKept = keep
			lastFile = nil
			if keep {
				lastFile = b.file(rel)
			} else {
				b.dropped++
			}
		}
		if !lastKept || blk.stmts == 0 {
			continue
		}
		end := blk.endLine
		if blk.endCol <= 1 && end > blk.startLine {
			end-- // the block ends before the first column of its last line
		}
		if end > b.opts.MaxLineNumber {
			b.add(lastFile, end, false) // notes the bound once
			end = b.opts.MaxLineNumber
		}
		work += end - blk.startLine + 1
		if work > 8*b.opts.MaxLines {
			b.incomplete("the blocks span more than " + strconv.Itoa(8*b.opts.MaxLines) + " lines in all: the rest of the profile was not read")
			break
		}
		for l := blk.startLine; l <= end; l++ {
			b.add(lastFile, l, blk.count)
		}
	}
	if first && lr.Err == nil {
		return b.done(), errors.New("not a Go cover profile: empty")
	}
	if bad > 0 {
		b.note(strconv.Itoa(bad) + " lines were not cover profile blocks")
	}
	return b.done(), lr.Err
}

type goBlock struct {
	startLine, startCol, endLine, endCol, stmts int
	count                                       bool
}

// parseGoBlock parses "name:sl.sc,el.ec stmts count". The name may hold colons: the block is
// after the last one.
func parseGoBlock(line []byte) (name []byte, blk goBlock, ok bool) {
	colon := bytes.LastIndexByte(line, ':')
	if colon <= 0 {
		return nil, blk, false
	}
	name, rest := line[:colon], line[colon+1:]
	fields := bytes.Fields(rest)
	if len(fields) != 3 {
		return nil, blk, false
	}
	start, end, ok := bytes.Cut(fields[0], []byte(","))
	if !ok {
		return nil, blk, false
	}
	var ok1, ok2, ok3 bool
	blk.startLine, blk.startCol, ok1 = lineCol(start)
	blk.endLine, blk.endCol, ok2 = lineCol(end)
	blk.stmts, ok3 = atoi(fields[1])
	if !ok1 || !ok2 || !ok3 || blk.endLine < blk.startLine {
		return nil, blk, false
	}
	cnt := fields[2]
	if !allDigits(cnt) {
		return nil, blk, false
	}
	blk.count = len(bytes.TrimLeft(cnt, "0")) > 0
	return name, blk, true
}

func lineCol(s []byte) (line, col int, ok bool) {
	l, c, found := bytes.Cut(s, []byte("."))
	if !found {
		return 0, 0, false
	}
	line, ok1 := atoi(l)
	col, ok2 := atoi(c)
	return line, col, ok1 && ok2
}

// allDigits accepts a count too long for an int (a counter that wrapped many runs): it is not
// zero unless all its digits are.
func allDigits(s []byte) bool {
	if len(s) == 0 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
