package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// maxInfraMatchBytes keeps a matched line short enough to serve as a one-line reason.
const maxInfraMatchBytes = 200

// capture is where a gate's output goes: its log file, the in-memory tail, the observer and the
// infra patterns, each bounded in memory. Write never fails, so that a broken log file or a
// panicking observer never stops the gate's pipe from being drained.
type capture struct {
	gate string
	log  *cappedLog // nil when the run keeps no logs, or until the gate prints
	// openLog creates the log file on the first output: a gate that prints nothing costs no
	// file (creating one is most of a silent gate's cost on a busy filesystem).
	openLog  func() (*cappedLog, error)
	tail     *tailBuffer
	lines    lineSplitter
	observer Observer
	patterns []*regexp.Regexp
	readers  []OutputReader

	infraMatch string
	plain      []byte // scratch for a line without escape sequences
	window     errorWindow
	lastText   int // number of the last line that was not blank
	logErr     error
	observeErr error
}

func newCapture(gate string, log *cappedLog, observer Observer, patterns []*regexp.Regexp) *capture {
	c := &capture{gate: gate, log: log, tail: newTailBuffer(tailBufferBytes), observer: observer, patterns: patterns}
	c.lines.emit = c.line
	return c
}

func (c *capture) Write(p []byte) (int, error) {
	if c.openLog != nil && len(p) > 0 {
		c.log, c.logErr = c.openLog()
		c.openLog = nil
	}
	if c.log != nil && c.logErr == nil {
		if _, err := c.log.Write(p); err != nil {
			c.logErr = err
		}
	}
	c.tail.Write(p)
	c.lines.Write(p)
	return len(p), nil
}

func (c *capture) line(line []byte) {
	if c.observer != nil && c.observeErr == nil {
		c.observe(line)
	}
	if bytes.IndexByte(line, 0x1b) >= 0 {
		c.plain = termtext.Strip(c.plain[:0], line)
	} else {
		c.plain = line // nothing to strip: most lines, and no copy
	}
	c.window.line(c.plain)
	if len(bytes.TrimSpace(c.plain)) > 0 {
		c.lastText = c.window.n
	}
	for _, r := range c.readers {
		r.Line(c.plain)
	}
	if c.infraMatch != "" {
		return
	}
	for _, re := range c.patterns {
		if re.Match(c.plain) {
			c.infraMatch = termtext.FirstBytes(strings.TrimSpace(string(c.plain)), maxInfraMatchBytes)
			return
		}
	}
}

// observe isolates the observer: a panic there silences it for this gate and is reported as
// gauntlet's own error instead of killing the process.
func (c *capture) observe(line []byte) {
	defer func() {
		if p := recover(); p != nil {
			c.observeErr = fmt.Errorf("observer panicked on output of gate %s: %v", c.gate, p)
		}
	}()
	c.observer.Output(c.gate, line)
}

// Close flushes the last line and finishes the log file; it reports the first thing that went
// wrong while capturing.
func (c *capture) Close() error {
	c.lines.Flush()
	var closeErr error
	if c.log != nil {
		closeErr = c.log.Close()
	}
	return errors.Join(c.logErr, c.observeErr, closeErr)
}

// SetOrigin implements OriginWriter: the readers that ask are told where the lines written next
// come from.
func (c *capture) SetOrigin(origin string) {
	for _, r := range c.readers {
		if o, ok := r.(OriginReader); ok {
			o.Origin(origin)
		}
	}
}

func (c *capture) Tail() string { return c.tail.String() }

// logged says whether a log file was written (the gate printed something).
func (c *capture) logged() bool { return c.log != nil }

func (c *capture) InfraMatch() string { return c.infraMatch }

// finish adds what the capture itself learned, the line count and the excerpt, then lets every
// output reader add what it learned to the outcome; call it after Close.
func (c *capture) finish(o *gates.Outcome) {
	// Blank lines at the end are not counted: reports drop them from the tail too, so that a
	// count of lines not shown agrees with what is shown.
	o.Lines = c.lastText
	o.Excerpt = c.window.excerpt()
	for _, r := range c.readers {
		r.Finish(o)
	}
}

// settle gives every reader that has a last step its turn, in order (see Settler).
func (c *capture) settle(ctx context.Context, o *gates.Outcome) {
	for _, r := range c.readers {
		if s, ok := r.(Settler); ok {
			s.Settle(ctx, o)
		}
	}
}
