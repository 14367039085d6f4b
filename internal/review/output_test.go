package review

import (
	"bytes"
	"testing"
)

func TestOutputKeepsTheEnd(t *testing.T) {
	var o Output
	chunk := bytes.Repeat([]byte("x"), 1<<20)
	for range 20 {
		o.Write(chunk)
	}
	o.Write([]byte(`{"status":"pass"}`))
	got := o.Bytes()
	if len(got) != MaxOutputBytes || !bytes.HasSuffix(got, []byte(`{"status":"pass"}`)) {
		t.Errorf("kept %d bytes ending %q; want %d ending with the answer", len(got), got[max(0, len(got)-20):], MaxOutputBytes)
	}
	if cap(o.buf) > 3*MaxOutputBytes {
		t.Errorf("buffer grew to %d bytes", cap(o.buf))
	}
}
