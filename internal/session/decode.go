package session

import (
	"bytes"
	"encoding/base64"
	"strconv"
	"time"
	"unicode/utf8"
)

// Every stop decodes its session's record. Through encoding/json that builds, in each fresh
// process, the decoder's tables for the record's types: more than the rest of the decoding. A
// record whose seal verified over its bytes is exactly what json.Marshal wrote, so it is read
// here in that one form: its keys in the struct's order, strings without escapes. Anything else
// (a string json.Marshal escaped, a record an older gauntlet wrote in another form) makes
// decodeRecord give up, and encoding/json decodes it.

// decodeRecord decodes sealed, json.Marshal's encoding of a Record without its seal, into r; ok
// is false when sealed is in any other form, r then being left half-filled.
func decodeRecord(sealed []byte, r *Record) bool {
	s := &scanner{b: sealed, ok: true}
	s.lit(`{"project":`)
	r.Project = s.str()
	s.lit(`,"session":`)
	r.Session = s.str()
	s.lit(`,"base":`)
	r.Base = s.str()
	if s.key("head") {
		r.Head = s.str()
	}
	s.lit(`,"how":`)
	r.How = s.str()
	s.lit(`,"pinned":`)
	r.Pinned = s.time()
	if s.key("config_path") {
		r.ConfigPath = s.str()
	}
	if s.key("config") {
		r.Config = s.bytes()
	}
	if s.key("env") {
		r.Env = s.strMap()
	}
	if s.key("env_format") {
		r.EnvFormat = s.int()
	}
	if s.key("deps") {
		r.Deps = s.strList()
	}
	if s.key("remotes") {
		r.Remotes = s.strMap()
	}
	if s.key("late") {
		s.lit("true")
		r.Late = true
	}
	s.lit("}")
	return s.ok && len(s.b) == 0
}

// scanner reads JSON as json.Marshal writes it; ok turns false at the first thing it does not
// take, and every read after that is a no-op.
type scanner struct {
	b  []byte
	ok bool
}

func (s *scanner) lit(l string) {
	if s.ok && bytes.HasPrefix(s.b, []byte(l)) {
		s.b = s.b[len(l):]
		return
	}
	s.ok = false
}

// key reads `,"name":` when it comes next: an optional field is there.
func (s *scanner) key(name string) bool {
	l := `,"` + name + `":`
	if s.ok && bytes.HasPrefix(s.b, []byte(l)) {
		s.b = s.b[len(l):]
		return true
	}
	return false
}

// str reads a string without escapes, valid UTF-8: what json.Marshal writes as it is.
func (s *scanner) str() string {
	raw := s.quoted()
	if !s.ok {
		return ""
	}
	return string(raw)
}

// quoted is a string's bytes between its quotes.
func (s *scanner) quoted() []byte {
	if !s.ok || len(s.b) == 0 || s.b[0] != '"' {
		s.ok = false
		return nil
	}
	end := bytes.IndexByte(s.b[1:], '"') + 1
	if end == 0 {
		s.ok = false
		return nil
	}
	raw := s.b[1:end]
	for _, c := range raw {
		if c == '\\' || c < 0x20 {
			s.ok = false
			return nil
		}
	}
	if !utf8.Valid(raw) {
		s.ok = false
		return nil
	}
	s.b = s.b[end+1:]
	return raw
}

func (s *scanner) time() time.Time {
	start := s.b
	raw := s.quoted()
	var t time.Time
	if s.ok && t.UnmarshalJSON(start[:len(raw)+2]) != nil {
		s.ok = false
	}
	return t
}

// bytes reads a []byte, which json.Marshal writes in standard base64.
func (s *scanner) bytes() []byte {
	raw := s.quoted()
	if !s.ok {
		return nil
	}
	out := make([]byte, base64.StdEncoding.DecodedLen(len(raw)))
	n, err := base64.StdEncoding.Decode(out, raw)
	if err != nil {
		s.ok = false
		return nil
	}
	return out[:n]
}

func (s *scanner) int() int {
	end := 0
	for end < len(s.b) && (s.b[end] == '-' || s.b[end] >= '0' && s.b[end] <= '9') {
		end++
	}
	digits := bytes.TrimPrefix(s.b[:end], []byte("-"))
	n, err := strconv.Atoi(string(s.b[:end]))
	if !s.ok || err != nil || len(digits) > 1 && digits[0] == '0' {
		s.ok = false
		return 0
	}
	s.b = s.b[end:]
	return n
}

func (s *scanner) strList() []string {
	s.lit("[")
	var out []string
	for s.ok && len(s.b) > 0 && s.b[0] != ']' {
		if len(out) > 0 {
			s.lit(",")
		}
		out = append(out, s.str())
	}
	s.lit("]")
	if out == nil && s.ok {
		out = []string{}
	}
	return out
}

func (s *scanner) strMap() map[string]string {
	s.lit("{")
	out := map[string]string{}
	for s.ok && len(s.b) > 0 && s.b[0] != '}' {
		if len(out) > 0 {
			s.lit(",")
		}
		k := s.str()
		s.lit(":")
		if _, dup := out[k]; dup {
			s.ok = false
		}
		out[k] = s.str()
	}
	s.lit("}")
	return out
}
