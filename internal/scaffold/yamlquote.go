package scaffold

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// yamlString writes s as a YAML scalar that reads back as exactly s: plain when that cannot be
// mistaken for anything else, single-quoted when it has no control characters, double-quoted
// with escapes otherwise. The result is safe in block and in flow context. Invalid UTF-8 cannot
// be written in YAML at all; such bytes come back as U+FFFD.
func yamlString(s string) string {
	switch {
	case plainSafe(s):
		return s
	case singleQuotable(s):
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	default:
		return doubleQuoted(s)
	}
}

// reserved are plain words that YAML 1.1 or 1.2 readers may take for a boolean or null.
var reserved = map[string]bool{
	"true": true, "false": true, "yes": true, "no": true, "on": true, "off": true,
	"y": true, "n": true, "null": true,
}

// plainSafe is deliberately narrow: a letter or '/' first (so never a number, an indicator or a
// directive), then only characters that mean nothing to YAML in any context, spaces inside.
func plainSafe(s string) bool {
	if s == "" || reserved[strings.ToLower(s)] || strings.HasSuffix(s, " ") {
		return false
	}
	for i, r := range s {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if i == 0 && !letter && r != '/' {
			return false
		}
		if !letter && !(r >= '0' && r <= '9') && !strings.ContainsRune("/._- ", r) {
			return false
		}
	}
	return true
}

func singleQuotable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !printable(r) {
			return false
		}
	}
	return true
}

// printable is what YAML allows unescaped: no control characters, no BOM, no line or paragraph
// separators (a reader may fold them).
func printable(r rune) bool {
	return unicode.IsPrint(r) && r != '\uFEFF' || r == ' '
}

func doubleQuoted(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case printable(r):
			b.WriteRune(r)
		case r <= 0xFF:
			fmt.Fprintf(&b, `\x%02X`, r)
		case r <= 0xFFFF:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			fmt.Fprintf(&b, `\U%08X`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// yamlFlowList writes items as a one-line YAML sequence: ["a", "b"].
func yamlFlowList(items []string) string {
	quoted := make([]string, len(items))
	for i, it := range items {
		quoted[i] = yamlString(it)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}
