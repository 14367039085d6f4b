package boundedio

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// FuzzJSONSqueezer checks that the squeezer keeps valid JSON valid, and short JSON unchanged.
func FuzzJSONSqueezer(f *testing.F) {
	f.Add([]byte(`["a\u00e9\\\"b", 1.5e10, {"k": null}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := io.ReadAll(NewJSONSqueezer(iotest.OneByteReader(bytes.NewReader(data))))
		if err != nil || !json.Valid(data) {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("valid JSON squeezed into invalid:\n%q\n%q", data, out)
		}
		if len(data) <= MaxJSONString && !bytes.Equal(out, data) {
			t.Fatalf("short JSON changed:\n%q\n%q", data, out)
		}
	})
}

func TestFieldHandsOnOneKeyAndSkipsTheRest(t *testing.T) {
	dec := json.NewDecoder(strings.NewReader(`{"a": {"x": [1, {"y": 2}]}, "want": [1, 2], "b": "s"}`))
	var got []any
	found, err := Field(dec, "want", 8, func() error {
		var v []any
		err := dec.Decode(&v)
		got = v
		return err
	})
	if !found || err != nil || len(got) != 2 {
		t.Errorf("Field = %v, %v, read %v", found, err, got)
	}
	if found, err := Field(json.NewDecoder(strings.NewReader(`{"a": 1}`)), "want", 8, nil); found || err != nil {
		t.Errorf("a missing key: %v, %v", found, err)
	}
	deep := strings.Repeat("[", 10) + strings.Repeat("]", 10)
	if _, err := Field(json.NewDecoder(strings.NewReader(`{"a": `+deep+`}`)), "want", 8, nil); err == nil {
		t.Error("a value nested deeper than the bound was skipped")
	}
	if _, err := Field(json.NewDecoder(strings.NewReader(`[1]`)), "want", 8, nil); err == nil {
		t.Error("an array read as an object")
	}
}
