package scaffold

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// yamlString writes s as a YAML scalar on one line that reads back as exactly s, in block and in
// flow context. The style is ours: plain only when that cannot be mistaken for anything else,
// so that a generated file reads the same whatever the words; single-quoted otherwise. The
// quoting and escaping are yaml's, with double quotes where single quotes cannot hold s on one
// line (line breaks). Invalid UTF-8 cannot be written in YAML at all; such bytes come back as
// U+FFFD.
func yamlString(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if plainSafe(s) {
		return s
	}
	// Single quotes fold a line break into the next line; double quotes escape it, on one line.
	if out := yamlScalar(s, yaml.SingleQuotedStyle); !strings.Contains(out, "\n") {
		return out
	}
	return yamlScalar(s, yaml.DoubleQuotedStyle)
}

// yamlScalar is s written by yaml in style, without the document's final line break. yaml fails
// only on invalid UTF-8, which yamlString removed first.
func yamlScalar(s string, style yaml.Style) string {
	out, err := yaml.Marshal(&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Style: style})
	if err != nil {
		return strconv.Quote(s)
	}
	return strings.TrimSuffix(string(out), "\n")
}

// reserved are plain words that YAML 1.1 or 1.2 readers may take for a boolean or null.
var reserved = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"true": true, "false": true, "yes": true, "no": true, "on": true, "off": true,
		"y": true, "n": true, "null": true,
	}
})

// plainSafe is deliberately narrow: a letter or '/' first (so never a number, an indicator or a
// directive), then only characters that mean nothing to YAML in any context, spaces inside.
func plainSafe(s string) bool {
	if s == "" || reserved()[strings.ToLower(s)] || strings.HasSuffix(s, " ") {
		return false
	}
	first, _ := utf8.DecodeRuneInString(s)
	return (asciiLetter(first) || first == '/') && !strings.ContainsFunc(s, notPlain)
}

// asciiLetter reports whether r is a letter of the English alphabet.
func asciiLetter(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

// notPlain reports whether r may mean something to YAML in some context: anything but a letter,
// a digit, a space and "/._-".
func notPlain(r rune) bool {
	return !asciiLetter(r) && !(r >= '0' && r <= '9') && !strings.ContainsRune("/._- ", r)
}

// yamlFlowList writes items as a one-line YAML sequence: ["a", "b"].
func yamlFlowList(items []string) string {
	quoted := make([]string, len(items))
	for i, it := range items {
		quoted[i] = yamlString(it)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}
