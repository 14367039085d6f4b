package main

import (
	"bytes"
	"io"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"

	"golang.org/x/term"
)

// IOStreams is everything a command takes from its surroundings besides its command line: the
// three streams and whether each is a terminal, the environment, the working directory and the
// clock. main hands every command the process's own (systemStreams); a test hands it one in
// memory (testStreams), so that a command runs in-process, with no terminal and no subprocess.
// Commands read none of these from package os themselves.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	// StdinTTY, StdoutTTY and StderrTTY say whether each stream is a terminal.
	StdinTTY, StdoutTTY, StderrTTY bool

	// LookupEnv reads one environment variable; Environ lists them all, as KEY=VALUE.
	LookupEnv func(key string) (string, bool)
	Environ   func() []string
	// Getwd is the working directory.
	Getwd func() (string, error)
	// Now is the clock.
	Now func() time.Time
	// StdoutWidth is the width of the terminal stdout is, in columns; nil or 0 when it is none.
	StdoutWidth func() int

	// stdinFD is In's file descriptor when In is the process's stdin, else -1.
	stdinFD int
}

// systemStreams are the process's own streams, environment, working directory and clock.
func systemStreams() *IOStreams {
	return &IOStreams{
		In:     os.Stdin,
		Out:    os.Stdout,
		ErrOut: os.Stderr,
		// The descriptor itself, not os.Stdin.Fd(), which would switch stdin to blocking mode.
		StdinTTY:  term.IsTerminal(int(syscall.Stdin)),
		StdoutTTY: term.IsTerminal(int(os.Stdout.Fd())),
		StderrTTY: term.IsTerminal(int(os.Stderr.Fd())),
		LookupEnv: os.LookupEnv,
		Environ:   os.Environ,
		Getwd:     os.Getwd,
		Now:       time.Now,
		StdoutWidth: func() int {
			w, _, err := term.GetSize(int(os.Stdout.Fd()))
			if err != nil {
				return 0
			}
			return w
		},
		stdinFD: int(syscall.Stdin),
	}
}

// testStreams are streams in memory: stdin reads in, stdout and stderr are buffers, none is a
// terminal, the environment is env (KEY=VALUE entries) alone, the working directory is dir and
// the clock stands at now.
func testStreams(in string, env []string, dir string, now time.Time) (ios *IOStreams, stdout, stderr *bytes.Buffer) {
	stdout, stderr = new(bytes.Buffer), new(bytes.Buffer)
	env = slices.Clone(env)
	return &IOStreams{
		In:     strings.NewReader(in),
		Out:    stdout,
		ErrOut: stderr,
		LookupEnv: func(key string) (string, bool) {
			for _, kv := range slices.Backward(env) {
				if k, v, ok := strings.Cut(kv, "="); ok && k == key {
					return v, true
				}
			}
			return "", false
		},
		Environ: func() []string { return slices.Clone(env) },
		Getwd:   func() (string, error) { return dir, nil },
		Now:     func() time.Time { return now },
		stdinFD: -1,
	}, stdout, stderr
}

// Getenv is the value of key, "" when it is not set.
func (s *IOStreams) Getenv(key string) string {
	v, _ := s.LookupEnv(key)
	return v
}

// ColorEnabled applies --color to a stream that is a terminal or not: always and never win;
// auto colours a terminal unless NO_COLOR is set (to anything) or TERM is dumb.
func (s *IOStreams) ColorEnabled(when string, tty bool) bool {
	switch when {
	case "always":
		return true
	case "never":
		return false
	}
	return tty && s.Getenv("NO_COLOR") == "" && s.Getenv("TERM") != "dumb"
}

// IsCI follows the common convention: CI set to anything but an explicit no.
func (s *IOStreams) IsCI() bool {
	switch strings.ToLower(strings.TrimSpace(s.Getenv("CI"))) {
	case "", "0", "false", "no", "off":
		return false
	}
	return true
}

// OnGitHubActions reports whether the command runs in a GitHub Actions job.
func (s *IOStreams) OnGitHubActions() bool { return s.Getenv("GITHUB_ACTIONS") == "true" }

// PollableIn returns In so that a read of it can time out without leaving a goroutine blocked
// in read(2): on Unix the process's stdin is switched to non-blocking mode (restore switches it
// back, since a terminal shares it with the shell); any other reader, and stdin on Windows, is
// returned as it is.
func (s *IOStreams) PollableIn() (in io.Reader, restore func()) {
	if s.stdinFD < 0 {
		return s.In, func() {}
	}
	return pollableStdin(s.In, s.stdinFD)
}

// outWidth is the width a table on stdout is cut to: the terminal's, or 0 (not cut) off one.
func (s *IOStreams) outWidth() int {
	if !s.StdoutTTY || s.StdoutWidth == nil {
		return 0
	}
	return s.StdoutWidth()
}
