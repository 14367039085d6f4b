package git

import (
	"bytes"
	"errors"
)

// ErrOutputTooLarge is the write error of a full CappedBuffer.
var ErrOutputTooLarge = errors.New("output too large")

// CappedBuffer holds at most Limit bytes. Past the limit it either drops the rest silently
// (Truncate, for diagnostics) or fails the write, which stops the command; either way Overflow
// records that something did not fit.
//
// The buffer is a field, not embedded: an embedded bytes.Buffer would lend its ReadFrom, which
// io.Copy (and so os/exec) prefers to Write, and the limit would never apply.
type CappedBuffer struct {
	Limit    int
	Truncate bool
	Overflow bool
	buf      bytes.Buffer
}

func (b *CappedBuffer) Write(p []byte) (int, error) {
	room := b.Limit - b.buf.Len()
	if len(p) <= room {
		return b.buf.Write(p)
	}
	b.Overflow = true
	if room > 0 {
		b.buf.Write(p[:room])
	}
	if b.Truncate {
		return len(p), nil
	}
	return 0, ErrOutputTooLarge
}

// Bytes is what the buffer holds, valid until the next Write.
func (b *CappedBuffer) Bytes() []byte { return b.buf.Bytes() }

func (b *CappedBuffer) String() string { return b.buf.String() }
