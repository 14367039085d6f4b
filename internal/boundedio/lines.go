// Package boundedio reads what a tool wrote, boundedly: lines of at most MaxLine bytes (the rest
// of a longer one skipped), and JSON whose strings are cut before a decoder holds them whole.
package boundedio

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// MaxLine bounds a line the line-based readers keep; the rest of a longer one is skipped. Every
// line a reader of test or coverage output needs (an event, a test point, a record) is far
// shorter; test2json itself cuts output into pieces of about a kilobyte.
const MaxLine = 64 << 10

// LineReader yields the lines of a stream without their line ending, each at most MaxLine bytes.
type LineReader struct {
	r *bufio.Reader
	// Long says the last line was longer than MaxLine and was cut.
	Long bool
	// Err is the error that ended the stream, nil at a clean end.
	Err  error
	done bool
}

func NewLineReader(r io.Reader) *LineReader {
	return &LineReader{r: bufio.NewReaderSize(r, MaxLine)}
}

// next returns the next line, valid until the following call; ok is false at the end.
func (l *LineReader) Next() (line []byte, ok bool) {
	l.Long = false
	if l.done {
		return nil, false
	}
	line, err := l.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		line, err = l.cut(line, err)
	}
	if err != nil {
		l.end(err)
		if len(line) == 0 {
			return nil, false
		}
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	return line, true
}

// cut keeps the start of a line longer than the buffer (copied: the buffer is reused) and drops
// the rest of it; err is the error that ended the line.
func (l *LineReader) cut(start []byte, err error) ([]byte, error) {
	l.Long = true
	line := bytes.Clone(start)
	for errors.Is(err, bufio.ErrBufferFull) {
		_, err = l.r.ReadSlice('\n')
	}
	return line, err
}

// end ends the stream on err, which is kept unless it is the clean end.
func (l *LineReader) end(err error) {
	l.done = true
	if err != io.EOF {
		l.Err = err
	}
}
