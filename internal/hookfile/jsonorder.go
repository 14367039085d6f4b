package hookfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// object is a JSON object that remembers the order of its keys, so that merging one hook into a
// user's settings file leaves the rest of it in the order the user wrote it.
type object struct {
	keys []string
	vals map[string]any
}

func newObject() *object { return &object{vals: map[string]any{}} }

func (o *object) get(key string) (any, bool) {
	v, ok := o.vals[key]
	return v, ok
}

// set replaces a key's value in place, or adds the key at the end.
func (o *object) set(key string, v any) *object {
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
	return o
}

// MarshalJSON writes the keys in order and, unlike json.Marshal, leaves <, > and & alone: the
// user's strings (shell commands) come back as they were written.
func (o *object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := encodeValue(&b, k); err != nil {
			return nil, err
		}
		b.WriteByte(':')
		if err := encodeValue(&b, o.vals[k]); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func encodeValue(b *bytes.Buffer, v any) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // Encode ends the value with a newline
	return nil
}

// encodeJSON writes a whole file: two-space indentation and a final newline.
func encodeJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// syntaxError says where a file stops being JSON.
type syntaxError struct {
	Line, Col int
	Msg       string
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg)
}

// decodeJSON reads exactly one JSON value: objects as *object, arrays as []any, numbers as
// json.Number (so that 1e100 or a 64-bit id is written back digit for digit). Errors are
// *syntaxError.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err == nil {
		if _, err = dec.Token(); errors.Is(err, io.EOF) {
			return v, nil
		} else if err == nil {
			err = errors.New("more data after the JSON value")
		}
	}
	offset := dec.InputOffset()
	var se *json.SyntaxError
	if errors.As(err, &se) {
		offset = se.Offset
	}
	line, col := position(data, offset)
	return nil, &syntaxError{Line: line, Col: col, Msg: err.Error()}
}

// position turns a byte offset into a 1-based line and column (in bytes).
func position(data []byte, offset int64) (line, col int) {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = len(before) - bytes.LastIndexByte(before, '\n')
	return line, col
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		return decodeObject(dec)
	case json.Delim('['):
		return decodeList(dec)
	default:
		return tok, nil
	}
}

// decodeObject reads an object's members after its opening brace, keeping their order, and its
// closing brace.
func decodeObject(dec *json.Decoder) (any, error) {
	o := newObject()
	for dec.More() {
		keyTok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := keyTok.(string)
		if !ok {
			return nil, fmt.Errorf("object key %v is not a string", keyTok)
		}
		v, err := decodeValue(dec)
		if err != nil {
			return nil, err
		}
		o.set(key, v)
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	return o, nil
}

// decodeList reads a list's items after its opening bracket, and its closing bracket.
func decodeList(dec *json.Decoder) (any, error) {
	list := []any{}
	for dec.More() {
		v, err := decodeValue(dec)
		if err != nil {
			return nil, err
		}
		list = append(list, v)
	}
	if _, err := dec.Token(); err != nil { // the closing bracket
		return nil, err
	}
	return list, nil
}
