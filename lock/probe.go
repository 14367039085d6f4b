package lock

import "github.com/gauntlet-dev/gauntlet/internal/proc"

// The states Probe reports.
const (
	// Held: a live process holds the lock.
	Held = "held"
	// Interrupted: the record of a holder that ended without letting the lock go (killed, or
	// its host's timeout): the OS released the lock, Release never removed the record.
	Interrupted = "interrupted"
)

// Activity is what Probe saw. State is "" when nothing holds the lock and no holder was
// interrupted; Holder is zero when the lock is held by a process that left no record (yet).
type Activity struct {
	State  string
	Holder Holder
	// Foreign names the holder when the kernel says it is not gauntlet (BusyError.Foreign).
	Foreign string
}

// Probe says what holds the lock in stateDir, without taking it: a status that tried it would
// make a run starting at that moment fail as busy. It reads the holder record (boundedly) and
// checks that its process is alive and, where the kernel says who holds locks (Linux), that the
// lock is held at all, so that a dead holder's pid reused by another process is not taken for a
// run. It is for people to read: nothing may decide on it.
func Probe(stateDir string) Activity {
	h, recorded := ReadHolder(stateDir)
	held, kernelKnows := kernelHolds(stateDir)
	switch {
	case kernelKnows && held && !(recorded && proc.Alive(h.PID)):
		// Held by a holder that has not written its record yet, or by something that is no run.
		return Activity{State: Held, Foreign: foreignHolder(stateDir)}
	case !recorded:
		return Activity{}
	case proc.Alive(h.PID) && (held || !kernelKnows):
		return Activity{State: Held, Holder: h, Foreign: foreignIfHeld(stateDir, held)}
	default:
		return Activity{State: Interrupted, Holder: h}
	}
}

// foreignIfHeld is foreignHolder where the kernel said the lock is held.
func foreignIfHeld(stateDir string, held bool) string {
	if !held {
		return ""
	}
	return foreignHolder(stateDir)
}
