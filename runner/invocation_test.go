package runner

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// upperFilter shows the user the process's output in capitals, keeping what it was given: a
// stand-in for a census filter that reads machine output and shows text.
type upperFilter struct {
	out    io.Writer
	seen   *bytes.Buffer
	closed *bool
}

func (f upperFilter) Write(p []byte) (int, error) {
	f.seen.Write(p)
	f.out.Write(bytes.ToUpper(p))
	return len(p), nil
}

func (f upperFilter) Close() error { *f.closed = true; return nil }

func TestInvocationRunsAnotherFormAndFiltersWhatTheUserSees(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	var (
		mu     sync.Mutex
		asked  []string
		seen   bytes.Buffer
		closed bool
	)
	opts.Invocations = func(g gates.Gate) *Invocation {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, g.Name)
		switch g.Name {
		case "shell":
			return &Invocation{Run: "echo asked; exit 3", Output: func(out io.Writer) io.WriteCloser {
				return upperFilter{out: out, seen: &seen, closed: &closed}
			}}
		case "argv":
			return &Invocation{Argv: []string{"sh", "-c", "echo argv asked"}}
		}
		return nil
	}
	argv := shellGate("argv", "")
	argv.Argv = []string{"sh", "-c", "echo declared"}
	review := shellGate("review", "")
	review.Kind = gates.KindReview
	opts.Kinds = map[gates.Kind]Kind{gates.KindReview: KindFunc(func(ctx context.Context, g *GateRun) gates.Outcome {
		return g.Judged(0, gates.Judgement{Status: gates.StatusPass, Lines: []string{"reviewed"}})
	})}
	results := Run(context.Background(), []gates.Gate{shellGate("shell", "echo declared"), argv, shellGate("plain", "echo plain"), review}, opts)

	shell := results[0]
	if shell.Status != gates.StatusFail || shell.ExitCode != 3 {
		t.Errorf("the gate is judged by the process it ran: %s exit %d", shell.Status, shell.ExitCode)
	}
	if shell.Command != "echo declared" {
		t.Errorf("the result keeps the declared command, got %q", shell.Command)
	}
	if got := readLog(t, opts, "shell"); got != "ASKED\n" || !strings.Contains(shell.Tail, "ASKED") {
		t.Errorf("log %q, tail %q: both must hold what the filter shows", got, shell.Tail)
	}
	if seen.String() != "asked\n" || !closed {
		t.Errorf("the filter got %q (closed %v), want the process's own output, then a close", seen.String(), closed)
	}
	if got := readLog(t, opts, "argv"); got != "argv asked\n" {
		t.Errorf("an argv gate runs the argv asked for: log %q", got)
	}
	if got := readLog(t, opts, "plain"); got != "plain\n" {
		t.Errorf("without an invocation the gate runs as declared: log %q", got)
	}
	if strings.Contains(strings.Join(asked, " "), "review") {
		t.Errorf("only check gates are asked for an invocation: %q", asked)
	}
}

// An invocation's environment reaches the gate's process after every other entry: a runner
// behind a script reads its census options there, whatever the caller's extras hold.
func TestInvocationEnvReachesTheProcess(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	opts.ExtraEnv = []string{"CENSUS_OPT=extra"}
	opts.Invocations = func(g gates.Gate) *Invocation {
		if g.Name == "asked" {
			return &Invocation{Env: []string{"CENSUS_OPT=asked"}}
		}
		return nil
	}
	Run(context.Background(), []gates.Gate{shellGate("asked", `echo "$CENSUS_OPT"`), shellGate("plain", `echo "$CENSUS_OPT"`)}, opts)
	if got := readLog(t, opts, "asked"); got != "asked\n" {
		t.Errorf("the invocation's environment: log %q", got)
	}
	if got := readLog(t, opts, "plain"); got != "extra\n" {
		t.Errorf("without an invocation the gate's environment is as before: log %q", got)
	}
}
