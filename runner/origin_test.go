package runner

import (
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// originLog records the lines it reads, each with the origin it was told last.
type originLog struct {
	origin string
	lines  []string
}

func (l *originLog) Origin(origin string)    { l.origin = origin }
func (l *originLog) Line(line []byte)        { l.lines = append(l.lines, l.origin+"|"+string(line)) }
func (l *originLog) Finish(o *gates.Outcome) {}

// What an Output filter says of the lines it writes next reaches the readers that ask, before
// those lines.
func TestCaptureTellsReadersTheOrigin(t *testing.T) {
	c := newCapture("g", nil, nil, nil)
	r := &originLog{}
	c.readers = []OutputReader{r, &originLess{}}
	var w OriginWriter = c
	w.SetOrigin("example.com/m")
	w.Write([]byte("a\nb"))
	w.SetOrigin("example.com/m/sub")
	w.Write([]byte("\nc\n"))
	c.Close()
	want := []string{"example.com/m|a", "example.com/m/sub|b", "example.com/m/sub|c"}
	if len(r.lines) != len(want) {
		t.Fatalf("lines %q, want %q", r.lines, want)
	}
	for i := range want {
		if r.lines[i] != want[i] {
			t.Errorf("lines %q, want %q", r.lines, want)
		}
	}
}

// originLess is a reader that does not ask where lines come from.
type originLess struct{}

func (originLess) Line([]byte)           {}
func (originLess) Finish(*gates.Outcome) {}
