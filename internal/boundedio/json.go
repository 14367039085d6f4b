package boundedio

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// JSONSqueezer cuts every JSON string to its first MaxJSONString bytes on its way to the
// decoder, which holds each token whole: a failure message of hundreds of megabytes reaches
// it as a few kilobytes. It cuts only inside strings and never inside an escape, so what it
// passes stays valid JSON. A number or word longer than any real one is an error.
type JSONSqueezer struct {
	r       io.Reader
	buf     []byte
	inStr   bool
	esc     int  // -1 just after a backslash, else the hex digits of a \u escape still to pass
	keepEsc bool // the escape being read is kept (it fits whole)
	strLen  int
	wordLen int
}

// The squeezer's bounds: a string is cut to MaxJSONString bytes; a number or word longer than
// MaxJSONWord is ErrJSONWord.
const (
	MaxJSONString = 4096
	MaxJSONWord   = 1024
)

// ErrJSONWord ends a stream whose number or word is longer than any real one.
var ErrJSONWord = errors.New("a JSON number or word longer than 1024 bytes")

// Read passes on what is kept of the next bytes.
func (s *JSONSqueezer) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if len(s.buf) < len(p) {
		s.buf = make([]byte, len(p))
	}
	for {
		n, err := s.r.Read(s.buf[:len(p)])
		out := s.squeeze(p, s.buf[:n])
		if s.wordLen > MaxJSONWord {
			return out, ErrJSONWord
		}
		if out > 0 || err != nil {
			return out, err
		}
	}
}

// squeeze copies into p the bytes of read that go on, and returns how many.
func (s *JSONSqueezer) squeeze(p, read []byte) int {
	out := 0
	for _, c := range read {
		if s.keep(c) {
			p[out] = c
			out++
		}
	}
	return out
}

// keep says whether a byte goes on to the decoder.
func (s *JSONSqueezer) keep(c byte) bool {
	if s.inStr {
		return s.keepInString(c)
	}
	switch {
	case c == '"':
		s.inStr, s.strLen, s.wordLen = true, 0, 0
	case endsJSONWord[c]:
		s.wordLen = 0
	default:
		s.wordLen++
	}
	return true
}

// endsJSONWord are the bytes outside strings that end a number or word: blanks and punctuation.
var endsJSONWord = [256]bool{' ': true, '\t': true, '\n': true, '\r': true, ',': true, ':': true, '[': true, ']': true, '{': true, '}': true}

// keepInString says whether a byte of a string goes on to the decoder.
func (s *JSONSqueezer) keepInString(c byte) bool {
	switch {
	case s.esc != 0:
		return s.keepEscaped(c)
	case c == '\\':
		return s.keepBackslash()
	case c == '"':
		s.inStr = false
		return true
	case s.strLen >= MaxJSONString:
		return false
	}
	s.strLen++
	return true
}

// keepEscaped says whether a byte of an escape, after its backslash, goes on: as the escape does.
func (s *JSONSqueezer) keepEscaped(c byte) bool {
	switch {
	case s.esc == -1 && c == 'u':
		s.esc = 4
	case s.esc == -1:
		s.esc = 0
	default:
		s.esc--
	}
	if s.keepEsc {
		s.strLen++
	}
	return s.keepEsc
}

// keepBackslash says whether an escape starting goes on. An escape is kept whole or not at all:
// "\u00e9" is six bytes.
func (s *JSONSqueezer) keepBackslash() bool {
	s.esc = -1
	s.keepEsc = s.strLen+6 <= MaxJSONString
	if !s.keepEsc {
		s.strLen = MaxJSONString
		return false
	}
	s.strLen++
	return true
}

// NewJSONSqueezer squeezes the JSON r holds on its way to a decoder.
func NewJSONSqueezer(r io.Reader) *JSONSqueezer { return &JSONSqueezer{r: r} }

// ExpectDelim reads the next token and fails unless it is want ('{', '[', ...).
func ExpectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("want %v, got %v", want, tok)
	}
	return nil
}

// SkipValue reads one value of any kind; one nested deeper than maxDepth (0: no bound) is an
// error.
func SkipValue(dec *json.Decoder, maxDepth int) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		depth += nesting(tok)
		if maxDepth > 0 && depth > maxDepth {
			return errors.New("JSON nested too deep")
		}
		if depth == 0 {
			return nil
		}
	}
}

// nesting is how a token changes the depth of nesting: +1 an opening delimiter, -1 a closing
// one, 0 any other.
func nesting(tok json.Token) int {
	d, ok := tok.(json.Delim)
	switch {
	case !ok:
		return 0
	case d == '{' || d == '[':
		return 1
	}
	return -1
}

// Field reads an object, handing the value of its key field to read and skipping every other
// (nested at most maxDepth deep); found says whether the object had the key.
func Field(dec *json.Decoder, field string, maxDepth int, read func() error) (found bool, err error) {
	if err := ExpectDelim(dec, '{'); err != nil {
		return false, err
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return found, err
		}
		if key != field {
			err = SkipValue(dec, maxDepth)
		} else {
			found = true
			err = read()
		}
		if err != nil {
			return found, err
		}
	}
	_, err = dec.Token()
	return found, err
}
