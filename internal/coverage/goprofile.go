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
	gp := &goProfileReader{b: newBuilder("go", opts), paths: paths, first: true}
	lr := boundedio.NewLineReader(r)
	for {
		line, ok := lr.Next()
		if !ok {
			break
		}
		stop, err := gp.line(line, lr.Long)
		if err != nil {
			return gp.b.done(), err
		}
		if stop {
			break
		}
	}
	if gp.first && lr.Err == nil {
		return gp.b.done(), errors.New("not a Go cover profile: empty")
	}
	if gp.bad > 0 {
		gp.b.note(strconv.Itoa(gp.bad) + " lines were not cover profile blocks")
	}
	return gp.b.done(), lr.Err
}

// goProfileReader is ReadGoProfile's state between lines.
type goProfileReader struct {
	b        *builder
	paths    PathMap
	first    bool // no "mode:" line yet
	bad      int  // lines that are not blocks
	lastName []byte
	lastFile *File
	lastKept bool
	work     int // lines of blocks walked: bounds the time a hostile profile takes
}

// line reads one line of the profile (long: it was cut); stop says the rest is not to be read.
func (gp *goProfileReader) line(line []byte, long bool) (stop bool, err error) {
	switch {
	case long:
		gp.b.incomplete("a line longer than 64 KiB was skipped")
	case bytes.HasPrefix(line, []byte("mode:")):
		gp.first = false
	case len(bytes.TrimSpace(line)) == 0:
	case gp.first:
		return false, errors.New("not a Go cover profile: the first line is not a mode line")
	default:
		return gp.blockLine(line), nil
	}
	return false, nil
}

// blockLine reads a line that should be a block.
func (gp *goProfileReader) blockLine(line []byte) (stop bool) {
	name, blk, ok := parseGoBlock(line)
	if !ok {
		gp.bad++
		return false
	}
	gp.toFile(name)
	if !gp.lastKept || blk.stmts == 0 {
		return false
	}
	return gp.addBlock(blk)
}

// toFile makes the file a block names the one its lines go to: blocks come file by file.
func (gp *goProfileReader) toFile(name []byte) {
	if gp.lastName != nil && bytes.Equal(name, gp.lastName) {
		return
	}
	gp.lastName = append(gp.lastName[:0], name...)
	rel, keep := gp.paths(string(name))
	gp.lastKept = keep
	gp.lastFile = nil
	if keep {
		gp.lastFile = gp.b.file(rel)
	} else {
		gp.b.dropped++
	}
}

// addBlock adds a block's lines; stop says the blocks span too many lines to read more.
func (gp *goProfileReader) addBlock(blk goBlock) (stop bool) {
	end := blk.lastLine()
	if end > gp.b.opts.MaxLineNumber {
		gp.b.add(gp.lastFile, end, false) // notes the bound once
		end = gp.b.opts.MaxLineNumber
	}
	gp.work += end - blk.startLine + 1
	if gp.work > 8*gp.b.opts.MaxLines {
		gp.b.incomplete("the blocks span more than " + strconv.Itoa(8*gp.b.opts.MaxLines) + " lines in all: the rest of the profile was not read")
		return true
	}
	for l := blk.startLine; l <= end; l++ {
		gp.b.add(gp.lastFile, l, blk.count)
	}
	return false
}

// lastLine is the last line a block holds: one that ends before the first column of its last
// line ends on the line before.
func (blk goBlock) lastLine() int {
	if blk.endCol <= 1 && blk.endLine > blk.startLine {
		return blk.endLine - 1
	}
	return blk.endLine
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
