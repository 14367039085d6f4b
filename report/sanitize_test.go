package report

import "testing"

func TestCleanText(t *testing.T) {
	tests := []struct {
		name       string
		in         string
		keepColour bool
		want       string
	}{
		{"plain", "a\tb\nc", false, "a\tb\nc"},
		{"colour stripped", "\x1b[31;1mFAIL\x1b[0m ok", false, "FAIL ok"},
		{"colour kept", "\x1b[31mFAIL\x1b[0m", true, "\x1b[31mFAIL\x1b[0m"},
		{"cursor movement stripped even with colour", "a\x1b[2K\x1b[1Ab", true, "ab"},
		{"title sequence", "\x1b]0;title\x07text", false, "text"},
		{"unterminated osc ends at the line", "\x1b]8;;http://x\nnext", false, "\nnext"},
		{"device control string", "a\x1bPq#0;2;0;0;0\x1b\\b", false, "ab"},
		{"lone escape", "a\x1bb", false, "a"},
		{"crlf", "one\r\ntwo\r\n", false, "one\ntwo\n"},
		{"progress overwrite", "10%\r50%\r100%\ndone", false, "100%\ndone"},
		{"control characters", "a\x00b\x07c\x7fd\u0085e", false, "abcde"},
		{"invalid utf-8", "a\xffb", false, "a\uFFFDb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cleanText(tt.in, tt.keepColour); got != tt.want {
				t.Errorf("cleanText(%q, %v) = %q, want %q", tt.in, tt.keepColour, got, tt.want)
			}
		})
	}
}

func TestCleanLine(t *testing.T) {
	if got, want := cleanLine("exit status 1:\n  infra\tproblem\r\n"), "exit status 1: infra problem"; got != want {
		t.Errorf("cleanLine = %q, want %q", got, want)
	}
}

func TestXMLText(t *testing.T) {
	if got, want := xmlText("a\x01b\uFFFEc\x1b[31md\n"), "abcd\n"; got != want {
		t.Errorf("xmlText = %q, want %q", got, want)
	}
}
