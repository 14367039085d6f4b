package census

import (
	"io"
	"runtime"
	"strings"
	"testing"
)

// repeated is a reader of one line over and over, size bytes in all, made as it is read.
type repeated struct {
	line string
	left int
	at   int
}

func (r *repeated) Read(p []byte) (int, error) {
	if r.left <= 0 {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && r.left > 0 {
		c := copy(p[n:min(len(p), n+r.left)], r.line[r.at:])
		n += c
		r.left -= c
		r.at = (r.at + c) % len(r.line)
	}
	return n, nil
}

func stream(head, line string, size int, tail string) io.Reader {
	return io.MultiReader(strings.NewReader(head), &repeated{line: line, left: size / len(line) * len(line)}, strings.NewReader(tail))
}

// Every reader holds memory to the tests it keeps, whatever else the output holds: here 64 MiB
// of output and messages around one test must cost far less than their size.
func TestReadersKeepMemoryBounded(t *testing.T) {
	const size = 64 << 20
	text := strings.Repeat("x", 1000)
	tests := []struct {
		name  string
		read  func(io.Reader, Options) Census
		input func() io.Reader
		want  string
	}{
		{"go", ReadGo, func() io.Reader {
			return stream(`{"Action":"run","Package":"p","Test":"T"}`+"\n",
				`{"Action":"output","Package":"p","Test":"T","Output":"`+text+`\n"}`+"\n", size,
				`{"Action":"pass","Package":"p","Test":"T"}`+"\n"+`{"Action":"pass","Package":"p"}`+"\n")
		}, "p::T"},
		{"junit", ReadJUnit, func() io.Reader {
			return io.MultiReader(
				stream(`<testsuites><testsuite name="s"><testcase classname="c" name="a"><failure message="`, text, size/2, `">`),
				stream(``, text+"\n", size/2, `</failure><system-out><![CDATA[`),
				stream(``, text, size/2, `]]></system-out></testcase></testsuite></testsuites>`))
		}, "c::a"},
		{"tap", ReadTAP, func() io.Reader {
			return stream("TAP version 13\nnot ok 1 - a\n  ---\n  error: |-\n", "    "+text+"\n", size, "  ...\n1..1\n")
		}, "a"},
		{"libtest", ReadLibtest, func() io.Reader {
			return stream("running 1 test\n", text+"\n", size, "test a ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n")
		}, "a"},
		{"jest", ReadJest, func() io.Reader {
			return stream(`{"testResults":[{"assertionResults":[{"ancestorTitles":[],"failureMessages":["`, text, size,
				`"],"status":"failed","title":"a"}],"name":"a.test.js","status":"failed"}]}`)
		}, "a.test.js::a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			got := tt.read(tt.input(), Options{})
			runtime.ReadMemStats(&after)
			if len(got.Tests) != 1 || got.Tests[0].ID != tt.want || !got.Complete {
				t.Fatalf("got %+v", got)
			}
			// Allocated in all, garbage included: a reader that kept the output, or copied it
			// line by line, would allocate at least its size.
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > size/8 {
				t.Errorf("reading %d MiB allocated %d MiB", size>>20, alloc>>20)
			}
		})
	}
}
