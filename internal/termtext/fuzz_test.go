package termtext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func addTermSeeds(f *testing.F) {
	for _, s := range []string{
		"", "plain", "\x1b[31mred\x1b[0m", "\x1b]8;;http://x\x07link\x1b]8;;\x1b\\", "\x1b", "\x1b[", "\x1b]0;title",
		"a\rb\r\nc", "bell\a nul\x00 del\x7f", "c1 \u009b31m \u0085", string([]byte{0xff, 0xfe, 0x1b, '[', 0xc2}),
		"\x1b(B\x1b#8\x1b%G", "\x1bP+q\x1b\\", "tab\there\nline", "\x1b[?25l\x1b[2K\x1b[1A",
	} {
		f.Add(s)
	}
}

// Whatever a gate prints, Clean and Line give text that is safe to show: valid UTF-8, no escape,
// no control character but newline and tab (Line: not even those), no C1 control.
func FuzzClean(f *testing.F) {
	addTermSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		clean := Clean(s)
		assertShowable(t, "Clean", clean, "\n\t")
		line := Line(s)
		assertShowable(t, "Line", line, "")
		if strings.HasPrefix(line, " ") || strings.HasSuffix(line, " ") || strings.Contains(line, "  ") {
			t.Errorf("Line(%q) = %q: whitespace not collapsed", s, line)
		}
		if Clean(clean) != clean {
			t.Errorf("Clean is not idempotent on %q: %q then %q", s, clean, Clean(clean))
		}
		for _, n := range []int{0, 1, 3, 10} {
			if c := Cap(clean, n); len(c) > n || !utf8.ValidString(c) {
				t.Errorf("Cap(%q, %d) = %q", clean, n, c)
			}
		}
	})
}

// Strip removes every escape sequence: no ESC byte survives, and text without ESC is untouched.
func FuzzStrip(f *testing.F) {
	addTermSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		out := Strip(nil, []byte(s))
		if i := strings.IndexByte(string(out), 0x1b); i >= 0 {
			t.Errorf("Strip(%q) = %q: ESC at %d", s, out, i)
		}
		if !strings.Contains(s, "\x1b") && string(out) != s {
			t.Errorf("Strip(%q) = %q: text without escapes changed", s, out)
		}
		if StripString(s) != string(out) {
			t.Errorf("StripString(%q) = %q, Strip gave %q", s, StripString(s), out)
		}
	})
}

func assertShowable(t *testing.T, fn, s, allowed string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("%s output %q is not valid UTF-8", fn, s)
	}
	for _, r := range s {
		if strings.ContainsRune(allowed, r) {
			continue
		}
		if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f {
			t.Fatalf("%s output %q holds control character %U", fn, s, r)
		}
	}
}
