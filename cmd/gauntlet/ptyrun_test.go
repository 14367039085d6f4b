//go:build !windows

package main

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"os/exec"
	"regexp"
	"sync"
	"time"

	"github.com/creack/pty"
	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["ptyrun"] = cmdPtyRun
}

// ptyEnv is what a program run under ptyrun sees of the script's environment.
var ptyEnv = []string{"PATH", "HOME", "WORK", "TMPDIR", "HANG_GUARD", "XDG_STATE_HOME", "GOCACHE", "GOMODCACHE",
	"GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"}

// ptyRun is one ptyrun: a program on a pseudo-terminal, its stream read into a virtual screen.
type ptyRun struct {
	cols, rows, code     int
	until, snap, release string
	out                  string

	mu     sync.Mutex
	screen *vtScreen
	// shown is the screen when it first showed until; matched is closed then, once.
	shown   string
	seen    bool
	matched chan struct{}
}

// cmdPtyRun runs a program the way a user at a terminal does, to assert what the screen shows:
//
//	ptyrun [-cols N] [-rows N] [-code N] [-until REGEXP -snap FILE [-release FILE]] -out FILE PROGRAM ARGS...
//
// The program's stdin, stdout and stderr are a pty of the given size (TERM=xterm). With -until,
// once the screen shows REGEXP it is written to FILE (-snap) as it is at that moment, and then
// the file -release is created: a gate waiting for it ends only after the snapshot, so that the
// script sees the view while that gate still runs, whatever the machine's speed. The screen at
// the end, scrollback included, goes to -out, and the exit code must be -code (0 by default).
// Every wait has a deadline; a screen that never shows REGEXP fails with what it showed.
func cmdPtyRun(ts *testscript.TestScript, neg bool, args []string) {
	r := &ptyRun{matched: make(chan struct{})}
	fs := flag.NewFlagSet("ptyrun", flag.ContinueOnError)
	fs.IntVar(&r.cols, "cols", 80, "columns")
	fs.IntVar(&r.rows, "rows", 40, "rows")
	fs.IntVar(&r.code, "code", 0, "exit code")
	fs.StringVar(&r.until, "until", "", "")
	fs.StringVar(&r.snap, "snap", "", "")
	fs.StringVar(&r.release, "release", "", "")
	fs.StringVar(&r.out, "out", "", "")
	if err := fs.Parse(args); err != nil || neg || fs.NArg() == 0 || r.out == "" || (r.until == "") != (r.snap == "") {
		ts.Fatalf("usage: ptyrun [-cols N] [-rows N] [-code N] [-until REGEXP -snap FILE [-release FILE]] -out FILE PROGRAM ARGS...")
	}
	r.screen = newVTScreen(r.cols, r.rows)
	r.run(ts, fs.Args())
}

func (r *ptyRun) run(ts *testscript.TestScript, argv []string) {
	path, err := exec.LookPath(argv[0])
	if err != nil {
		ts.Fatalf("ptyrun: %v", err)
	}
	cmd := exec.Command(path, argv[1:]...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = []string{"TERM=xterm"}
	for _, k := range ptyEnv {
		cmd.Env = append(cmd.Env, k+"="+ts.Getenv(k))
	}
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(r.cols), Rows: uint16(r.rows)})
	if err != nil {
		ts.Fatalf("ptyrun: %v", err)
	}
	defer tty.Close()
	var until *regexp.Regexp
	if r.until != "" {
		until = regexp.MustCompile("(?m)" + r.until)
	}
	read := make(chan struct{})
	go func() {
		defer close(read)
		r.copy(tty, until)
	}()
	deadline := time.After(hangGuard(60 * time.Second))
	if until != nil {
		r.await(ts, cmd, read, deadline)
	}
	r.wait(ts, cmd, read, deadline)
}

// await waits for the screen to show until and snapshots it; it fails, with what the screen
// showed, when the program ends first or the deadline passes.
func (r *ptyRun) await(ts *testscript.TestScript, cmd *exec.Cmd, read <-chan struct{}, deadline <-chan time.Time) {
	select {
	case <-r.matched:
	case <-read:
		// The program ended: the screen may still have shown until on its way.
		select {
		case <-r.matched:
		default:
			_ = cmd.Wait()
			ts.Fatalf("ptyrun: %s ended before the screen showed %q; it showed:\n%s", cmd.Path, r.until, r.text())
		}
	case <-deadline:
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		ts.Fatalf("ptyrun: the screen never showed %q; it showed:\n%s", r.until, r.text())
	}
	r.snapshot(ts)
}

// copy reads the pty into the screen until the program's side closes. Reads end with EIO on
// Linux once no process holds the terminal.
func (r *ptyRun) copy(tty io.Reader, until *regexp.Regexp) {
	buf := make([]byte, 4096)
	for {
		n, err := tty.Read(buf)
		r.feed(buf[:n], until)
		if err != nil {
			return
		}
	}
}

// feed writes a read to the screen a line at a time and looks for until after each line ends: a
// read may hold the end of one frame of the view and the start of the next, and the screen
// between two line ends shows whole lines only, never one a redraw has erased but not rewritten.
func (r *ptyRun) feed(b []byte, until *regexp.Regexp) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line = b[:i+1]
		}
		b = b[len(line):]
		_, _ = r.screen.Write(line)
		if until == nil || r.seen || line[len(line)-1] != '\n' {
			continue
		}
		if text := r.screen.String(); until.MatchString(text) {
			r.shown, r.seen = text, true
			close(r.matched)
		}
	}
}

func (r *ptyRun) text() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.screen.String()
}

// snapshot writes the screen as it is now, then releases the gate that waits for the test.
func (r *ptyRun) snapshot(ts *testscript.TestScript) {
	r.mu.Lock()
	shown := r.shown
	r.mu.Unlock()
	if err := os.WriteFile(ts.MkAbs(r.snap), []byte(shown), 0o644); err != nil {
		ts.Fatalf("ptyrun: %v", err)
	}
	if r.release != "" {
		if err := os.WriteFile(ts.MkAbs(r.release), nil, 0o644); err != nil {
			ts.Fatalf("ptyrun: %v", err)
		}
	}
}

func (r *ptyRun) wait(ts *testscript.TestScript, cmd *exec.Cmd, read <-chan struct{}, deadline <-chan time.Time) {
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var err error
	select {
	case err = <-exited:
	case <-deadline:
		_ = cmd.Process.Kill()
		<-exited
		ts.Fatalf("ptyrun: %s still running; the screen shows:\n%s", cmd.Path, r.text())
	}
	select {
	case <-read:
	case <-time.After(hangGuard(10 * time.Second)):
		ts.Fatalf("ptyrun: the terminal stayed open after %s exited", cmd.Path)
	}
	if err := os.WriteFile(ts.MkAbs(r.out), []byte(r.text()), 0o644); err != nil {
		ts.Fatalf("ptyrun: %v", err)
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		ts.Fatalf("ptyrun: %v", err)
	}
	if got := cmd.ProcessState.ExitCode(); got != r.code {
		ts.Fatalf("ptyrun: %s exited %d, want %d; the screen shows:\n%s", cmd.Path, got, r.code, r.text())
	}
}
