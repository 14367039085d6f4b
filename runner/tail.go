package runner

import (
	"bytes"
	"strings"
	"unicode"

	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// The tail is kept as long as the block reason can show for one failed gate (which may have most
// of its 8,000 characters), so that one gate failing alone is not cut short by what was kept.
const (
	tailBufferBytes = 64 << 10
	tailMaxLines    = 80
	tailMaxBytes    = 8 << 10
)

// tailBuffer keeps the last bytes of a stream in a fixed ring, whatever the stream's size. The
// ring grows with the output up to its size, so that a gate that prints little costs little.
type tailBuffer struct {
	ring  []byte
	size  int
	next  int   // where the next byte goes, once the ring is full
	total int64 // bytes ever written
}

func newTailBuffer(size int) *tailBuffer {
	return &tailBuffer{size: size}
}

func (t *tailBuffer) Write(p []byte) {
	t.total += int64(len(p))
	if len(t.ring) < t.size {
		n := min(len(p), t.size-len(t.ring))
		if len(t.ring)+n > cap(t.ring) {
			grown := make([]byte, len(t.ring), min(max(2*cap(t.ring), len(t.ring)+n, 512), t.size))
			copy(grown, t.ring)
			t.ring = grown
		}
		t.ring = append(t.ring, p[:n]...)
		p = p[n:]
		if len(p) == 0 {
			return
		}
	}
	if len(p) >= len(t.ring) {
		copy(t.ring, p[len(p)-len(t.ring):])
		t.next = 0
		return
	}
	for len(p) > 0 {
		n := copy(t.ring[t.next:], p)
		t.next = (t.next + n) % len(t.ring)
		p = p[n:]
	}
}

// Bytes returns the kept bytes, oldest first, and whether older ones were dropped.
func (t *tailBuffer) Bytes() ([]byte, bool) {
	if t.total <= int64(t.size) {
		return t.ring, false
	}
	out := make([]byte, 0, len(t.ring))
	out = append(out, t.ring[t.next:]...)
	return append(out, t.ring[:t.next]...), true
}

// String renders the tail for reports: the last lines as a terminal would show them.
func (t *tailBuffer) String() string {
	raw, truncated := t.Bytes()
	return renderTail(raw, truncated, tailMaxLines, tailMaxBytes)
}

// renderTail returns the last maxLines lines of raw, at most maxBytes, as clean text (see
// termtext.Clean: no escape sequences or control characters, progress bars settled), trailing
// whitespace trimmed and blank lines at either end dropped. The JSON report stores it clean; the
// renderers clean again only because `gauntlet status` reads a report back from a file.
func renderTail(raw []byte, truncated bool, maxLines, maxBytes int) string {
	if truncated {
		// The first line was cut by the ring.
		if i := bytes.IndexByte(raw, '\n'); i >= 0 {
			raw = raw[i+1:]
		}
	}
	lines := strings.Split(termtext.Clean(string(raw)), "\n")
	for i, line := range lines {
		lines[i] = strings.TrimRightFunc(line, unicode.IsSpace)
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) > maxLines {
		lines = lines[len(lines)-maxLines:]
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	return lastBytes(lines, maxBytes)
}

// lastBytes joins the last whole lines that fit in maxBytes; when not even the last line fits,
// it keeps that line's end, cut at a character boundary.
func lastBytes(lines []string, maxBytes int) string {
	size, first := 0, len(lines)
	for first > 0 {
		n := len(lines[first-1])
		if first < len(lines) {
			n++ // the newline joining it to the next line
		}
		if size+n > maxBytes {
			break
		}
		size += n
		first--
	}
	if first == len(lines) && first > 0 {
		return termtext.LastBytes(lines[first-1], maxBytes)
	}
	return strings.Join(lines[first:], "\n")
}
