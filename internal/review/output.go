package review

// MaxOutputBytes bounds what is kept of a reviewer's output. The answer is at its end (Claude's
// and Gemini's JSON result, a custom reviewer's verdict), so the start is what gets dropped.
const MaxOutputBytes = 8 << 20

// Output keeps the end of a reviewer's output, at most MaxOutputBytes of it.
type Output struct {
	buf []byte
}

func (o *Output) Write(p []byte) (int, error) {
	o.buf = append(o.buf, p...)
	// Trim only once the buffer holds twice the limit, so that copying stays linear overall.
	if len(o.buf) > 2*MaxOutputBytes {
		cut := len(o.buf) - MaxOutputBytes
		o.buf = append(o.buf[:0], o.buf[cut:]...)
	}
	return len(p), nil
}

// Bytes returns the kept output, at most MaxOutputBytes.
func (o *Output) Bytes() []byte {
	if len(o.buf) > MaxOutputBytes {
		return o.buf[len(o.buf)-MaxOutputBytes:]
	}
	return o.buf
}
