package boundedio

import (
	"bytes"
	"encoding/json"
	"io"
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
