package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/fatih/color"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/redact"
)

const (
	// DefaultHeartbeat is how often plain progress lists the gates still running, so that a CI
	// log shows life (and CI does not kill a silent job) during a long gate.
	DefaultHeartbeat = 30 * time.Second
	// redrawInterval is fast enough for a ticking clock to look alive, slow enough to cost nothing.
	redrawInterval = 100 * time.Millisecond
	// stopWait bounds how long Stop waits for the ticker goroutine, which can only be slower
	// than a tick when the writer itself is blocked.
	stopWait = 5 * time.Second
)

// ProgressOptions tunes the live view.
type ProgressOptions struct {
	// TTY redraws a block of one line per gate in place; otherwise plain lines are printed.
	TTY   bool
	Color bool
	// Verbose prints every output line of every gate, prefixed with its name. It replaces the
	// redrawn block, which cannot share the screen with streaming output.
	Verbose bool
	// Heartbeat is the interval of the "still running" line in plain mode; 0 means
	// DefaultHeartbeat.
	Heartbeat time.Duration
	// Now reads the clock; nil means time.Now.
	Now func() time.Time
	// Secrets are hidden from the output lines the verbose view shows; nil hides nothing.
	Secrets *redact.Redactor
}

// Progress shows a run while it happens. It observes the runner (Started, Output, Finished are
// safe for concurrent use) and writes every line whole under one mutex, so that gates running in
// parallel never interleave mid-line.
type Progress struct {
	w    io.Writer
	opts ProgressOptions

	mu        sync.Mutex
	redraw    bool // the block is redrawn in place
	gates     []*gateState
	byName    map[string]*gateState
	nameWidth int
	drawn     int // lines of the block on screen, to move the cursor back over
	started   bool
	stopped   bool

	stop     chan struct{}
	done     chan struct{}
	stopOnce sync.Once
}

// gateState is what the live view knows about one gate.
type gateState struct {
	name     string
	state    string // "waiting", "queued", "running", "checking" or the final gates.Status
	start    time.Time
	duration time.Duration
	reason   string
	// needs are the gates of this run the gate waits for; it is "waiting" until they finish.
	needs []string
	// label is the name shown: a setup step says it is one.
	label string
	// printed is the plain finish line already printed for the gate (by Settling), so that
	// Finished prints another only when the run's checks changed what it says.
	printed []byte
}

const (
	stateWaiting = "waiting"
	stateQueued  = "queued"
	stateRunning = "running"
)

// NewProgress returns a live view writing to w. Nothing is written before Start or an event.
func NewProgress(w io.Writer, opts ProgressOptions) *Progress {
	if opts.Heartbeat <= 0 {
		opts.Heartbeat = DefaultHeartbeat
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Progress{
		w:      w,
		opts:   opts,
		redraw: opts.TTY && !opts.Verbose,
		byName: map[string]*gateState{},
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
	}
}

// Start lists the gates of the run as queued and starts the redraw or heartbeat ticker. It must
// be followed by Stop; a second Start does nothing.
func (p *Progress) Start(gs []gates.Gate) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.started || p.stopped {
		return
	}
	p.started = true
	listed := make(map[string]bool, len(gs))
	for _, g := range gs {
		listed[g.Name] = true
	}
	for _, g := range gs {
		p.list(g, listed)
	}
	// A block taller than the screen cannot be redrawn: the cursor stops at the top row.
	if _, height := terminalSize(p.w); p.redraw && height > 0 && p.blockHeight() >= height {
		p.redraw = false
	}
	interval, tick := p.opts.Heartbeat, p.heartbeat
	if p.redraw {
		interval, tick = redrawInterval, p.draw
		p.drawLocked()
	}
	go p.loop(interval, tick)
}

// list lists a gate as queued, or waiting when it needs others of the run (listed).
func (p *Progress) list(g gates.Gate, listed map[string]bool) {
	s := p.gate(g.Name)
	if g.Setup {
		s.label = g.Name + " (setup)"
		p.nameWidth = max(p.nameWidth, len(s.label))
	}
	for _, n := range g.Needs {
		if listed[n] {
			s.needs = append(s.needs, n)
		}
	}
	if len(s.needs) > 0 && s.state == stateQueued {
		s.state = stateWaiting
	}
}

func (p *Progress) loop(interval time.Duration, tick func()) {
	defer close(p.done)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			tick()
		}
	}
}

// Stop ends the ticker, waits for it, and leaves the block showing every gate's final state.
// Events after Stop are ignored, so nothing is written after the summary. Stop is idempotent.
func (p *Progress) Stop() {
	p.stopOnce.Do(func() {
		// Marked stopped first, under the lock Start takes, so that a racing Start cannot launch a
		// ticker nobody stops and the ticker's own draws end at once.
		p.mu.Lock()
		started, redraw := p.started, p.redraw
		p.stopped = true
		p.mu.Unlock()
		if !started {
			return
		}
		close(p.stop)
		select {
		case <-p.done:
		case <-time.After(stopWait):
		}
		if redraw {
			p.mu.Lock()
			p.drawLocked()
			p.mu.Unlock()
		}
	})
}

// Note writes a line of gauntlet's own (Ctrl-C's "stopping gates") above the redrawn block and
// draws the block again below it; it reports false, writing nothing, when no block is on screen,
// and the caller writes the line where it would anyway. Written beside the block instead, the
// line would push the block down a row, and every later redraw would start one row too low,
// leaving the block's first line on screen twice.
func (p *Progress) Note(line string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.redraw || !p.started || p.stopped {
		return false
	}
	var b bytes.Buffer
	if p.drawn > 0 {
		fmt.Fprintf(&b, "\x1b[%dA", p.drawn)
	}
	b.WriteString("\r\x1b[2K" + strings.TrimRight(line, "\n") + "\n")
	p.writeLocked(b.Bytes())
	p.drawn = 0
	p.drawLocked()
	return true
}

// Started implements runner.Observer.
func (p *Progress) Started(g gates.Gate, at time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	s := p.gate(g.Name)
	s.state, s.start = stateRunning, at
	if !p.redraw {
		p.writeLocked(p.plainLine("start", nil, s.label, ""))
	}
}

// Output implements runner.Observer; only the verbose view shows output. line is used before
// returning, as the runner reuses it.
func (p *Progress) Output(gate string, line []byte) {
	if !p.opts.Verbose {
		return
	}
	var b bytes.Buffer
	b.Grow(len(gate) + len(line) + 4)
	b.WriteString(paint("["+gate+"]", p.opts.Color, color.FgCyan))
	b.WriteByte(' ')
	line = bytes.TrimSuffix(line, []byte("\r"))
	if p.opts.Secrets.Empty() {
		b.Write(line)
	} else {
		b.WriteString(p.opts.Secrets.Redact(string(line)))
	}
	b.WriteByte('\n')
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	p.writeLocked(b.Bytes())
}

// Finished implements runner.Observer.
func (p *Progress) Finished(r gates.Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	s := p.gate(r.Name)
	p.ended(s, r)
	p.release()
	if p.redraw {
		return
	}
	if line := p.finishLine(s); !bytes.Equal(line, s.printed) {
		p.writeLocked(line)
	}
}

// finishLine is an ended gate's plain line: "pass       fmt   200ms". Callers hold p.mu.
func (p *Progress) finishLine(s *gateState) []byte {
	st := gates.Status(s.state)
	return p.plainLine(s.state, statusAttrs[st], s.label, s.detail())
}

// ended records what a gate ended with. Callers hold p.mu.
func (p *Progress) ended(s *gateState, r gates.Result) {
	s.state, s.duration, s.reason = string(r.Status), r.Duration, briefReason(r.Status, r.Reason, r.Cause, r.TimedOut)
	if r.Cached {
		s.reason = "cached"
	}
}

// detail is what an ended gate's line says after its name: its time and its reason, or that
// the cache answered it.
func (s *gateState) detail() string {
	if s.reason == "cached" {
		return s.reason
	}
	detail := durationText(gates.Status(s.state), s.duration)
	if s.reason != "" {
		detail += "  " + s.reason
	}
	return detail
}

// Settling says that a gate's process ended with r, but that r may not be its final result: the
// run still checks what the gates changed in the worktree once every gate has ended. The block
// shows r at once, with its time, and counts the gate done: a gate that ended does not look
// stuck while the slowest runs; Finished redraws it should the check make it a failure. A plain
// view prints r's finish line at once for the same reason (held until the run's end, a pass of
// the first minute read as a hang beside "2 of 5 done"), saying it is not final yet; Finished
// prints the gate's line again only when the check changed it, with the reason it gives.
func (p *Progress) Settling(r gates.Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	s := p.gate(r.Name)
	p.ended(s, r)
	p.release()
	// The last gate to end waits for nothing but the checks, which run at once: its line waits
	// for its final status.
	if !p.redraw && p.running() {
		s.printed = p.finishLine(s)
		p.writeLocked(p.plainLine(s.state, statusAttrs[gates.Status(s.state)], s.label, s.detail()+"  "+notFinal))
	}
}

// notFinal marks a plain finish line printed before the run's checks judged it: the line that
// follows, should they change it, is not read as a contradiction.
const notFinal = "(final once every gate has run)"

// release turns waiting gates whose needs have all finished into queued ones. Callers hold p.mu.
func (p *Progress) release() {
	for _, s := range p.gates {
		if s.state == stateWaiting && len(p.waitingFor(s)) == 0 {
			s.state = stateQueued
		}
	}
}

// waitingFor lists the needs of a gate that have not finished yet. Callers hold p.mu.
func (p *Progress) waitingFor(s *gateState) []string {
	var out []string
	for _, n := range s.needs {
		switch p.byName[n].state {
		case stateWaiting, stateQueued, stateRunning:
			out = append(out, n)
		}
	}
	return out
}

// running says whether a gate of the run has yet to end. Callers hold p.mu.
func (p *Progress) running() bool {
	for _, s := range p.gates {
		switch s.state {
		case stateWaiting, stateQueued, stateRunning:
			return true
		}
	}
	return false
}

// heartbeat lists the gates still running with their elapsed time.
func (p *Progress) heartbeat() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	now := p.opts.Now()
	var running []string
	for _, s := range p.gates {
		if s.state == stateRunning {
			running = append(running, fmt.Sprintf("%s (%s)", s.label, FormatDuration(now.Sub(s.start))))
		}
	}
	if len(running) > 0 {
		p.writeLocked([]byte("... still running: " + strings.Join(running, ", ") + "; " + p.doneCount() + "\n"))
	}
}

// doneCount is the run's progress as a whole: "3 of 6 done". A gate being checked (its process
// ended, the run still judges its result) has run, and counts. Callers hold p.mu.
func (p *Progress) doneCount() string {
	done := 0
	for _, s := range p.gates {
		switch s.state {
		case stateWaiting, stateQueued, stateRunning:
		default:
			done++
		}
	}
	return fmt.Sprintf("%d of %d done", done, len(p.gates))
}

func (p *Progress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.stopped {
		p.drawLocked()
	}
}

// gate returns the state of a gate, adding it when the runner reports one Start did not list.
// Callers hold p.mu.
func (p *Progress) gate(name string) *gateState {
	if s, ok := p.byName[name]; ok {
		return s
	}
	s := &gateState{name: name, label: name, state: stateQueued}
	p.gates = append(p.gates, s)
	p.byName[name] = s
	p.nameWidth = max(p.nameWidth, len(name))
	return s
}

// writeLocked ignores write errors: a broken terminal must not break the run, and the summary
// and exit code still tell the result.
func (p *Progress) writeLocked(b []byte) {
	_, _ = p.w.Write(b)
}

// plainLine is one line of the non-redrawn view: "fail       lint  0.3s  exit status 1".
func (p *Progress) plainLine(word string, attrs []color.Attribute, name, detail string) []byte {
	line := fmt.Sprintf("%s  %-*s  %s", paint(fmt.Sprintf("%-9s", word), p.opts.Color, attrs...), p.nameWidth, name, detail)
	return []byte(strings.TrimRight(line, " ") + "\n")
}

// durationText shows "-" for a gate that never ran, rather than a misleading 0ms.
func durationText(s gates.Status, d time.Duration) string {
	if s == gates.StatusSkipped || s == gates.StatusCancelled && d == 0 {
		return "-"
	}
	return FormatDuration(d)
}
