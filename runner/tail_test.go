package runner

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTailBufferKeepsLastBytes(t *testing.T) {
	tests := []struct {
		name      string
		writes    []string
		want      string
		truncated bool
	}{
		{"empty", nil, "", false},
		{"fits", []string{"ab", "cd"}, "abcd", false},
		{"exactly full", []string{"abcdefgh"}, "abcdefgh", false},
		{"wraps", []string{"abcde", "fghij"}, "cdefghij", true},
		{"one big write", []string{"0123456789abc"}, "56789abc", true},
		{"many small writes", strings.Split("abcdefghijklmnopqrstuvwxyz", ""), "stuvwxyz", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tb := newTailBuffer(8)
			for _, w := range tc.writes {
				tb.Write([]byte(w))
			}
			got, truncated := tb.Bytes()
			if string(got) != tc.want || truncated != tc.truncated {
				t.Errorf("got %q truncated=%v, want %q %v", got, truncated, tc.want, tc.truncated)
			}
		})
	}
}

func TestRenderTail(t *testing.T) {
	var hundred []string
	for i := 1; i <= 100; i++ {
		hundred = append(hundred, fmt.Sprintf("line %d", i))
	}
	tests := []struct {
		name      string
		raw       string
		truncated bool
		maxLines  int
		maxBytes  int
		want      string
	}{
		{"last lines", strings.Join(hundred, "\n") + "\n", false, 3, 100, "line 98\nline 99\nline 100"},
		{"escapes and trailing space", "\x1b[32mok\x1b[0m   \n\x1b[31mFAIL\x1b[0m\t\n", false, 40, 100, "ok\nFAIL"},
		{"blank lines at both ends", "\n\n  \nx\n\n\n", false, 40, 100, "x"},
		{"carriage return redraws", "10%\r50%\r100%\r\ndone\r\n", false, 40, 100, "100%\ndone"},
		{"cut first line dropped", "ial line\nwhole\n", true, 40, 100, "whole"},
		{"cut single line kept", "no newline at all", true, 40, 100, "no newline at all"},
		{"byte cap keeps whole lines", "aaaa\nbbbb\ncccc\n", false, 40, 10, "bbbb\ncccc"},
		{"byte cap cuts one long line", "short\n0123456789", false, 40, 4, "6789"},
		{"byte cap respects characters", "ééé", false, 40, 3, "é"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := renderTail([]byte(tc.raw), tc.truncated, tc.maxLines, tc.maxBytes); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestTailStringIsBounded(t *testing.T) {
	tb := newTailBuffer(tailBufferBytes)
	line := strings.Repeat("é", 300) + "\n" // 600 bytes: 40 lines exceed 8 KiB
	for range 1000 {
		tb.Write([]byte(line))
	}
	got := tb.String()
	if len(got) > tailMaxBytes || strings.Count(got, "\n")+1 > tailMaxLines || !utf8.ValidString(got) {
		t.Errorf("tail of %d bytes and %d lines, valid UTF-8 %v", len(got), strings.Count(got, "\n")+1, utf8.ValidString(got))
	}
	if !strings.HasSuffix(got, strings.TrimSuffix(line, "\n")) || strings.Count(got, "\n") != tailMaxBytes/len(line)-1 {
		t.Errorf("tail does not hold the last whole lines that fit: %d lines", strings.Count(got, "\n")+1)
	}
}

// A gate that prints little must not cost the whole ring; one that prints much keeps the last
// bytes exactly, across the switch from growing to wrapping.
func TestTailBufferGrowsWithOutput(t *testing.T) {
	tb := newTailBuffer(1000)
	if cap(tb.ring) != 0 {
		t.Fatalf("an unused tail holds %d bytes", cap(tb.ring))
	}
	tb.Write([]byte("hello\n"))
	if c := cap(tb.ring); c >= 1000 {
		t.Errorf("6 bytes of output hold a %d-byte ring", c)
	}
	var all []byte
	for i := range 300 {
		line := []byte(fmt.Sprintf("line %d\n", i))
		all = append(all, line...)
		tb.Write(line)
	}
	got, truncated := tb.Bytes()
	want := append([]byte("hello\n"), all...)
	want = want[len(want)-1000:]
	if !truncated || string(got) != string(want) || cap(tb.ring) != 1000 {
		t.Errorf("tail = %q (truncated %v, cap %d), want the last 1000 bytes", got, truncated, cap(tb.ring))
	}
}
