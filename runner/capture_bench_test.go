package runner

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/causes"
)

// BenchmarkCaptureLines measures what capturing costs per line of typical test output, without a
// log file or readers: splitting, stripping escapes, the tail, the line count and the excerpt.
func BenchmarkCaptureLines(b *testing.B) {
	var chunk bytes.Buffer
	for i := range 1000 {
		fmt.Fprintf(&chunk, "    \x1b[32mok\x1b[0m  gt_test.go:%d: ordinary test output line with some text %d\n", i, i)
	}
	b.SetBytes(int64(chunk.Len()))
	c := newCapture("bench", nil, nil, nil)
	for b.Loop() {
		c.Write(chunk.Bytes())
	}
}

// BenchmarkCaptureZeros is bench/fixed.sh's 500 MB scenario: 64-byte lines of zeros.
func BenchmarkCaptureZeros(b *testing.B) {
	chunk := bytes.Repeat([]byte(fmt.Sprintf("%063d\n", 0)), 1000)
	for _, withCauses := range []bool{false, true} {
		b.Run(fmt.Sprintf("causes=%v", withCauses), func(b *testing.B) {
			b.SetBytes(int64(len(chunk)))
			c := newCapture("bench", nil, nil, nil)
			if withCauses {
				c.readers = []OutputReader{causes.NewReader(causes.Options{})}
			}
			for b.Loop() {
				c.Write(chunk)
			}
		})
	}
}
