package main

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["signal"] = cmdSignal
	scriptCmds["reaped"] = cmdReaped
}

// scriptSignals are the signals a script may send: the ones an agent host or a terminal stops a
// hook with.
var scriptSignals = map[string]syscall.Signal{
	"TERM": syscall.SIGTERM,
	"INT":  syscall.SIGINT,
	"HUP":  syscall.SIGHUP,
}

// cmdSignal sends SIG to the process whose pid is in each PIDFILE, in order and without pausing
// between them, as a host that ends a hook's whole process tree does ("signal TERM gate.pid
// hook.pid"). testscript's own kill knows only background commands and INT and KILL.
func cmdSignal(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: signal TERM|INT|HUP PIDFILE...")
	}
	sig, ok := scriptSignals[args[0]]
	if !ok {
		ts.Fatalf("signal: unknown signal %q", args[0])
	}
	procs := make([]*os.Process, 0, len(args)-1)
	// Every pid is read before the first signal: nothing may come between the signals.
	for _, file := range args[1:] {
		pid, err := strconv.Atoi(strings.TrimSpace(ts.ReadFile(file)))
		if err != nil {
			ts.Fatalf("signal: %s: %v", file, err)
		}
		p, err := os.FindProcess(pid)
		if err != nil {
			ts.Fatalf("signal: %v", err)
		}
		procs = append(procs, p)
	}
	for i, p := range procs {
		// A process already gone is no error: a host signals whatever is left of the tree, and
		// what the script asserts next says whether the signal was needed.
		if err := p.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
			ts.Fatalf("signal: %s (pid %d): %v", args[i+1], p.Pid, err)
		}
		p.Release()
	}
}

// cmdReaped waits until the process whose pid is in PIDFILE is gone and its parent has collected
// its exit status ("reaped gate.pid"): once a gate is reaped, gauntlet has seen how it ended, so
// a signal sent to gauntlet after this reaches it strictly after the gate's death.
func cmdReaped(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: reaped PIDFILE")
	}
	pid, err := strconv.Atoi(strings.TrimSpace(ts.ReadFile(args[0])))
	if err != nil {
		ts.Fatalf("reaped: %v", err)
	}
	deadline := time.Now().Add(hangGuard(30 * time.Second))
	for {
		// Signal 0 reaches a zombie too: only a reaped process refuses it.
		p, err := os.FindProcess(pid)
		if err != nil {
			return
		}
		gone := p.Signal(syscall.Signal(0)) != nil
		p.Release() // a handle per poll would hold a pidfd each until the collector ran
		if gone {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("process %d was not reaped within %s", pid, hangGuard(30*time.Second))
		}
		time.Sleep(10 * time.Millisecond)
	}
}
