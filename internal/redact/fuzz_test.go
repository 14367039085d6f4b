package redact

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Whatever the secrets and the text, Text and Line give clean text that holds no secret value in
// any form the redactor hides: as written, trimmed, or line by line. Marks are blanked before
// looking, since a secret that only appears by running into a mark ("ED]x" after "[REDACTED]")
// is made of the mark, not shown.
func FuzzRedact(f *testing.F) {
	f.Add("ghp_abcdef123456", "-----BEGIN KEY-----\nMIIBOgIBAAJBAK\n-----END KEY-----", "token ghp_abcdef123456 and MIIBOgIBAAJBAK\n")
	f.Add("two  words\there", "31999", "said two words here 31999\r\n")
	f.Add("abcdef", "xxabcdefxx", "xxabcdefxx abcdef \x1b[31mabc\x1b[0mdef")
	f.Add("ED]abcdef", "REDACTED", "[REDACTED] ED]abcdef")
	f.Add("a\x00b\u009bcdefgh", " lead", "ab\u009bcdefgh")
	f.Fuzz(func(t *testing.T, s1, s2, text string) {
		values := []string{s1, s2}
		r := New(Rules{Names: []string{"NAMED"}}, []string{"API_TOKEN=" + s1, "NAMED=" + s2})
		for _, out := range []string{r.Text(text), r.Line(text)} {
			if !utf8.ValidString(out) || strings.ContainsFunc(out, func(c rune) bool {
				return c != '\n' && c != '\t' && (c < 0x20 || c == 0x7f || c >= 0x80 && c <= 0x9f)
			}) {
				t.Fatalf("output %q is not clean", out)
			}
			shown := strings.ReplaceAll(out, Mark, "\x00")
			for _, v := range values {
				forms := []string{v, strings.TrimSpace(v)}
				for line := range strings.Lines(v) {
					forms = append(forms, strings.TrimSpace(line))
				}
				for _, form := range forms {
					if SecretValue(form) && strings.Contains(shown, form) {
						t.Fatalf("output %q holds the secret %q", out, form)
					}
				}
			}
		}
	})
}
