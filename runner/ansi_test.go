package runner

import "testing"

func TestStripANSI(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "hello world", "hello world"},
		{"colour", "\x1b[1;31mFAIL\x1b[0m: x", "FAIL: x"},
		{"cursor and erase", "\x1b[2K\x1b[1Gdone", "done"},
		{"private mode", "\x1b[?25lhidden cursor\x1b[?25h", "hidden cursor"},
		{"title ended by BEL", "\x1b]0;title\x07text", "text"},
		{"hyperlink ended by ST", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"charset", "\x1b(Bascii", "ascii"},
		{"two-byte", "\x1b7saved\x1b8", "saved"},
		{"unterminated OSC keeps next line", "\x1b]0;title\nnext", "\nnext"},
		{"malformed CSI keeps newline", "\x1b[12\nnext", "\nnext"},
		{"ESC at end", "text\x1b", "text"},
		{"utf-8 untouched", "héllo ✓", "héllo ✓"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(stripANSI(nil, []byte(tc.in))); got != tc.want {
				t.Errorf("stripANSI(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
