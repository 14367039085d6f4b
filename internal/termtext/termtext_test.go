package termtext

import "testing"

func TestStrip(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "hello world", "hello world"},
		{"colour", "\x1b[1;31mFAIL\x1b[0m: x", "FAIL: x"},
		{"cursor and erase", "\x1b[2K\x1b[1Gdone", "done"},
		{"private mode", "\x1b[?25lhidden cursor\x1b[?25h", "hidden cursor"},
		{"title ended by BEL", "\x1b]0;title\x07text", "text"},
		{"title ended by ST", "\x1b]0;title\x1b\\text", "text"},
		{"hyperlink ended by ST", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"hyperlink ended by BEL", "\x1b]8;;https://x.test\x07link\x1b]8;;\x07", "link"},
		{"device control string", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
		{"charset", "\x1b(Bascii", "ascii"},
		{"two-byte", "\x1b7saved\x1b8", "saved"},
		{"lone escape", "a\x1bb", "a"},
		{"unterminated OSC keeps next line", "\x1b]0;title\nnext", "\nnext"},
		{"malformed CSI keeps newline", "\x1b[12\nnext", "\nnext"},
		{"ESC at end", "text\x1b", "text"},
		{"utf-8 untouched", "héllo ✓", "héllo ✓"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(Strip(nil, []byte(tc.in))); got != tc.want {
				t.Errorf("Strip(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if got := StripString(tc.in); got != tc.want {
				t.Errorf("StripString(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestClean(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "a\tb\nc", "a\tb\nc"},
		{"colour stripped", "\x1b[31;1mFAIL\x1b[0m ok", "FAIL ok"},
		{"cursor movement", "a\x1b[2K\x1b[1Ab", "ab"},
		{"unterminated osc ends at the line", "\x1b]8;;http://x\nnext", "\nnext"},
		{"crlf", "one\r\ntwo\r\n", "one\ntwo\n"},
		{"progress overwrite", "10%\r50%\r100%\ndone", "100%\ndone"},
		{"control characters", "a\x00b\x07c\x7fd\u0085e", "abcde"},
		{"invalid utf-8", "a\xffb", "a\uFFFDb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Clean(tt.in); got != tt.want {
				t.Errorf("Clean(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestLine(t *testing.T) {
	if got, want := Line("exit status 1:\n  infra\tproblem\r\n"), "exit status 1: infra problem"; got != want {
		t.Errorf("Line = %q, want %q", got, want)
	}
}

func BenchmarkStripPlainLine(b *testing.B) {
	line := []byte("ok  \tgithub.com/example/project/internal/pkg\t0.123s\tcoverage: 81.2% of statements")
	dst := make([]byte, 0, len(line))
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		dst = Strip(dst[:0], line)
	}
}

func TestCutting(t *testing.T) {
	const s = "héllo wörld" // é and ö are two bytes each
	tests := []struct{ name, got, want string }{
		{"first whole", FirstBytes(s, 100), s},
		{"first inside é", FirstBytes(s, 2), "h"},
		{"first after é", FirstBytes(s, 3), "hé"},
		{"last whole", LastBytes(s, 100), s},
		{"last inside ö", LastBytes(s, 4), "rld"},
		{"last with ö", LastBytes(s, 5), "örld"},
		{"cap fits", Cap(s, 13), s},
		{"cap cut", Cap(s, 8), "héll…"},
		{"cap tiny", Cap(s, 2), "h"},
		{"short", Short("a\n  b\x1b[31m c\x07 d", 6), "a b…"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

func TestCount(t *testing.T) {
	for want, got := range map[string]string{
		"1 gate": Count(1, "gate"), "0 gates": Count(0, "gate"), "3 gates": Count(3, "gate"),
		"1 process": Count(1, "process"), "2 processes": Count(2, "process"), "4 matches": Count(4, "match"),
	} {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}
