package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
)

func TestRunClassifiesOutcomes(t *testing.T) {
	t.Parallel()
	argvGate := func(name string, argv ...string) gates.Gate {
		g := shellGate(name, "")
		g.Argv = argv
		return g
	}
	withInfra := shellGate("infra", "echo 'dial tcp: connection refused'; exit 1")
	withInfra.InfraPatterns = []*regexp.Regexp{regexp.MustCompile(`connection refused`)}
	infraOnPass := shellGate("infra-pass", "echo 'connection refused'")
	infraOnPass.InfraPatterns = withInfra.InfraPatterns
	warn := shellGate("warn", "exit 2")
	warn.Severity = gates.SeverityWarn
	unknownKind := shellGate("unknown-kind", "")
	unknownKind.Kind = gates.Kind("future")
	missingDir := shellGate("missing-dir", "true")
	missingDir.Dir = "no/such/dir"

	tests := []struct {
		gate       gates.Gate
		status     gates.Status
		exitCode   int
		reason     string // a part of the reason
		wantLogged bool
	}{
		{shellGate("pass", "echo ok"), gates.StatusPass, 0, "exit status 0", true},
		{shellGate("fail", "exit 3"), gates.StatusFail, 3, "exit status 3", true},
		{shellGate("not-found", "exit 127"), gates.StatusError, 127, "command not found", true},
		{shellGate("shell-not-found", "no-such-command-xyz"), gates.StatusError, 127, "command not found", true},
		{argvGate("argv-pass", "sh", "-c", "exit 0"), gates.StatusPass, 0, "exit status 0", true},
		{argvGate("argv-missing", "no-such-command-xyz", "arg"), gates.StatusError, -1, "could not start", true},
		{withInfra, gates.StatusError, 1, "infrastructure problem: dial tcp: connection refused", true},
		{infraOnPass, gates.StatusPass, 0, "exit status 0", true},
		{warn, gates.StatusWarn, 2, "exit status 2", true},
		{unknownKind, gates.StatusError, -1, "kind future is not supported by this build", true},
		{missingDir, gates.StatusError, -1, "could not start", true},
		{shellGate("signalled", "kill -9 $$"), gates.StatusFail, -1, "killed by a signal", true},
	}
	var gs []gates.Gate
	for _, tc := range tests {
		tc.gate.Hint = "hint of " + tc.gate.Name
		gs = append(gs, tc.gate)
	}
	opts := testOptions(t)
	results := Run(context.Background(), gs, opts)
	if len(results) != len(tests) {
		t.Fatalf("got %d results for %d gates", len(results), len(tests))
	}
	for i, tc := range tests {
		res := results[i]
		t.Run(tc.gate.Name, func(t *testing.T) {
			if res.Name != tc.gate.Name {
				t.Fatalf("result %d is %q, want %q (input order)", i, res.Name, tc.gate.Name)
			}
			if res.Status != tc.status || res.ExitCode != tc.exitCode {
				t.Errorf("status %s exit %d, want %s exit %d (reason %q)", res.Status, res.ExitCode, tc.status, tc.exitCode, res.Reason)
			}
			if !strings.Contains(res.Reason, tc.reason) {
				t.Errorf("reason %q does not contain %q", res.Reason, tc.reason)
			}
			// A gate that printed nothing has no log file to point to.
			wantLog := testLogPrefix + "/" + tc.gate.Name + ".log"
			if res.Tail == "" {
				wantLog = ""
			}
			if res.Log != wantLog {
				t.Errorf("log %q, want %q", res.Log, wantLog)
			}
			if res.Kind != tc.gate.Kind || res.Hint != "hint of "+tc.gate.Name || res.Command != tc.gate.Command() {
				t.Errorf("kind/hint/command not copied: %+v", res)
			}
			if res.Started.IsZero() || res.Duration <= 0 {
				t.Errorf("started %v duration %v, want both set", res.Started, res.Duration)
			}
		})
	}
}

func TestRunEnvironment(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	opts.Env = []string{"PATH=" + os.Getenv("PATH"), "FROM_BASE=base", "LAYER=base"}
	opts.ExtraEnv = []string{"LAYER=extra", "FROM_EXTRA=extra"}
	g := shellGate("env-gate", `echo "$GAUNTLET|$GAUNTLET_RUN_ID|$GAUNTLET_GATE|$FROM_BASE|$FROM_GATE|$FROM_EXTRA|$LAYER"`)
	g.Env = []string{"FROM_GATE=gate", "LAYER=gate", "GAUNTLET_GATE=spoofed"}
	res := Run(context.Background(), []gates.Gate{g}, opts)[0]
	want := "1|" + opts.RunID + "|env-gate|base|gate|extra|extra"
	if res.Status != gates.StatusPass || res.Tail != want {
		t.Fatalf("status %s tail %q, want pass %q", res.Status, res.Tail, want)
	}
}

func TestRunDirAndPath(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	sub := filepath.Join(opts.Root, "sub")
	bin := filepath.Join(opts.Root, "bin")
	for _, dir := range []string{sub, bin} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script := "#!/bin/sh\necho \"tool in $(pwd)\"\n"
	if err := os.WriteFile(filepath.Join(bin, "gate-tool"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "local-tool"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}

	pwd := shellGate("pwd", "pwd")
	pwd.Dir = "sub"
	fromGatePath := shellGate("gate-path", "")
	fromGatePath.Argv = []string{"gate-tool"}
	fromGatePath.Env = []string{"PATH=" + bin + ":/usr/bin:/bin"}
	relative := shellGate("relative", "")
	relative.Argv = []string{"./local-tool"}
	relative.Dir = "sub"

	results := Run(context.Background(), []gates.Gate{pwd, fromGatePath, relative}, opts)
	want := []string{sub, "tool in " + opts.Root, "tool in " + sub}
	for i, res := range results {
		if res.Status != gates.StatusPass || res.Tail != want[i] {
			t.Errorf("%s: status %s (%s) tail %q, want pass %q", res.Name, res.Status, res.Reason, res.Tail, want[i])
		}
	}
}

func TestRunWritesLogAndTail(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	script := `i=1; while [ $i -le 100 ]; do printf '\033[31mline %d\033[0m  \n' $i; i=$((i+1)); done; echo err >&2; printf 'unterminated'`
	res := Run(context.Background(), []gates.Gate{shellGate("out", script)}, opts)[0]

	var wantLog strings.Builder
	var wantTail []string
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&wantLog, "\033[31mline %d\033[0m  \n", i)
		if i > 100-tailMaxLines+2 {
			wantTail = append(wantTail, fmt.Sprintf("line %d", i))
		}
	}
	wantLog.WriteString("err\nunterminated")
	wantTail = append(wantTail, "err", "unterminated")

	if got := readLog(t, opts, "out"); got != wantLog.String() {
		t.Errorf("log differs from the output:\n%q", got)
	}
	if res.Lines != 102 {
		t.Errorf("Lines = %d, want 102", res.Lines)
	}
	if res.Tail != strings.Join(wantTail, "\n") {
		t.Errorf("tail:\n%s\nwant the last tailMaxLines lines without escapes:\n%s", res.Tail, strings.Join(wantTail, "\n"))
	}
}

func TestRunCapsLogFile(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	opts.MaxLogBytes = 20
	res := Run(context.Background(), []gates.Gate{shellGate("big", "printf '0123456789abcdefghijklmnopqrstuvwxyz'")}, opts)[0]
	want := "0123456789\n[gauntlet: 16 bytes omitted]\nqrstuvwxyz"
	if got := readLog(t, opts, "big"); got != want {
		t.Errorf("log %q, want %q", got, want)
	}
	if res.Status != gates.StatusPass {
		t.Errorf("status %s (%s), want pass", res.Status, res.Reason)
	}
}

// A gate that prints nothing gets no log file: creating it would be most of its cost.
func TestSilentGateHasNoLogFile(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	res := Run(context.Background(), []gates.Gate{shellGate("silent", "true")}, opts)[0]
	if res.Status != gates.StatusPass || res.Log != "" {
		t.Errorf("got %+v, want pass without a log", res)
	}
	if _, err := opts.Logs.Stat("silent.log"); err == nil {
		t.Error("a silent gate left a log file")
	}
}

func TestRunWithoutLogs(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	opts.Logs = nil
	res := Run(context.Background(), []gates.Gate{shellGate("nolog", "echo hi")}, opts)[0]
	if res.Status != gates.StatusPass || res.Log != "" || res.Tail != "hi" {
		t.Errorf("got %+v, want pass without log and tail hi", res)
	}
}

func TestRunUnwritableLogIsError(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	// A directory where the log file should be makes creating it fail.
	if err := opts.Logs.Mkdir("blocked.log", 0o755); err != nil {
		t.Fatal(err)
	}
	// The file is created when the gate first prints.
	res := Run(context.Background(), []gates.Gate{shellGate("blocked", "echo hi")}, opts)[0]
	if res.Status != gates.StatusError || !strings.Contains(res.Reason, "log of gate blocked") {
		t.Errorf("status %s reason %q, want error about the log", res.Status, res.Reason)
	}
}

func TestObserverGetsWholeLinesInOrder(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	rec := &recorder{}
	opts.Observer = rec
	const n = 3000
	script := fmt.Sprintf(`i=0; while [ $i -lt %d ]; do echo "a-$i"; echo "b-$i" >&2; i=$((i+1)); done; printf 'cr\r\nlast'`, n)
	other := shellGate("other", `echo one; echo two`)
	Run(context.Background(), []gates.Gate{shellGate("many", script), other}, opts)

	var want []string
	for i := range n {
		want = append(want, fmt.Sprintf("a-%d", i), fmt.Sprintf("b-%d", i))
	}
	want = append(want, "cr", "last")
	got := rec.lines["many"]
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %d lines, want %d whole lines in order", len(got), len(want))
	}
	if strings.Join(rec.lines["other"], ",") != "one,two" {
		t.Errorf("other gate lines %q", rec.lines["other"])
	}
	if len(rec.finished) != 2 {
		t.Errorf("Finished called %d times, want 2", len(rec.finished))
	}
}

func TestRunRespectsJobsAndOrder(t *testing.T) {
	t.Parallel()
	for _, jobs := range []int{1, 2} {
		t.Run(fmt.Sprint("jobs=", jobs), func(t *testing.T) {
			t.Parallel()
			opts := testOptions(t)
			opts.Jobs = jobs
			rec := &recorder{}
			opts.Observer = rec
			var gs []gates.Gate
			var names []string
			for i := range 5 {
				name := fmt.Sprint("g", i)
				names = append(names, name)
				gs = append(gs, shellGate(name, "sleep 0.3"))
			}
			Run(context.Background(), gs, opts)
			if rec.maxRunning != jobs {
				t.Errorf("at most %d gates ran at once, want %d", rec.maxRunning, jobs)
			}
			if jobs == 1 && strings.Join(rec.started, ",") != strings.Join(names, ",") {
				t.Errorf("started %v, want input order %v", rec.started, names)
			}
		})
	}
}

func TestRunRecoversPanics(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	rec := &recorder{onStart: func(g gates.Gate) {
		if g.Name == "boom" {
			panic("observer exploded")
		}
	}}
	opts.Observer = rec
	results := Run(context.Background(), []gates.Gate{shellGate("boom", "true"), shellGate("fine", "true")}, opts)
	if results[0].Status != gates.StatusError || !strings.Contains(results[0].Reason, "observer exploded") {
		t.Errorf("boom: status %s reason %q, want error naming the panic", results[0].Status, results[0].Reason)
	}
	if results[1].Status != gates.StatusPass {
		t.Errorf("fine: status %s, want pass", results[1].Status)
	}
}

type panickingExecutor struct{}

func (panickingExecutor) Execute(context.Context, Process, io.Writer) (Exit, error) {
	panic("executor exploded")
}

type failingExecutor struct{}

func (failingExecutor) Execute(context.Context, Process, io.Writer) (Exit, error) {
	return Exit{Code: -1}, errors.New("no pipes left")
}

func TestRunExecutorFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		executor Executor
		reason   string
	}{
		{panickingExecutor{}, "gauntlet error: panic while running gate g: executor exploded"},
		{failingExecutor{}, "gauntlet error: running gate g: no pipes left"},
	}
	for _, tc := range tests {
		opts := testOptions(t)
		opts.Executor = tc.executor
		res := Run(context.Background(), []gates.Gate{shellGate("g", "true")}, opts)[0]
		if res.Status != gates.StatusError || res.Reason != tc.reason {
			t.Errorf("status %s reason %q, want error %q", res.Status, res.Reason, tc.reason)
		}
	}
}

func TestObserverPanicOnOutputIsError(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	opts.Observer = &recorder{onLine: func(string, string) { panic("bad line") }}
	// Enough output to fill the pipe: the gate must still be drained to the end.
	res := runWithin(t, 30*time.Second, func() []gates.Result {
		return Run(context.Background(), []gates.Gate{shellGate("g", "yes | head -c 1000000")}, opts)
	})[0]
	if res.Status != gates.StatusError || !strings.Contains(res.Reason, "bad line") {
		t.Errorf("status %s reason %q, want error naming the panic", res.Status, res.Reason)
	}
}
