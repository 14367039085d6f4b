package runner

import "bytes"

// maxLineBytes bounds the line buffer: a longer line is delivered in pieces of this size.
const maxLineBytes = 64 << 10

// lineSplitter cuts a byte stream into lines without their newline (and a CR before it) and
// hands each to emit; the slice is only valid during the call.
type lineSplitter struct {
	buf  []byte // the start of a line whose newline has not arrived yet
	emit func(line []byte)
}

func (s *lineSplitter) Write(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			s.buffer(p)
			return
		}
		line := p[:i]
		p = p[i+1:]
		if len(s.buf) > 0 {
			s.buffer(line)
			s.emit(trimCR(s.buf))
			s.buf = s.buf[:0]
			continue
		}
		// The whole line is in p: hand it over without copying.
		line = trimCR(line)
		for len(line) > maxLineBytes {
			s.emit(line[:maxLineBytes])
			line = line[maxLineBytes:]
		}
		s.emit(line)
	}
}

// Flush delivers an unterminated last line (without the CR a Windows program ends it with).
func (s *lineSplitter) Flush() {
	if len(s.buf) > 0 {
		s.emit(trimCR(s.buf))
		s.buf = s.buf[:0]
	}
}

// buffer appends p, delivering a full buffer only when more bytes follow, so that a line of
// exactly maxLineBytes is one piece and not a piece plus an empty line.
func (s *lineSplitter) buffer(p []byte) {
	for len(p) > 0 {
		if len(s.buf) == maxLineBytes {
			s.emit(s.buf)
			s.buf = s.buf[:0]
		}
		n := min(len(p), maxLineBytes-len(s.buf))
		s.buf = append(s.buf, p[:n]...)
		p = p[n:]
	}
}

func trimCR(line []byte) []byte {
	return bytes.TrimSuffix(line, []byte{'\r'})
}
