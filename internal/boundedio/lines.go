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
		l.Long = true
		// Keep the start (copied: the buffer is reused) and drop the rest of the line.
		line = bytes.Clone(line)
		for errors.Is(err, bufio.ErrBufferFull) {
			_, err = l.r.ReadSlice('\n')
		}
	}
	if err != nil {
		l.done = true
		if err != io.EOF {
			l.Err = err
		}
		if len(line) == 0 {
			return nil, false
		}
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	return line, true
}
