// Package termtext turns what a gate printed for a terminal into plain text that reports, logs
// and agents can show: escape sequences removed, control characters dropped, progress bars settled.
package termtext

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

const esc = 0x1b

// Strip appends s to dst without terminal escape sequences (colours, cursor moves, window
// titles, hyperlinks). It works on bytes without allocating, because the runner calls it for
// every line a gate prints.
func Strip(dst, s []byte) []byte {
	for i := 0; i < len(s); {
		if s[i] != esc {
			dst = append(dst, s[i])
			i++
			continue
		}
		i = skipEscape(s, i)
	}
	return dst
}

// StripString is Strip for a string.
func StripString(s string) string {
	if !strings.Contains(s, "\x1b") {
		return s
	}
	return string(Strip(nil, []byte(s)))
}

// skipEscape returns the index just past the escape sequence starting at s[i] == ESC. A malformed
// sequence never swallows a newline, so one stray ESC cannot hide the rest of the output.
func skipEscape(s []byte, i int) int {
	if i+1 >= len(s) {
		return len(s)
	}
	switch s[i+1] {
	case '[':
		return skipCSI(s, i+2)
	case ']', 'P', 'X', '^', '_':
		return skipControlString(s, i+2)
	case '(', ')', '*', '+', '-', '.', '/', '#', '%': // character set and line attribute selection
		return min(i+3, len(s))
	default: // two-byte sequences such as ESC 7, ESC =, ESC c
		return i + 2
	}
}

// skipCSI skips a CSI's body from s[j]: parameter and intermediate bytes, then one final byte.
func skipCSI(s []byte, j int) int {
	for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
		j++
	}
	if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
		j++
	}
	return j
}

// skipControlString skips the string of an OSC, DCS, SOS, PM or APC from s[j]: ended by BEL or
// ESC \, or (malformed) before a newline.
func skipControlString(s []byte, j int) int {
	for ; j < len(s); j++ {
		switch {
		case s[j] == 0x07:
			return j + 1
		case s[j] == esc && j+1 < len(s) && s[j+1] == '\\':
			return j + 2
		case s[j] == '\n':
			return j
		}
	}
	return len(s)
}

// Clean makes gate-provided text safe to print: valid UTF-8, no escape sequences, no control
// characters but tab and newline. A carriage return inside a line is how progress bars overwrite
// themselves, so only the text after the last one is kept, as a terminal would show it.
func Clean(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	s = StripString(s)
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		line = strings.TrimSuffix(line, "\r")
		if cr := strings.LastIndexByte(line, '\r'); cr >= 0 {
			line = line[cr+1:]
		}
		lines[i] = strings.Map(dropControl, line)
	}
	return strings.Join(lines, "\n")
}

// Line is Clean for values shown on one line, such as a reason or a hint.
func Line(s string) string {
	return strings.Join(strings.Fields(Clean(s)), " ")
}

func dropControl(r rune) rune {
	if r == '\t' || r >= 0x20 && r != 0x7f && (r < 0x80 || r > 0x9f) {
		return r
	}
	return -1
}

// FirstBytes is the longest prefix of s of at most n bytes that ends on a character boundary.
func FirstBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// LastBytes is the longest suffix of s of at most n bytes that starts on a character boundary.
func LastBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}

// Cap shortens s to at most n bytes on a character boundary, ending it with "…" when cut.
func Cap(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const ellipsis = "…"
	if n < len(ellipsis) {
		return FirstBytes(s, n)
	}
	return FirstBytes(s, n-len(ellipsis)) + ellipsis
}

// Short is Line capped at n bytes: a value from a gate or a model, fit for a one-line reason.
func Short(s string, n int) string {
	return Cap(Line(s), n)
}

// Count phrases a count of a noun for people: "1 gate", "3 gates", "2 processes" (a noun ending
// in s, x, z, ch or sh takes -es).
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	for _, end := range []string{"s", "x", "z", "ch", "sh"} {
		if strings.HasSuffix(noun, end) {
			return strconv.Itoa(n) + " " + noun + "es"
		}
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
