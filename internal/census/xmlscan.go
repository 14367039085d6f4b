package census

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// xmlScanner reads the elements of an XML stream and nothing else: text, comments, CDATA,
// processing instructions and DTDs are skipped without being kept, attribute values are cut at
// xmlMaxValue, and entities are never defined or expanded beyond XML's five and character
// references. encoding/xml holds every token whole (a failure message or <system-out> of
// hundreds of megabytes, a DTD) and expands nothing, but a JUnit report needs only element names
// and a few attributes; this scanner holds memory to its nesting. It agrees with encoding/xml on
// every document that one accepts (FuzzXMLScanner checks it).
type xmlScanner struct {
	r        *bufio.Reader
	stack    []string
	closeTop bool // the last start tag closed itself: its end comes next
}

type xmlToken struct {
	end   bool
	name  string // the local name: a namespace prefix is dropped
	attrs []xmlAttr
}

type xmlAttr struct{ name, value string }

const (
	xmlMaxDepth = 256
	xmlMaxName  = 256
	xmlMaxValue = 4096
	xmlMaxAttrs = 64
)

var errXMLTooDeep = errors.New("XML nested deeper than 256 elements")

func newXMLScanner(r io.Reader) *xmlScanner {
	return &xmlScanner{r: bufio.NewReaderSize(r, 64<<10)}
}

func (s *xmlScanner) depth() int { return len(s.stack) }

// next returns the next start or end of an element; io.EOF at the end of a whole document.
func (s *xmlScanner) next() (xmlToken, error) {
	if s.closeTop {
		s.closeTop = false
		name := s.stack[len(s.stack)-1]
		s.stack = s.stack[:len(s.stack)-1]
		return xmlToken{end: true, name: local(name)}, nil
	}
	for {
		if err := s.skipText(); err != nil {
			return xmlToken{}, err
		}
		c, err := s.r.ReadByte()
		if err != nil {
			return xmlToken{}, eof(err)
		}
		switch c {
		case '?':
			err = s.skipPast("?>")
		case '!':
			err = s.skipBang()
		case '/':
			return s.endTag()
		default:
			_ = s.r.UnreadByte()
			return s.startTag()
		}
		if err != nil {
			return xmlToken{}, err
		}
	}
}

// skipText skips text up to and including the next '<', a buffer at a time, never kept.
func (s *xmlScanner) skipText() error {
	_, err := s.r.ReadSlice('<')
	for errors.Is(err, bufio.ErrBufferFull) {
		_, err = s.r.ReadSlice('<')
	}
	if err == io.EOF && len(s.stack) > 0 {
		return fmt.Errorf("the XML ended inside <%s>: %w", s.stack[len(s.stack)-1], io.ErrUnexpectedEOF)
	}
	return err
}

func eof(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// local drops a name's namespace prefix, as encoding/xml does: "ns:testcase" is testcase, and
// a name with an empty side ("a:", ":a") is all local.
func local(name string) string {
	if space, l, ok := strings.Cut(name, ":"); ok && space != "" && l != "" && !strings.Contains(l, ":") {
		return l
	}
	return name
}

// skipPast reads up to and including end.
func (s *xmlScanner) skipPast(end string) error {
	matched := 0
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			return eof(err)
		}
		switch {
		case c == end[matched]:
			matched++
			if matched == len(end) {
				return nil
			}
		case c == end[0]:
			// Every end here is a run of one byte and a last one ("-->", "]]>", "?>"): one more
			// of the run ("--->") still ends the same way.
		default:
			matched = 0
		}
	}
}

// skipBang skips what follows "<!": a comment, a CDATA section or a declaration (a DOCTYPE
// with its internal subset, whose entities are not read).
func (s *xmlScanner) skipBang() error {
	if p, _ := s.r.Peek(2); string(p) == "--" {
		s.r.Discard(2)
		return s.skipPast("-->")
	}
	if p, _ := s.r.Peek(7); string(p) == "[CDATA[" {
		s.r.Discard(7)
		return s.skipPast("]]>")
	}
	return s.skipDeclaration()
}

// skipDeclaration skips a declaration as encoding/xml reads one: its first byte is its
// keyword's, never a quote or an end; quoted angle brackets do not nest.
func (s *xmlScanner) skipDeclaration() error {
	if _, err := s.r.ReadByte(); err != nil {
		return eof(err)
	}
	depth := 1
	var quote byte
	for depth > 0 {
		c, err := s.r.ReadByte()
		if err != nil {
			return eof(err)
		}
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '<':
			depth, err = s.declarationOpen(depth)
			if err != nil {
				return err
			}
		case c == '>':
			depth--
		}
	}
	return nil
}

// declarationOpen reads what follows a '<' inside a declaration: a comment skipped, else one
// more level of nesting.
func (s *xmlScanner) declarationOpen(depth int) (int, error) {
	if p, _ := s.r.Peek(3); string(p) == "!--" {
		s.r.Discard(3)
		return depth, s.skipPast("-->")
	}
	return depth + 1, nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (s *xmlScanner) skipSpace() (byte, error) {
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			return 0, eof(err)
		}
		if !isSpace(c) {
			return c, nil
		}
	}
}

// endsXMLName says whether c ends a name: a space, '/', '>' or '='.
func endsXMLName(c byte) bool { return isSpace(c) || c == '/' || c == '>' || c == '=' }

// name reads a name up to a space, '/', '>' or '='.
func (s *xmlScanner) name() (string, error) {
	var b []byte
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			return "", eof(err)
		}
		if endsXMLName(c) {
			_ = s.r.UnreadByte()
			break
		}
		if c == '<' || c == '"' || c == '\'' {
			return "", fmt.Errorf("unexpected %q in an XML name", c)
		}
		if len(b) >= xmlMaxName {
			return "", fmt.Errorf("an XML name longer than %d bytes", xmlMaxName)
		}
		b = append(b, c)
	}
	if len(b) == 0 {
		return "", errors.New("an XML tag without a name")
	}
	return string(b), nil
}

func (s *xmlScanner) endTag() (xmlToken, error) {
	name, err := s.name()
	if err != nil {
		return xmlToken{}, err
	}
	if c, err := s.skipSpace(); err != nil {
		return xmlToken{}, err
	} else if c != '>' {
		return xmlToken{}, fmt.Errorf("unexpected %q in </%s>", c, name)
	}
	if len(s.stack) == 0 || s.stack[len(s.stack)-1] != name {
		return xmlToken{}, fmt.Errorf("</%s> closes no open element", name)
	}
	s.stack = s.stack[:len(s.stack)-1]
	return xmlToken{end: true, name: local(name)}, nil
}

func (s *xmlScanner) startTag() (xmlToken, error) {
	name, err := s.name()
	if err != nil {
		return xmlToken{}, err
	}
	tok := xmlToken{name: local(name)}
	for {
		c, err := s.skipSpace()
		if err != nil {
			return xmlToken{}, err
		}
		if c == '>' || c == '/' {
			if err := s.openElement(name, c == '/'); err != nil {
				return xmlToken{}, err
			}
			return tok, nil
		}
		_ = s.r.UnreadByte()
		a, err := s.attribute(name)
		if err != nil {
			return xmlToken{}, err
		}
		if len(tok.attrs) < xmlMaxAttrs {
			tok.attrs = append(tok.attrs, a)
		}
	}
}

// openElement ends the start tag of element name, after its '>' or, selfClosing, its '/'.
func (s *xmlScanner) openElement(name string, selfClosing bool) error {
	if selfClosing {
		if c, err := s.r.ReadByte(); err != nil {
			return eof(err)
		} else if c != '>' {
			return fmt.Errorf("unexpected %q after / in <%s>", c, name)
		}
		s.closeTop = true
	}
	if len(s.stack) >= xmlMaxDepth {
		return errXMLTooDeep
	}
	s.stack = append(s.stack, name)
	return nil
}

// attribute reads an attribute of element elem: name="value".
func (s *xmlScanner) attribute(elem string) (xmlAttr, error) {
	attr, err := s.name()
	if err != nil {
		return xmlAttr{}, err
	}
	if c, err := s.skipSpace(); err != nil {
		return xmlAttr{}, err
	} else if c != '=' {
		return xmlAttr{}, fmt.Errorf("attribute %s of <%s> has no value", attr, elem)
	}
	quote, err := s.skipSpace()
	if err != nil {
		return xmlAttr{}, err
	}
	if quote != '"' && quote != '\'' {
		return xmlAttr{}, fmt.Errorf("attribute %s of <%s> is not quoted", attr, elem)
	}
	value, err := s.value(quote)
	if err != nil {
		return xmlAttr{}, err
	}
	return xmlAttr{name: local(attr), value: value}, nil
}

// value reads a quoted attribute value, its references resolved, its line ends made "\n" as
// XML says, and keeps at most xmlMaxValue bytes of it.
func (s *xmlScanner) value(quote byte) (string, error) {
	var b bytes.Buffer
	put := func(p ...byte) {
		if b.Len()+len(p) <= xmlMaxValue {
			b.Write(p)
		}
	}
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			return "", eof(err)
		}
		switch c {
		case quote:
			return b.String(), nil
		case '\r':
			if p, _ := s.r.Peek(1); len(p) == 1 && p[0] == '\n' {
				s.r.Discard(1)
			}
			put('\n')
		case '&':
			put(s.reference()...)
		default:
			put(c)
		}
	}
}

// reference reads what follows '&' and returns what it stands for; one that is not XML's own
// stays as written.
func (s *xmlScanner) reference() []byte {
	var ref []byte
	for len(ref) < 12 {
		p, err := s.r.Peek(1)
		if err != nil || !isReferenceByte(p[0]) {
			break
		}
		s.r.Discard(1)
		if p[0] == ';' {
			if r := resolve(string(ref)); r != "" {
				return []byte(r)
			}
			return append(append([]byte{'&'}, ref...), ';')
		}
		ref = append(ref, p[0])
	}
	return append([]byte{'&'}, ref...)
}

// isReferenceByte says whether c may be part of a reference: a letter, a digit, '#' or its
// closing ';'.
func isReferenceByte(c byte) bool {
	return c == '#' || c == ';' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// xmlEntities are XML's own five entities.
var xmlEntities = sync.OnceValue(func() map[string]string {
	return map[string]string{"lt": "<", "gt": ">", "amp": "&", "quot": `"`, "apos": "'"}
})

func resolve(ref string) string {
	if r, ok := xmlEntities()[ref]; ok {
		return r
	}
	n, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return ""
	}
	base := 10
	if h, ok := strings.CutPrefix(n, "x"); ok {
		n, base = h, 16
	}
	if v, err := strconv.ParseUint(n, base, 32); err == nil && validXMLChar(rune(v)) {
		return string(rune(v))
	}
	return ""
}

// validXMLChar is XML 1.0's Char production.
func validXMLChar(r rune) bool {
	return slices.ContainsFunc(xmlCharRanges, func(cr [2]rune) bool { return cr[0] <= r && r <= cr[1] })
}

// xmlCharRanges are the ranges of XML 1.0's Char production, inclusive.
var xmlCharRanges = [][2]rune{{0x09, 0x0A}, {0x0D, 0x0D}, {0x20, 0xD7FF}, {0xE000, 0xFFFD}, {0x10000, 0x10FFFF}}
