package runner

import (
	"context"
	"errors"
	"syscall"
	"time"
)

// stopSignals are the signals that stop gauntlet itself (an agent host ending its hook, Ctrl-C,
// a closed terminal), by the names the reports use. A gate that died of another signal (a
// crash, SIGKILL) failed whoever stopped gauntlet.
var stopSignals = map[syscall.Signal]string{
	syscall.SIGTERM: "SIGTERM",
	syscall.SIGINT:  "SIGINT",
	syscall.SIGHUP:  "SIGHUP",
}

// stopSignalOf names the stop signal a process died of, or that its shell reported with the
// exit code 128+n: the leader of a `run:` gate is a shell, which may collect its child's death
// by the signal before its own arrives. "" for any other end.
func stopSignalOf(exit Exit) string {
	if s, ok := exit.Signal.(syscall.Signal); ok {
		return stopSignals[s]
	}
	for s, name := range stopSignals {
		if exit.Code == 128+int(s) {
			return name
		}
	}
	return ""
}

// stoppedWithRun says whether a gate whose process ended by a stop signal the runner did not
// send was stopped together with the run, and names the signal. It was when the caller cancelled
// the run (gauntlet received its own stop signal) before the gate's end was seen or within
// StopSignalWindow after: a host that ends a hook's process tree signals its processes one by
// one, gates first as often as not. A cancel that does not come is a gate that killed itself, or
// whose own child killed it: its failure. The run's deadline is no stop by anyone, so a gate
// that died just before it failed.
func (r *run) stoppedWithRun(exit Exit) (string, bool) {
	name := stopSignalOf(exit)
	if name == "" {
		return "", false
	}
	timer := time.NewTimer(r.opts.StopSignalWindow)
	defer timer.Stop()
	select {
	case <-r.parent.Done():
	case <-timer.C:
	}
	return name, errors.Is(r.parent.Err(), context.Canceled)
}
