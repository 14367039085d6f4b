package integrity

import (
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A JavaScript config (jest.config.js, vitest.config.ts) cannot be run here, but what selects
// the tests is nearly always written literally in it: object keys, strings and lists of
// strings. jsLiteralTree reads that much into the same kind of tree the parsed formats give, so
// the same comparisons apply; anything computed is left out.

// jsToken is one token of JavaScript: a string's value, or the text of a word or punctuation.
type jsToken struct {
	text   string
	str    bool // a string literal (quotes removed)
	offset int  // where it starts in the source
}

// jsTokens splits JavaScript into tokens, dropping comments; a regular expression literal is
// one string token, so that its brackets and slashes are not read as code.
func jsTokens(src string) []jsToken {
	var out []jsToken
	for i := 0; i < len(src); {
		next, tok, ok := jsNextToken(src, i, jsRegexCanFollow(out))
		if ok {
			out = append(out, tok)
		}
		i = next
	}
	return out
}

// jsRegexCanFollow says whether a / after these tokens starts a regular expression literal
// rather than a division.
func jsRegexCanFollow(toks []jsToken) bool {
	if len(toks) == 0 {
		return true
	}
	last := toks[len(toks)-1]
	return !last.str && strings.Contains("(,:[=!&|?{};", last.text)
}

// jsNextToken reads what starts at i: the token there (none for space and comments) and where
// the next starts.
func jsNextToken(src string, i int, regexAllowed bool) (next int, tok jsToken, ok bool) {
	c := src[i]
	switch {
	case strings.IndexByte(" \t\n\r", c) >= 0:
		return i + 1, jsToken{}, false
	case strings.HasPrefix(src[i:], "//"):
		return jsSkipTo(src, i, "\n"), jsToken{}, false
	case strings.HasPrefix(src[i:], "/*"):
		return jsSkipTo(src, i+2, "*/"), jsToken{}, false
	case strings.IndexByte("\"'`", c) >= 0 || c == '/' && regexAllowed:
		end, value := jsQuoted(src, i)
		return end, jsToken{text: value, str: true, offset: i}, true
	case strings.HasPrefix(src[i:], "..."):
		return i + 3, jsToken{text: "...", offset: i}, true
	case isJSWordByte(c):
		j := i
		for j < len(src) && isJSWordByte(src[j]) {
			j++
		}
		return j, jsToken{text: src[i:j], offset: i}, true
	}
	return i + 1, jsToken{text: string(c), offset: i}, true
}

func jsSkipTo(src string, i int, end string) int {
	if k := strings.Index(src[i:], end); k >= 0 {
		return i + k + len(end)
	}
	return len(src)
}

// jsQuoted reads the string (or regular expression) literal at i: where it ends, and its value.
func jsQuoted(src string, i int) (int, string) {
	quote := src[i]
	regex := quote == '/'
	var b strings.Builder
	inClass := false
	for k := i + 1; k < len(src); k++ {
		c := src[k]
		switch {
		case c == '\\' && k+1 < len(src):
			if regex {
				b.WriteByte(c) // a regular expression keeps its escapes
			}
			k++
			b.WriteByte(src[k])
		case regex && (c == '[' || c == ']'):
			inClass = c == '['
			b.WriteByte(c)
		case c == quote && !inClass:
			return jsFlagsEnd(src, k+1, regex), b.String()
		case c == '\n' && quote != '`':
			return k, b.String() // unterminated: stop at the line's end
		default:
			b.WriteByte(c)
		}
	}
	return len(src), b.String()
}

// jsFlagsEnd is where a literal closing before k ends: past a regular expression's flags.
func jsFlagsEnd(src string, k int, regex bool) int {
	for regex && k < len(src) && isJSWordByte(src[k]) {
		k++
	}
	return k
}

func isJSWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// jsParser reads values from tokens; pos always advances, so every loop ends.
type jsParser struct {
	toks  []jsToken
	pos   int
	depth int              // how many objects and lists the parser is in
	top   []map[string]any // the outermost objects found, in order
}

func (p *jsParser) peek() string {
	if p.pos < len(p.toks) && !p.toks[p.pos].str {
		return p.toks[p.pos].text
	}
	return ""
}

// pastItem steps over the comma after an item, or over a token nothing could read (the item
// started at before): so that every loop advances.
func (p *jsParser) pastItem(before int) {
	if p.peek() == "," || p.pos == before {
		p.pos++
	}
}

// isPunct says a token is one of the punctuation texts (no string that reads the same).
func isPunct(t jsToken, texts ...string) bool {
	return !t.str && slices.Contains(texts, t.text)
}

// jsLiteralTree reads the object literals of a JavaScript config into one tree: every outermost
// object, including those passed to calls (defineConfig({...})), merged.
func jsLiteralTree(data []byte) map[string]any {
	p := &jsParser{toks: jsTokens(string(data))}
	for p.pos < len(p.toks) {
		before := p.pos
		if m, ok := p.value().(map[string]any); ok {
			p.top = append(p.top, m)
		}
		if p.pos == before {
			p.pos++
		}
	}
	out := map[string]any{}
	for _, m := range p.top {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// value reads one value: an object, a list, a literal, or an expression whose value is the last
// object among its call arguments (nil when it has none).
func (p *jsParser) value() any {
	if p.pos >= len(p.toks) {
		return nil
	}
	t := p.toks[p.pos]
	switch {
	case t.str:
		p.pos++
		if p.peek() == "" || strings.Contains(",}])", p.peek()) {
			return t.text
		}
		p.expression() // "a" + b
		return nil
	case t.text == "{":
		return p.object()
	case t.text == "[":
		return p.list()
	}
	return p.expression()
}

// jsClosing is the bracket that closes an opening one, in an expression.
var jsClosing = sync.OnceValue(func() map[string]string {
	return map[string]string{"(": ")", "[": "]"}
})

// expression reads up to the , } ] or ) that ends it; objects inside calls and parentheses are
// read as values.
func (p *jsParser) expression() any {
	var found any
	var literal any
	n := 0
	for ; p.pos < len(p.toks) && !isPunct(p.toks[p.pos], ",", "}", "]", ")", ";"); n++ {
		t := p.toks[p.pos]
		switch {
		case isPunct(t, "(", "["):
			if m := p.bracketed(jsClosing()[t.text]); m != nil {
				found = m
			}
		case isPunct(t, "{"):
			if m, ok := p.object().(map[string]any); ok {
				found = p.found(m)
			}
		default:
			literal = jsScalar(t)
			p.pos++
		}
	}
	if found == nil && n == 1 {
		return literal
	}
	return found
}

// bracketed reads from an opening bracket past its closing one: the last object among the
// values inside, nil when there is none.
func (p *jsParser) bracketed(closing string) map[string]any {
	var found map[string]any
	p.pos++
	for p.pos < len(p.toks) && p.peek() != closing {
		before := p.pos
		if m, ok := p.value().(map[string]any); ok {
			found = p.found(m)
		}
		p.pastItem(before)
	}
	p.pos++
	return found
}

// found notes an object an expression holds: outside every object and list, it is one of the
// file's outermost (a statement's, or a call's argument there).
func (p *jsParser) found(m map[string]any) map[string]any {
	if p.depth == 0 {
		p.top = append(p.top, m)
	}
	return m
}

func jsScalar(t jsToken) any {
	switch t.text {
	case "true":
		return true
	case "false":
		return false
	}
	if f, err := strconv.ParseFloat(t.text, 64); err == nil {
		return f
	}
	return nil
}

// object reads { key: value, ... }; spreads, computed keys and methods are skipped.
func (p *jsParser) object() any {
	out := map[string]any{}
	p.pos++ // {
	p.depth++
	defer func() { p.depth-- }()
	for p.pos < len(p.toks) && p.peek() != "}" {
		before := p.pos
		t := p.toks[p.pos]
		switch {
		case isPunct(t, "..."):
			p.pos++
			p.value()
		case isPunct(t, "["):
			p.list() // a computed key
			if p.peek() == ":" {
				p.pos++
				p.value()
			}
		case isPunct(t, "{", "("):
			p.value() // no key: a block of a method's body, read past whole
		default:
			p.property(t.text, out)
		}
		p.pastItem(before)
	}
	p.pos++ // }
	return out
}

// property reads what follows a key: its value, or a method's parameters and body.
func (p *jsParser) property(key string, out map[string]any) {
	p.pos++
	switch p.peek() {
	case ":":
		p.pos++
		if v := p.value(); v != nil {
			out[key] = v
		}
	case "(":
		p.expression() // a method: its parameters and its body
	}
}

// list reads [ value, ... ]; spreads and values that are not literal are left out.
func (p *jsParser) list() any {
	out := []any{}
	p.pos++ // [
	p.depth++
	defer func() { p.depth-- }()
	for p.pos < len(p.toks) && p.peek() != "]" {
		before := p.pos
		if p.peek() == "..." {
			p.pos++
			p.value()
		} else if v := p.value(); v != nil {
			out = append(out, v)
		}
		p.pastItem(before)
	}
	p.pos++ // ]
	return out
}
