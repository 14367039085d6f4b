package boundedio

import (
	"strings"
	"testing"
)

func TestLineReaderCutsLongLinesAndKeepsTheRest(t *testing.T) {
	long := strings.Repeat("x", 3*MaxLine)
	lr := NewLineReader(strings.NewReader("a\r\n" + long + "\nb"))
	var got []string
	var longs []bool
	for {
		line, ok := lr.Next()
		if !ok {
			break
		}
		got = append(got, string(line[:min(len(line), 3)]))
		longs = append(longs, lr.Long)
		if lr.Long && len(line) != MaxLine {
			t.Errorf("a long line kept %d bytes, want %d", len(line), MaxLine)
		}
	}
	if strings.Join(got, ",") != "a,xxx,b" || longs[0] || !longs[1] || longs[2] || lr.Err != nil {
		t.Errorf("lines %q, long %v, err %v", got, longs, lr.Err)
	}
}
