package report

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gauntlet-dev/gauntlet/gates"
)

var base = time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)

// fakeClock is read by the ticker goroutine while the test moves it.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// syncBuffer lets a test read what the ticker goroutine is still writing.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func gateList(names ...string) []gates.Gate {
	var gs []gates.Gate
	for _, n := range names {
		gs = append(gs, gates.Gate{Name: n})
	}
	return gs
}

func TestProgressPlain(t *testing.T) {
	clock := &fakeClock{now: base}
	var out syncBuffer
	p := NewProgress(&out, ProgressOptions{Now: clock.Now, Heartbeat: time.Hour})
	p.Start(gateList("test", "lint", "docs"))
	p.Started(gates.Gate{Name: "test"}, base)
	p.Started(gates.Gate{Name: "lint"}, base.Add(45*time.Second))
	p.Output("test", []byte("not shown without verbose"))
	clock.set(base.Add(90 * time.Second))
	p.heartbeat()
	p.Finished(gates.Result{Name: "lint", Status: gates.StatusFail, ExitCode: 1, Duration: 300 * time.Millisecond, Reason: "exit status 1"})
	p.Finished(gates.Result{Name: "docs", Status: gates.StatusSkipped, ExitCode: -1, Reason: "no changed file matches paths"})
	p.Finished(gates.Result{Name: "test", Status: gates.StatusPass, ExitCode: 0, Duration: 1200 * time.Millisecond, Reason: "exit status 0"})
	p.heartbeat() // nothing running: silent
	p.Stop()

	want := "" +
		"start      test\n" +
		"start      lint\n" +
		"... still running: test (1m30s), lint (45s); 0 of 3 done\n" +
		"fail       lint  300ms  exit status 1\n" +
		"skipped    docs  -  no changed file matches paths\n" +
		"pass       test  1.2s\n"
	if got := out.String(); got != want {
		t.Errorf("plain progress:\n%s\nwant:\n%s", got, want)
	}
}

func TestProgressHeartbeatTicks(t *testing.T) {
	var out syncBuffer
	p := NewProgress(&out, ProgressOptions{Heartbeat: time.Millisecond})
	p.Start(gateList("slow"))
	p.Started(gates.Gate{Name: "slow"}, time.Now())
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), "... still running: slow (") {
		if time.Now().After(deadline) {
			p.Stop()
			t.Fatalf("no heartbeat within 20s:\n%s", out.String())
		}
		time.Sleep(time.Millisecond)
	}
	p.Stop()
}

func TestProgressVerboseLinesStayWhole(t *testing.T) {
	var out bytes.Buffer // Progress must serialise its own writes; -race checks it
	p := NewProgress(&out, ProgressOptions{Verbose: true, TTY: true, Heartbeat: time.Hour})
	const gatesN, linesN = 8, 200
	var names []string
	for g := range gatesN {
		names = append(names, fmt.Sprintf("g%d", g))
	}
	p.Start(gateList(names...))
	var wg sync.WaitGroup
	for _, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			line := make([]byte, 0, 64)
			for i := range linesN {
				line = fmt.Appendf(line[:0], "%s line %03d %s\r", name, i, strings.Repeat("x", i%40))
				p.Output(name, line)
				copy(line, "CLOBBERED") // the runner reuses its buffer after Output returns
			}
		}()
	}
	wg.Wait()
	p.Stop()

	if strings.Contains(out.String(), "\x1b[") {
		t.Error("verbose mode on a TTY must not redraw a block")
	}
	wellFormed := regexp.MustCompile(`^\[(g\d)\] (g\d) line (\d{3}) x*$`)
	next := map[string]int{}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	for _, line := range lines {
		m := wellFormed.FindStringSubmatch(line)
		if m == nil || m[1] != m[2] {
			t.Fatalf("malformed or interleaved line %q", line)
		}
		if want := fmt.Sprintf("%03d", next[m[1]]); m[3] != want {
			t.Fatalf("gate %s: line %s out of order, want %s", m[1], m[3], want)
		}
		next[m[1]]++
	}
	if len(lines) != gatesN*linesN {
		t.Errorf("got %d lines, want %d", len(lines), gatesN*linesN)
	}
}

func TestProgressVerboseColourPrefix(t *testing.T) {
	var out bytes.Buffer
	p := NewProgress(&out, ProgressOptions{Verbose: true, Color: true})
	p.Output("lint", []byte("hello"))
	p.Stop()
	if got := out.String(); !strings.HasPrefix(got, "\x1b[36m[lint]") || !strings.HasSuffix(got, " hello\n") {
		t.Errorf("verbose line = %q", got)
	}
}

// ansi matches the sequences the block uses, to read a frame as a user sees it.
var ansi = regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`)

func TestProgressTTYRedrawsBlock(t *testing.T) {
	clock := &fakeClock{now: base}
	var out syncBuffer
	p := NewProgress(&out, ProgressOptions{TTY: true, Now: clock.Now})
	p.Start(gateList("vet", "test", "lint"))
	p.Started(gates.Gate{Name: "test"}, base)
	clock.set(base.Add(12300 * time.Millisecond))
	p.draw()
	if !strings.Contains(out.String(), "running    test  12s") {
		t.Errorf("running gate shows no elapsed time:\n%q", out.String())
	}
	p.Finished(gates.Result{Name: "test", Status: gates.StatusFail, ExitCode: 1, Duration: 4100 * time.Millisecond, Reason: "exit status 1: " + strings.Repeat("very long reason ", 10)})
	p.Finished(gates.Result{Name: "vet", Status: gates.StatusPass, Duration: 300 * time.Millisecond})
	p.Stop()

	got := out.String()
	// The block is a line per gate and the count of those done.
	if strings.Count(got, "\x1b[4A") < 2 {
		t.Errorf("want at least two redraws moving up over 4 lines:\n%q", got)
	}
	frames := strings.Split(got, "\x1b[4A")
	final := strings.Split(strings.TrimSuffix(frames[len(frames)-1], "\n"), "\n")
	if len(final) != 4 {
		t.Fatalf("final frame has %d lines, want 4: %q", len(final), final)
	}
	want := []string{"pass       vet   300ms", "fail       test  4.1s  exit status 1: very long reason", "queued     lint", "2 of 3 done"}
	for i, line := range final {
		if !strings.HasPrefix(line, "\r\x1b[2K") {
			t.Errorf("line %d does not clear before writing: %q", i, line)
		}
		visible := ansi.ReplaceAllString(strings.TrimPrefix(line, "\r"), "")
		if !strings.HasPrefix(visible, want[i]) {
			t.Errorf("final line %d = %q, want prefix %q", i, visible, want[i])
		}
		if n := utf8.RuneCountInString(visible); n > defaultWidth-1 {
			t.Errorf("line %d is %d columns, wider than %d", i, n, defaultWidth-1)
		}
	}
}

func TestProgressStop(t *testing.T) {
	for _, tty := range []bool{false, true} {
		t.Run(fmt.Sprintf("tty=%v", tty), func(t *testing.T) {
			var out syncBuffer
			p := NewProgress(&out, ProgressOptions{TTY: tty, Heartbeat: time.Millisecond})
			p.Start(gateList("a"))
			p.Stop()
			select {
			case <-p.done:
			default:
				t.Fatal("ticker goroutine still running after Stop")
			}
			p.Stop() // idempotent
			before := out.String()
			p.Started(gates.Gate{Name: "a"}, time.Now())
			p.Output("a", []byte("late"))
			p.Finished(gates.Result{Name: "a", Status: gates.StatusPass})
			p.Start(gateList("b"))
			if after := out.String(); after != before {
				t.Errorf("wrote after Stop: %q", strings.TrimPrefix(after, before))
			}
		})
	}
}

func TestProgressStopWithoutStart(t *testing.T) {
	var out bytes.Buffer
	p := NewProgress(&out, ProgressOptions{TTY: true})
	p.Stop()
	if out.Len() != 0 {
		t.Errorf("wrote %q without Start", out.String())
	}
}

func TestProgressUnlistedGate(t *testing.T) {
	var out bytes.Buffer
	p := NewProgress(&out, ProgressOptions{Heartbeat: time.Hour})
	p.Start(gateList("a"))
	p.Started(gates.Gate{Name: "surprise"}, base)
	p.Stop()
	if !strings.Contains(out.String(), "start      surprise\n") {
		t.Errorf("gate missing from Start was not shown: %q", out.String())
	}
}

func TestTerminalSizeOfNonTerminals(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, w := range []io.Writer{f, &bytes.Buffer{}} {
		if width, height := terminalSize(w); width != 0 || height != 0 {
			t.Errorf("terminalSize(%T) = %d, %d, want 0, 0", w, width, height)
		}
	}
}

// A gate waiting for its needs says so, and for which, until they finish; a need outside the
// run (answered from the cache) is not waited for.
func TestProgressShowsWaitingGates(t *testing.T) {
	clock := &fakeClock{now: base}
	var out syncBuffer
	p := NewProgress(&out, ProgressOptions{TTY: true, Now: clock.Now})
	gs := gateList("build", "gen", "test", "lint")
	gs[2].Needs = []string{"build", "gen"}
	gs[3].Needs = []string{"cached-elsewhere"}
	p.Start(gs)
	p.Started(gates.Gate{Name: "build"}, base)
	p.draw()
	frame := lastFrame(out.String(), 4+1)
	if !strings.HasPrefix(frame[2], "waiting    test   for build, gen") || !strings.HasPrefix(frame[3], "queued     lint") {
		t.Errorf("frame %q: want test waiting for build, gen and lint queued", frame)
	}
	p.Finished(gates.Result{Name: "build", Status: gates.StatusPass})
	p.draw()
	if frame := lastFrame(out.String(), 4+1); !strings.HasPrefix(frame[2], "waiting    test   for gen") {
		t.Errorf("frame %q: want test waiting for gen only", frame)
	}
	p.Finished(gates.Result{Name: "gen", Status: gates.StatusPass})
	p.Stop()
	if frame := lastFrame(out.String(), 4+1); !strings.HasPrefix(frame[2], "queued     test") {
		t.Errorf("frame %q: want test queued once its needs finished", frame)
	}
}

// lastFrame is the last drawing of an n-line block (its gates and the count), as a user sees it.
func lastFrame(out string, n int) []string {
	frames := strings.Split(out, fmt.Sprintf("\x1b[%dA", n))
	lines := strings.Split(strings.TrimSuffix(frames[len(frames)-1], "\n"), "\n")
	for i, l := range lines {
		lines[i] = ansi.ReplaceAllString(strings.TrimPrefix(l, "\r"), "")
	}
	return lines
}

// A gate whose process ended while the run still checks what it changed in the worktree gets
// its finish line at once, as the terminal's block shows it (held until the run's end, a pass of
// the first minute read as a hang), saying it is not final yet. Its final line follows only when
// the check changed it.
func TestProgressSettlingGatePrintsItsLineAtOnce(t *testing.T) {
	clock := &fakeClock{now: base}
	var out syncBuffer
	p := NewProgress(&out, ProgressOptions{Now: clock.Now, Heartbeat: time.Hour})
	p.Start(gateList("fmt", "vet", "test"))
	p.Started(gates.Gate{Name: "fmt"}, base)
	p.Started(gates.Gate{Name: "vet"}, base)
	p.Started(gates.Gate{Name: "test"}, base)
	p.Settling(gates.Result{Name: "fmt", Status: gates.StatusPass, Duration: 200 * time.Millisecond})
	p.Settling(gates.Result{Name: "vet", Status: gates.StatusPass, Duration: time.Second})
	clock.set(base.Add(time.Minute))
	p.heartbeat() // fmt and vet are no longer running
	// The last gate to end waits only for the checks, which run at once: its one line is final.
	p.Settling(gates.Result{Name: "test", Status: gates.StatusPass, Duration: time.Minute})
	p.Finished(gates.Result{Name: "test", Status: gates.StatusPass, Duration: time.Minute})
	p.Finished(gates.Result{Name: "fmt", Status: gates.StatusFail, Duration: 200 * time.Millisecond, Reason: "changed the worktree (a.go)"})
	p.Finished(gates.Result{Name: "vet", Status: gates.StatusPass, Duration: time.Second})
	p.Stop()

	want := "" +
		"start      fmt\n" +
		"start      vet\n" +
		"start      test\n" +
		"pass       fmt   200ms  (final once every gate has run)\n" +
		"pass       vet   1.0s  (final once every gate has run)\n" +
		"... still running: test (1m00s); 2 of 3 done\n" +
		"pass       test  1m00s\n" +
		"fail       fmt   200ms  changed the worktree (a.go)\n"
	if got := out.String(); got != want {
		t.Errorf("plain progress:\n%s\nwant:\n%s", got, want)
	}
}

func TestProgressTTYShowsSettlingGate(t *testing.T) {
	clock := &fakeClock{now: base}
	var out syncBuffer
	p := NewProgress(&out, ProgressOptions{TTY: true, Now: clock.Now})
	p.Start(gateList("fmt", "test"))
	p.Started(gates.Gate{Name: "fmt"}, base)
	p.Started(gates.Gate{Name: "test"}, base)
	p.Settling(gates.Result{Name: "fmt", Status: gates.StatusPass, Duration: 200 * time.Millisecond})
	clock.set(base.Add(5 * time.Second))
	p.draw()
	frames := strings.Split(out.String(), "\x1b[2A")
	last := ansi.ReplaceAllString(frames[len(frames)-1], "")
	// Its line says what the gate ended with, at once, though the run may still find it wrote.
	for _, want := range []string{"pass       fmt   200ms", "running    test  5.0s", "1 of 2 done"} {
		if !strings.Contains(last, want) {
			t.Errorf("frame lacks %q:\n%q", want, last)
		}
	}
	p.Finished(gates.Result{Name: "fmt", Status: gates.StatusFail, Duration: 200 * time.Millisecond, Reason: "changed the worktree (a.go)"})
	p.Stop()
	frames = strings.Split(out.String(), "\x1b[2A")
	if last := ansi.ReplaceAllString(frames[len(frames)-1], ""); !strings.Contains(last, "fail       fmt   200ms  changed the worktree (a.go)") {
		t.Errorf("final frame does not show the final status:\n%q", last)
	}
}

// screen plays what the block writes on a terminal of unlimited height and returns the rows as a
// user sees them: text, \r, \n, cursor up (ESC [ n A) and clear line (ESC [ 2 K) are all the
// block uses; colours are dropped.
func screen(out string) []string {
	var rows []string
	row, col := 0, 0
	put := func(r rune) {
		for len(rows) <= row {
			rows = append(rows, "")
		}
		line := []rune(rows[row])
		for len(line) < col {
			line = append(line, ' ')
		}
		if col < len(line) {
			line[col] = r
		} else {
			line = append(line, r)
		}
		rows[row] = string(line)
		col++
	}
	seq := regexp.MustCompile(`^\x1b\[([0-9;]*)([A-Za-z])`)
	for i := 0; i < len(out); {
		if m := seq.FindStringSubmatch(out[i:]); m != nil {
			switch m[2] {
			case "A":
				n := 1
				fmt.Sscan(m[1], &n)
				row = max(row-n, 0)
			case "K":
				if row < len(rows) {
					rows[row] = ""
				}
			}
			i += len(m[0])
			continue
		}
		r, size := utf8.DecodeRuneInString(out[i:])
		i += size
		switch r {
		case '\r':
			col = 0
		case '\n':
			row, col = row+1, 0
		default:
			put(r)
		}
	}
	return rows
}

func TestProgressTTYCountsGatesDone(t *testing.T) {
	clock := &fakeClock{now: base}
	var out syncBuffer
	p := NewProgress(&out, ProgressOptions{TTY: true, Now: clock.Now})
	p.Start(gateList("vet", "test", "lint"))
	p.Started(gates.Gate{Name: "test"}, base)
	p.draw()
	if got := screen(out.String()); got[len(got)-1] != "0 of 3 done" {
		t.Errorf("screen before any gate ended:\n%s", strings.Join(got, "\n"))
	}
	p.Finished(gates.Result{Name: "test", Status: gates.StatusFail, Duration: time.Second})
	p.Finished(gates.Result{Name: "vet", Status: gates.StatusSkipped})
	p.draw()
	if got := screen(out.String()); got[len(got)-1] != "2 of 3 done" {
		t.Errorf("screen after two gates ended:\n%s", strings.Join(got, "\n"))
	}
	p.Stop()
}

// A note written while the block is on screen (Ctrl-C's "stopping gates") goes above it, and the
// block is redrawn whole below: no gate's line is left behind twice.
func TestProgressTTYNoteAboveBlock(t *testing.T) {
	clock := &fakeClock{now: base}
	var out syncBuffer
	p := NewProgress(&out, ProgressOptions{TTY: true, Now: clock.Now})
	p.Start(gateList("vet", "test"))
	p.Started(gates.Gate{Name: "vet"}, base)
	p.draw()
	if !p.Note("gauntlet: interrupted; stopping gates") {
		t.Fatal("the redrawn block took no note")
	}
	p.Finished(gates.Result{Name: "vet", Status: gates.StatusCancelled, Duration: time.Second})
	p.Finished(gates.Result{Name: "test", Status: gates.StatusCancelled})
	p.Stop()
	got := screen(out.String())
	want := []string{"gauntlet: interrupted; stopping gates", "cancelled  vet   1.0s", "cancelled  test  -", "2 of 2 done"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("screen:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestProgressPlainTakesNoNote(t *testing.T) {
	var out syncBuffer
	p := NewProgress(&out, ProgressOptions{})
	p.Start(gateList("vet"))
	if p.Note("gauntlet: interrupted") {
		t.Error("plain progress took a note: the caller writes it where it belongs (stderr)")
	}
	p.Stop()
}

// A gate whose process ended and whose result the run still checks (for writes, against the
// base) has run: the count says so, or a long run of quiet gates reads "0 of 5 done" while only
// one gate still runs.
func TestProgressCountsCheckedGatesDone(t *testing.T) {
	clock := &fakeClock{now: base}
	var out syncBuffer
	p := NewProgress(&out, ProgressOptions{Now: clock.Now})
	p.Start(gateList("vet", "test"))
	p.Started(gates.Gate{Name: "vet"}, base)
	p.Started(gates.Gate{Name: "test"}, base)
	p.Settling(gates.Result{Name: "vet", Status: gates.StatusPass, Duration: time.Second})
	p.heartbeat()
	if !strings.Contains(out.String(), "still running: test (0ms); 1 of 2 done") {
		t.Errorf("heartbeat with vet being checked:\n%s", out.String())
	}
	p.Stop()
}

// The live view's width is its terminal's even through a writer that wraps the terminal (run's
// stopOnBrokenPipe): a wrapper that names what it wraps is looked through, so lines are not cut
// at the 80 columns assumed for a writer that is no terminal.
func TestTerminalFileLooksThroughWrappers(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := terminalFile(wrapping{wrapping{f}}); got != f {
		t.Errorf("terminalFile = %v, want the wrapped file", got)
	}
	if got := terminalFile(&bytes.Buffer{}); got != nil {
		t.Errorf("terminalFile(buffer) = %v, want nil", got)
	}
}

type wrapping struct{ w io.Writer }

func (w wrapping) Write(p []byte) (int, error) { return w.w.Write(p) }
func (w wrapping) Unwrap() io.Writer           { return w.w }

// A gate the cache answers is in the live block with the gates that run, said to be cached,
// and counted done: every gate of the run is there, and the count is true.
func TestProgressShowsCachedGates(t *testing.T) {
	clock := &fakeClock{now: base}
	var out syncBuffer
	p := NewProgress(&out, ProgressOptions{TTY: true, Now: clock.Now})
	p.Start(gateList("test"))
	p.Finished(gates.Result{Name: "lint", Status: gates.StatusPass, Cached: true, Reason: "exit status 0"})
	p.Started(gates.Gate{Name: "test"}, base)
	clock.set(base.Add(2 * time.Second))
	p.draw()
	rows := screen(out.String())
	joined := strings.Join(rows, "\n")
	for _, want := range []string{"pass       lint  cached", "running    test  2.0s", "1 of 2 done"} {
		if !strings.Contains(joined, want) {
			t.Errorf("screen lacks %q:\n%s", want, joined)
		}
	}
	p.Stop()
}
