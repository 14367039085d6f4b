package review

import (
	"bytes"
	"slices"
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

// A reviewer on Windows ends its lines with CRLF: the lines quoted from its output carry no CR.
func TestLastLinesDropsCR(t *testing.T) {
	got := lastLines([]byte("first\r\nsecond\r\n"), 5)
	if want := []string{"  first", "  second"}; !slices.Equal(got, want) {
		t.Errorf("lastLines = %q, want %q", got, want)
	}
}
