package report

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/fatih/color"
	"golang.org/x/term"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// defaultWidth is the width assumed when the writer is not a terminal that can tell.
const defaultWidth = 80

// drawLocked redraws the block: cursor up over the previous drawing, then each line cleared and
// rewritten, all in one write so the terminal never shows half a frame. Callers hold p.mu.
func (p *Progress) drawLocked() {
	var b bytes.Buffer
	if p.drawn > 0 {
		fmt.Fprintf(&b, "\x1b[%dA", p.drawn)
	}
	width, _ := terminalSize(p.w)
	if width <= 0 {
		width = defaultWidth
	}
	now := p.opts.Now()
	for _, s := range p.gates {
		b.WriteString("\r\x1b[2K")
		b.WriteString(p.blockLine(s, now, width))
		b.WriteByte('\n')
	}
	b.WriteString("\r\x1b[2K")
	b.WriteString(paint(p.doneCount(), p.opts.Color, color.Faint))
	b.WriteByte('\n')
	p.drawn = p.blockHeight()
	p.writeLocked(b.Bytes())
}

// blockHeight is the block's rows: a line per gate and the count of those done.
func (p *Progress) blockHeight() int {
	return len(p.gates) + 1
}

// blockLine is one gate's line in the block, cut to width-1 columns: writing the last column
// makes some terminals wrap, which would throw the cursor-up count off.
func (p *Progress) blockLine(s *gateState, now time.Time, width int) string {
	var detail string
	switch s.state {
	case stateQueued:
	case stateWaiting:
		detail = "for " + strings.Join(p.waitingFor(s), ", ")
	case stateRunning:
		detail = FormatDuration(now.Sub(s.start))
	default:
		detail = s.detail()
	}
	word := []rune(fmt.Sprintf("%-9s", s.state))
	rest := []rune(fmt.Sprintf("  %-*s  %s", p.nameWidth, s.label, detail))
	limit := max(width-1, 1)
	if len(word) > limit {
		word, rest = word[:limit], nil
	} else if len(word)+len(rest) > limit {
		rest = rest[:limit-len(word)]
	}
	return paint(string(word), p.opts.Color, stateAttrs(s.state)...) + strings.TrimRight(string(rest), " ")
}

func stateAttrs(state string) []color.Attribute {
	switch state {
	case stateQueued, stateWaiting:
		return []color.Attribute{color.Faint}
	case stateRunning:
		return []color.Attribute{color.FgCyan}
	default:
		return statusAttrs[gates.Status(state)]
	}
}

// terminalFile is the file w writes to, looking through writers that wrap another and say which
// (Unwrap() io.Writer); nil when it is no file.
func terminalFile(w io.Writer) *os.File {
	for range 8 { // a bound: a wrapper that wraps itself must not loop forever
		switch v := w.(type) {
		case *os.File:
			return v
		case interface{ Unwrap() io.Writer }:
			w = v.Unwrap()
		default:
			return nil
		}
	}
	return nil
}

// terminalSize reports the size of w when it is a terminal, else zeros. It reaches the
// descriptor through SyscallConn because File.Fd would switch it to blocking mode.
func terminalSize(w io.Writer) (width, height int) {
	f := terminalFile(w)
	if f == nil {
		return 0, 0
	}
	conn, err := f.SyscallConn()
	if err != nil {
		return 0, 0
	}
	_ = conn.Control(func(fd uintptr) {
		width, height, err = term.GetSize(int(fd))
	})
	if err != nil {
		return 0, 0
	}
	return width, height
}
