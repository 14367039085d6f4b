package snapshot

import (
	"fmt"
	"strconv"
	"strings"
)

// headerPath returns the path of a "diff --git a/X b/X" line as Diff produces it (no renames,
// so both names are the same), undoing git's C-style quoting.
func headerPath(line string) (string, bool) {
	rest, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), "diff --git ")
	if !ok {
		return "", false
	}
	if strings.HasPrefix(rest, `"`) {
		name, _, ok := cutQuoted(rest)
		if !ok {
			return "", false
		}
		return strings.CutPrefix(name, "a/")
	}
	return splitSameNames(rest)
}

// splitSameNames reads "a/X b/X": the two halves have the same length, which finds the split
// even when X has spaces.
func splitSameNames(rest string) (string, bool) {
	if len(rest) < 7 || (len(rest)-5)%2 != 0 {
		return "", false
	}
	n := (len(rest) - 5) / 2
	a, sep, b := rest[:2+n], rest[2+n:5+n], rest[5+n:]
	if !strings.HasPrefix(a, "a/") || sep != " b/" || a[2:] != b {
		return "", false
	}
	return b, true
}

// patchLinePath returns the path of a "--- a/X" or "+++ b/X" line's name part; "" for /dev/null.
func patchLinePath(name string) string {
	name = strings.TrimSuffix(strings.TrimRight(name, "\r\n"), "\t")
	if name == "/dev/null" {
		return ""
	}
	if strings.HasPrefix(name, `"`) {
		if unq, _, ok := cutQuoted(name); ok {
			name = unq
		}
	}
	if len(name) > 2 && (name[:2] == "a/" || name[:2] == "b/") {
		return name[2:]
	}
	return name
}

// cutQuoted unquotes the C-quoted string at the start of s and returns what follows it.
func cutQuoted(s string) (unquoted, rest string, ok bool) {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			// git's escapes (\t, \n, \", \\, \ooo octal bytes) are Go's too.
			u, err := strconv.Unquote(s[:i+1])
			if err != nil {
				return "", "", false
			}
			return u, s[i+1:], true
		}
	}
	return "", "", false
}

// quotePath quotes a path the way git does when it has characters a patch line cannot carry.
func quotePath(p string) string {
	if !strings.ContainsFunc(p, needsQuoting) {
		return p
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); i++ {
		writeQuotedByte(&b, p[i])
	}
	b.WriteByte('"')
	return b.String()
}

// needsQuoting reports a character git quotes in a path: a control character, " or \.
func needsQuoting(r rune) bool { return r < 0x20 || r == '"' || r == '\\' || r == 0x7f }

// writeQuotedByte writes one byte of a quoted path as git does: escaped, in octal, or as it is.
func writeQuotedByte(b *strings.Builder, c byte) {
	switch {
	case c == '"' || c == '\\':
		b.WriteByte('\\')
		b.WriteByte(c)
	case c == '\t':
		b.WriteString(`\t`)
	case c == '\n':
		b.WriteString(`\n`)
	case c < 0x20 || c == 0x7f:
		fmt.Fprintf(b, `\%03o`, c)
	default:
		b.WriteByte(c)
	}
}

// PatchPath is the path named by a patch's "--- a/X", "+++ b/X", "rename from X" or "rename to
// X" line (the part after the keyword), unquoted; "" for /dev/null.
func PatchPath(name string) string { return patchLinePath(name) }
