package main

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// vtScreen is the little of a terminal the live view relies on, so that a script asserts what a
// user sees rather than the bytes that draw it: printable runes that wrap at the width, carriage
// return, line feed, backspace, and the CSI sequences for cursor moves and erasing. Colours and
// other sequences are read and dropped. Rows that scroll off the top stay, as a terminal's
// scrollback does, but the cursor can no longer reach them.
type vtScreen struct {
	width, height int
	lines         [][]rune
	row, col      int
	top           int  // first row the cursor can reach: the screen's top after scrolling
	wrapNext      bool // the last column was written: the next rune goes to the next row
	esc           []byte
	partial       []byte // the start of a rune the next write ends
	// wraps counts the rows a line too wide for the screen spilled onto.
	wraps int
}

func newVTScreen(width, height int) *vtScreen {
	return &vtScreen{width: width, height: height, lines: [][]rune{nil}}
}

// Write feeds the terminal stream; a rune or a sequence split across writes (as reads from a
// pty split them) is kept until it ends.
func (s *vtScreen) Write(p []byte) (int, error) {
	b := append(s.partial, p...)
	for len(b) > 0 && utf8.FullRune(b) {
		r, n := utf8.DecodeRune(b)
		s.put(r)
		b = b[n:]
	}
	s.partial = append([]byte(nil), b...)
	return len(p), nil
}

func (s *vtScreen) put(r rune) {
	if s.esc != nil {
		s.escape(r)
		return
	}
	switch r {
	case '\x1b':
		s.esc = []byte{}
	case '\r':
		s.col, s.wrapNext = 0, false
	case '\n':
		s.lineFeed()
	case '\b':
		s.col, s.wrapNext = max(s.col-1, 0), false
	case '\t':
		s.col = min((s.col/8+1)*8, s.width-1)
	case '\a':
	default:
		if r < ' ' {
			return
		}
		s.print(r)
	}
}

func (s *vtScreen) print(r rune) {
	if s.wrapNext {
		s.wraps++
		s.col, s.wrapNext = 0, false
		s.lineFeed()
	}
	line := s.lines[s.row]
	for len(line) <= s.col {
		line = append(line, ' ')
	}
	line[s.col] = r
	s.lines[s.row] = line
	if s.col == s.width-1 {
		s.wrapNext = true
	} else {
		s.col++
	}
}

func (s *vtScreen) lineFeed() {
	s.wrapNext = false
	s.row++
	if s.row == len(s.lines) {
		s.lines = append(s.lines, nil)
	}
	if s.row-s.top >= s.height {
		s.top = s.row - s.height + 1
	}
}

// escape collects an escape sequence: CSI (ESC [ ... final byte) is applied, OSC (ESC ] ... BEL
// or ESC \) and two-byte sequences are dropped.
func (s *vtScreen) escape(r rune) {
	s.esc = append(s.esc, string(r)...)
	switch {
	case len(s.esc) == 1 && r != '[' && r != ']':
		s.esc = nil // ESC x: nothing the view uses
	case s.esc[0] == ']':
		if r == '\a' || strings.HasSuffix(string(s.esc), "\x1b\\") {
			s.esc = nil
		}
	case len(s.esc) > 1 && r >= 0x40 && r <= 0x7e:
		s.csi(string(s.esc[1:len(s.esc)-1]), r)
		s.esc = nil
	}
}

func (s *vtScreen) csi(params string, final rune) {
	if strings.HasPrefix(params, "?") {
		return // private modes: cursor visibility and the like
	}
	n, _ := strconv.Atoi(strings.Split(params, ";")[0])
	s.wrapNext = false
	switch final {
	case 'A':
		s.row = max(s.row-max(n, 1), s.top)
	case 'B':
		for range max(n, 1) {
			s.lineFeed()
		}
	case 'C':
		s.col = min(s.col+max(n, 1), s.width-1)
	case 'D':
		s.col = max(s.col-max(n, 1), 0)
	case 'G':
		s.col = min(max(n, 1), s.width) - 1
	case 'K':
		s.eraseLine(n)
	case 'J':
		s.eraseDisplay(n)
	}
}

func (s *vtScreen) eraseLine(mode int) {
	line := s.lines[s.row]
	switch mode {
	case 0:
		if s.col < len(line) {
			s.lines[s.row] = line[:s.col]
		}
	case 1:
		for i := 0; i <= s.col && i < len(line); i++ {
			line[i] = ' '
		}
	default:
		s.lines[s.row] = nil
	}
}

func (s *vtScreen) eraseDisplay(mode int) {
	s.eraseLine(mode)
	if mode == 0 {
		s.lines = s.lines[:s.row+1]
	}
}

// String is the screen and its scrollback, each row without trailing blanks, the last row
// dropped when empty (where the cursor waits after the final newline).
func (s *vtScreen) String() string {
	rows := make([]string, len(s.lines))
	for i, l := range s.lines {
		rows[i] = strings.TrimRight(string(l), " ")
	}
	if len(rows) > 0 && rows[len(rows)-1] == "" {
		rows = rows[:len(rows)-1]
	}
	if len(rows) == 0 {
		return ""
	}
	return strings.Join(rows, "\n") + "\n"
}

func TestVTScreen(t *testing.T) {
	cases := []struct {
		name, stream, want string
		width, wraps       int
	}{
		{name: "plain lines", stream: "a\nb\n", want: "a\nb\n", width: 10},
		{name: "a block redrawn in place",
			stream: "\r\x1b[2Krunning  x\n\r\x1b[2K0 of 1 done\n\x1b[2A\r\x1b[2K\x1b[32mpass\x1b[0m     x\n\r\x1b[2K1 of 1 done\n",
			want:   "pass     x\n1 of 1 done\n", width: 20},
		{name: "runes and sequences split across writes", stream: "x—y\r\x1b[2K\x1b[1mé\x1b[0m\n", want: "é\n", width: 10},
		{name: "a line as wide as the screen does not wrap", stream: "abcd\n", want: "abcd\n", width: 4},
		{name: "a wider line wraps", stream: "abcdef\n", want: "abcd\nef\n", width: 4, wraps: 1},
		{name: "erase to the end of the line", stream: "abcdef\rab\x1b[K\n", want: "ab\n", width: 10},
		{name: "a hyperlink's OSC is dropped", stream: "\x1b]8;;file:///x\x1b\\log\x1b]8;;\x1b\\\n", want: "log\n", width: 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// The pty's line discipline turns each newline into CR LF.
			stream := strings.ReplaceAll(c.stream, "\n", "\r\n")
			whole, bytewise := newVTScreen(c.width, 24), newVTScreen(c.width, 24)
			_, _ = whole.Write([]byte(stream))
			for i := range len(stream) {
				_, _ = bytewise.Write([]byte{stream[i]})
			}
			for _, s := range []*vtScreen{whole, bytewise} {
				if got := s.String(); got != c.want {
					t.Errorf("screen:\n%q\nwant:\n%q", got, c.want)
				}
				if s.wraps != c.wraps {
					t.Errorf("wraps = %d, want %d", s.wraps, c.wraps)
				}
			}
		})
	}
}

func TestVTScreenCursorStaysOnScreen(t *testing.T) {
	s := newVTScreen(10, 2)
	_, _ = s.Write([]byte("a\r\nb\r\nc\r\n\x1b[9Ax\r\n"))
	// Three rows in a two-row terminal: the cursor can climb to "c", not to the scrolled-off rows.
	if got, want := s.String(), "a\nb\nx\n"; got != want {
		t.Errorf("screen %q, want %q", got, want)
	}
}
