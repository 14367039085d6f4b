package runner

import (
	"bytes"
	"strings"
	"testing"
)

func TestLineSplitter(t *testing.T) {
	long := strings.Repeat("x", maxLineBytes)
	tests := []struct {
		name  string
		input string
		want  []string
	}{
		{"lines", "a\nbb\n\nccc\n", []string{"a", "bb", "", "ccc"}},
		{"unterminated last line", "a\nrest", []string{"a", "rest"}},
		{"crlf", "a\r\nb\r\n", []string{"a", "b"}},
		// Windows programs end lines with CRLF, the last one too.
		{"crlf unterminated last line", "a\r\nlast\r", []string{"a", "last"}},
		{"crlf over the limit", long + "y\r\n", []string{long, "y"}},
		{"lone cr stays", "50%\r100%\n", []string{"50%\r100%"}},
		{"exactly the limit", long + "\nnext\n", []string{long, "next"}},
		{"over the limit", long + long + "yz\n", []string{long, long, "yz"}},
		{"over the limit unterminated", long + "y", []string{long, "y"}},
	}
	for _, tc := range tests {
		for _, chunk := range []int{1, 3, 4096, 1 << 20} {
			var got []string
			s := lineSplitter{emit: func(line []byte) { got = append(got, string(line)) }}
			for rest := []byte(tc.input); len(rest) > 0; {
				n := min(chunk, len(rest))
				s.Write(rest[:n])
				rest = rest[n:]
			}
			s.Flush()
			if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
				t.Errorf("%s, chunks of %d: got %d lines %.80q, want %d %.80q", tc.name, chunk, len(got), got, len(tc.want), tc.want)
			}
		}
	}
}

func TestLineSplitterBuffersAtMostOneLine(t *testing.T) {
	s := lineSplitter{emit: func([]byte) {}}
	chunk := bytes.Repeat([]byte("y"), 100_000)
	for range 50 {
		s.Write(chunk)
	}
	if cap(s.buf) > 2*maxLineBytes {
		t.Errorf("line buffer grew to %d bytes", cap(s.buf))
	}
}
