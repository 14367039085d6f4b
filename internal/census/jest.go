package census

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ReadJest reads the report jest --json --outputFile writes. Each test's suite and file is its
// test file (relative to Options.Root), its name the path of its describe blocks and title,
// "add > handles negatives". A test file that failed with no failing test of its own (it did
// not load or compile) is a failed unit.
func ReadJest(r io.Reader, opts Options) Census {
	b := newBuilder("jest", opts)
	dec := json.NewDecoder(&jsonSqueezer{r: r})
	err := jestReport(b, dec)
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		b.incomplete("the jest report ended early")
	case err != nil:
		b.incomplete("the jest report did not parse: " + err.Error())
	}
	return b.census()
}

func jestReport(b *builder, dec *json.Decoder) error {
	if err := expectDelim(dec, '{'); err != nil {
		return err
	}
	found := false
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return err
		}
		if key != "testResults" {
			if err := skipValue(dec); err != nil {
				return err
			}
			continue
		}
		found = true
		if err := expectDelim(dec, '['); err != nil {
			return err
		}
		for dec.More() {
			if err := jestFile(b, dec); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	if !found {
		return errors.New("no testResults")
	}
	return nil
}

type jestTest struct {
	name    string
	outcome Outcome
}

func jestFile(b *builder, dec *json.Decoder) error {
	if err := expectDelim(dec, '{'); err != nil {
		return err
	}
	var file, status string
	var tests []jestTest
	failed := false
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return err
		}
		switch key {
		case "name":
			file, err = stringValue(dec)
		case "status":
			status, err = stringValue(dec)
		case "assertionResults":
			err = jestAssertions(b, dec, func(t jestTest) {
				if len(tests) < b.opts.MaxTests {
					tests = append(tests, t)
				}
				failed = failed || t.outcome == Fail
			})
		default:
			err = skipValue(dec)
		}
		if err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	file = b.rel(file)
	for _, t := range tests {
		b.add(Test{Suite: file, Name: t.name, File: file, Outcome: t.outcome})
	}
	if status == "failed" && !failed {
		b.fail(file, "the test file failed to run")
	}
	return nil
}

func jestAssertions(b *builder, dec *json.Decoder, add func(jestTest)) error {
	if err := expectDelim(dec, '['); err != nil {
		return err
	}
	for dec.More() {
		if err := expectDelim(dec, '{'); err != nil {
			return err
		}
		var path []string
		var title, status string
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return err
			}
			switch key {
			case "ancestorTitles":
				path, err = stringsValue(dec, maxTAPDepth)
			case "title":
				title, err = stringValue(dec)
			case "status":
				status, err = stringValue(dec)
			default:
				err = skipValue(dec)
			}
			if err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return err
		}
		o := Skip // pending, skipped, todo, disabled
		switch status {
		case "passed", "focused":
			o = Pass
		case "failed":
			o = Fail
		}
		add(jestTest{name: strings.Join(append(path, title), " > "), outcome: o})
	}
	_, err := dec.Token()
	return err
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("want %v, got %v", want, tok)
	}
	return nil
}

func stringValue(dec *json.Decoder) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", err
	}
	switch v := tok.(type) {
	case string:
		return v, nil
	case nil:
		return "", nil
	case json.Delim:
		return "", fmt.Errorf("want a string, got %v", v)
	}
	return "", nil
}

func stringsValue(dec *json.Decoder, limit int) ([]string, error) {
	if err := expectDelim(dec, '['); err != nil {
		return nil, err
	}
	var out []string
	for dec.More() {
		s, err := stringValue(dec)
		if err != nil {
			return nil, err
		}
		if len(out) < limit {
			out = append(out, s)
		}
	}
	_, err := dec.Token()
	return out, err
}

// skipValue reads past one value, however nested, keeping nothing of it.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
		if depth == 0 {
			return nil
		}
	}
}

// jsonSqueezer cuts every JSON string to its first jsonMaxString bytes on its way to the
// decoder, which holds each token whole: a failure message of hundreds of megabytes reaches
// it as a few kilobytes. It cuts only inside strings and never inside an escape, so what it
// passes stays valid JSON. A number or word longer than any real one is an error.
type jsonSqueezer struct {
	r       io.Reader
	buf     []byte
	inStr   bool
	esc     int  // -1 just after a backslash, else the hex digits of a \u escape still to pass
	keepEsc bool // the escape being read is kept (it fits whole)
	strLen  int
	wordLen int
}

const (
	jsonMaxString = 4096
	jsonMaxWord   = 1024
)

var errJSONWord = errors.New("a JSON number or word longer than 1024 bytes")

func (s *jsonSqueezer) Read(p []byte) (int, error) {
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
		if s.wordLen > jsonMaxWord {
			return out, errJSONWord
		}
		if out > 0 || err != nil {
			return out, err
		}
	}
}

// keep says whether a byte goes on to the decoder.
func (s *jsonSqueezer) keep(c byte) bool {
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
		s.keepEsc = s.strLen+6 <= jsonMaxString
		if !s.keepEsc {
			s.strLen = jsonMaxString
			return false
		}
		s.strLen++
		return true
	case s.inStr && c == '"':
		s.inStr = false
		return true
	case s.inStr:
		if s.strLen >= jsonMaxString {
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
