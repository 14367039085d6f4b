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
		out := 0
		for _, c := range s.buf[:n] {
			if s.keep(c) {
				p[out] = c
				out++
			}
		}
		if s.wordLen > MaxJSONWord {
			return out, ErrJSONWord
		}
		if out > 0 || err != nil {
			return out, err
		}
	}
}

// keep says whether a byte goes on to the decoder.
func (s *JSONSqueezer) keep(c byte) bool {
	switch {
	case s.inStr && s.esc != 0:
		if s.esc == -1 && c == 'u' {
			s.esc = 4
		} else if s.esc == -1 {
			s.esc = 0
		} else {
			s.esc--
		}
		if s.keepEsc {
			s.strLen++
		}
		return s.keepEsc
	case s.inStr && c == '\\':
		s.esc = -1
		// An escape is kept whole or not at all: "\u00e9" is six bytes.
		s.keepEsc = s.strLen+6 <= MaxJSONString
		if !s.keepEsc {
			s.strLen = MaxJSONString
			return false
		}
		s.strLen++
		return true
	case s.inStr && c == '"':
		s.inStr = false
		return true
	case s.inStr:
		if s.strLen >= MaxJSONString {
			return false
		}
		s.strLen++
		return true
	case c == '"':
		s.inStr, s.strLen, s.wordLen = true, 0, 0
		return true
	case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ':' || c == '[' || c == ']' || c == '{' || c == '}':
		s.wordLen = 0
		return true
	default:
		s.wordLen++
		return true
	}
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
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
				if maxDepth > 0 && depth > maxDepth {
					return errors.New("JSON nested too deep")
				}
			} else {
				depth--
			}
		}
		if depth == 0 {
			return nil
		}
	}
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
			if err := SkipValue(dec, maxDepth); err != nil {
				return found, err
			}
			continue
		}
		found = true
		if err := read(); err != nil {
			return found, err
		}
	}
	_, err = dec.Token()
	return found, err
}
