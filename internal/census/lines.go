package census

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// maxLine bounds a line the line-based readers keep; the rest of a longer one is skipped. Every
// line a census needs (an event, a test point, a result) is far shorter; test2json itself cuts
// output into pieces of about a kilobyte.
const maxLine = 64 << 10

// lineReader yields the lines of a stream without their line ending, each at most maxLine bytes.
type lineReader struct {
	r    *bufio.Reader
	long bool  // the last line was longer than maxLine and was cut
	err  error // the error that ended the stream, nil at a clean end
	done bool
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, maxLine)}
}

// next returns the next line, valid until the following call; ok is false at the end.
func (l *lineReader) next() (line []byte, ok bool) {
	l.long = false
	if l.done {
		return nil, false
	}
	line, err := l.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		l.long = true
		// Keep the start (copied: the buffer is reused) and drop the rest of the line.
		line = bytes.Clone(line)
		for errors.Is(err, bufio.ErrBufferFull) {
			_, err = l.r.ReadSlice('\n')
		}
	}
	if err != nil {
		l.done = true
		if err != io.EOF {
			l.err = err
		}
		if len(line) == 0 {
			return nil, false
		}
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	return line, true
}
