package engine

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/census"
)

const goEventsSample = `{"Action":"start","Package":"example.com/m"}
{"Action":"run","Package":"example.com/m","Test":"TestB"}
{"Action":"output","Package":"example.com/m","Test":"TestB","Output":"=== RUN   TestB\n"}
{"Action":"output","Package":"example.com/m","Test":"TestB","Output":"    a_test.go:6: boom \u001b[31m\"quoted\"\u001b[0m\n"}
{"Action":"output","Package":"example.com/m","Test":"TestB","Output":"--- FAIL: TestB (0.00s)\n"}
{"Action":"fail","Package":"example.com/m","Test":"TestB","Elapsed":0}
go: downloading example.com/dep v1.0.0
{"Action":"output","Package":"example.com/m","Output":"a long line cut by test2json "}
{"Action":"output","Package":"example.com/m","Output":"ends here\n"}
{"ImportPath":"example.com/m/bad [example.com/m/bad.test]","Action":"build-output","Output":"bad/bad_test.go:3:28: undefined: x\n"}
{"not an event": true}
{"Action":"output","Package":"example.com/m","Output":"FAIL\texample.com/m\t0.007s\n"}
{"Action":"fail","Package":"example.com/m","Elapsed":0.009}
`

const goEventsShown = "=== RUN   TestB\n" +
	"    a_test.go:6: boom \x1b[31m\"quoted\"\x1b[0m\n" +
	"--- FAIL: TestB (0.00s)\n" +
	"go: downloading example.com/dep v1.0.0\n" +
	"a long line cut by test2json ends here\n" +
	"bad/bad_test.go:3:28: undefined: x\n" +
	"{\"not an event\": true}\n" +
	"FAIL\texample.com/m\t0.007s\n"

// The user sees the text of go test's events, whatever the pieces the pipe delivers them in,
// and the census gets every byte as it came.
func TestGoEventsShowTheirOutput(t *testing.T) {
	for _, size := range []int{1, 7, 64, len(goEventsSample)} {
		var shown, raw bytes.Buffer
		f := newGoEventsFilter(&shown, &raw)
		for s := goEventsSample; s != ""; {
			n := min(size, len(s))
			f.Write([]byte(s[:n]))
			s = s[n:]
		}
		f.Close()
		if shown.String() != goEventsShown {
			t.Errorf("pieces of %d: shown\n%q\nwant\n%q", size, shown.String(), goEventsShown)
		}
		if raw.String() != goEventsSample {
			t.Errorf("pieces of %d: the census got %q", size, raw.String())
		}
	}
}

func TestGoEventsPassALongLineAndTheLastOneThrough(t *testing.T) {
	long := strings.Repeat("x", 3*maxEventLine+5)
	var shown, raw bytes.Buffer
	f := newGoEventsFilter(&shown, &raw)
	f.Write([]byte(long + "\n" + `{"Action":"output","Output":"after\n"}` + "\nno newline at the end"))
	f.Close()
	if want := long + "\nafter\nno newline at the end"; shown.String() != want {
		t.Errorf("shown %d bytes %q..., want the long line whole, then the rest", shown.Len(), shown.String()[max(0, shown.Len()-40):])
	}
	if f.held() > maxEventLine {
		t.Errorf("the filter holds %d bytes, more than a line it decodes", f.held())
	}
}

// countingWriter counts what is shown without keeping it.
type countingWriter struct{ n int }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

// 64 MiB of a test's output, as go test -json events: what the filter and the census keep stays
// that of one test, however much the output holds.
func TestGoEventsKeepMemoryBounded(t *testing.T) {
	const size = 64 << 20
	text := strings.Repeat("x", 1000)
	event := `{"Action":"output","Package":"p","Test":"T","Output":"` + text + `\n"}` + "\n"
	head := `{"Action":"run","Package":"p","Test":"T"}` + "\n"
	tail := `{"Action":"pass","Package":"p","Test":"T"}` + "\n" + `{"Action":"output","Package":"p","Output":"PASS\n"}` + "\n" +
		`{"Action":"pass","Package":"p"}` + "\n"

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	stream := startCensusStream(census.FormatGo, census.Options{})
	shown := &countingWriter{}
	f := newGoEventsFilter(shown, stream)
	f.Write([]byte(head))
	chunk := []byte(strings.Repeat(event, 32<<10/len(event)))
	for written := 0; written < size; written += len(chunk) {
		f.Write(chunk)
	}
	f.Write([]byte(tail))
	f.Close()
	runtime.GC()
	runtime.ReadMemStats(&after)
	c := stream.close()
	if len(c.Tests) != 1 || c.Tests[0].ID != "p::T" || !c.Complete {
		t.Fatalf("census %+v", c)
	}
	if shown.n < size/2 {
		t.Errorf("only %d bytes shown", shown.n)
	}
	if held := int64(after.HeapAlloc) - int64(before.HeapAlloc); held > 4<<20 {
		t.Errorf("%d MiB of output left %d KiB held", size>>20, held>>10)
	}
}
