package engine

import (
	"bytes"
	"encoding/json"
	"io"
)

// maxEventLine bounds the line the go events filter holds to decode: test2json cuts a test's
// output into pieces far shorter, so a longer line is no event and passes as the text it is.
const maxEventLine = 64 << 10

// goEventsFilter stands between a `go test -json` the census asked for and the gate's capture:
// the census gets the events as they came (raw), and everything that shows the output (the log,
// the tail, the findings and causes readers, the live view) gets the text of their Output
// fields, which is what go test -v prints. A line that is not an event (the go command's own
// messages, a line of a command before or after go test) is shown as it is.
type goEventsFilter struct {
	out  io.Writer
	raw  io.Writer
	line []byte // the start of a line whose newline has not come yet
	// passing: the current line outgrew maxEventLine and goes out as it comes, up to its newline.
	passing bool
}

func newGoEventsFilter(out, raw io.Writer) *goEventsFilter {
	return &goEventsFilter{out: out, raw: raw}
}

// Write never fails: the process's pipe must be drained whatever happens to its output.
func (f *goEventsFilter) Write(p []byte) (int, error) {
	n := len(p)
	f.raw.Write(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i+1]
		}
		p = p[len(chunk):]
		f.take(chunk, i >= 0)
	}
	return n, nil
}

// take handles a piece of one line; ends says it holds the line's newline.
func (f *goEventsFilter) take(chunk []byte, ends bool) {
	switch {
	case f.passing:
		f.out.Write(chunk)
		f.passing = !ends
	case len(f.line)+len(chunk) > maxEventLine:
		f.out.Write(f.line)
		f.out.Write(chunk)
		f.line = f.line[:0]
		f.passing = !ends
	case !ends:
		f.line = append(f.line, chunk...)
	case len(f.line) == 0:
		f.show(chunk) // the whole line in one piece: no copy
	default:
		f.line = append(f.line, chunk...)
		f.show(f.line)
		f.line = f.line[:0]
	}
}

// show writes what a line means to the user: an event's Output, or the line itself.
func (f *goEventsFilter) show(line []byte) {
	if body := bytes.TrimRight(line, "\r\n"); len(body) > 0 && body[0] == '{' {
		var e struct {
			Action string
			Output *string
		}
		if json.Unmarshal(body, &e) == nil && e.Action != "" {
			if e.Output != nil {
				io.WriteString(f.out, *e.Output)
			}
			return
		}
	}
	f.out.Write(line)
}

// Close shows a last line that had no newline.
func (f *goEventsFilter) Close() error {
	if len(f.line) > 0 {
		f.show(f.line)
	}
	f.line = nil
	return nil
}

// held is how many bytes the filter keeps between writes.
func (f *goEventsFilter) held() int { return cap(f.line) }
