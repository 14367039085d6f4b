package stophook

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/engine"
	"github.com/gauntlet-dev/gauntlet/internal/policy"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// An error is judged once per state (SPEC §12). A gate that cannot run (a registry offline) errors
// at every stop, and earning that error runs it at the base too: the same minute paid at each stop
// for the same state in the same environment. So the error a stop let go is kept in the ledger,
// sealed with it, and answers the same session's next stop on that very state for errorRecordTTL.
// The fingerprint holds everything that could make the next judgement differ but the world
// outside the machine: the tree, the config, the gates' tools and the environment that steers
// them (envid); the time bound covers the rest (the registry coming back).

// errorRecordTTL is how long an error stop answers the next stop on the same state.
const errorRecordTTL = 10 * time.Minute

// maxRecordedNotice bounds the notice a record keeps: it is one reply line.
const maxRecordedNotice = 4 << 10

// errorRecord is an error verdict the policy let the agent stop on, as the next stop on the same
// state repeats it.
type errorRecord struct {
	// Fingerprint is the state judged: tree, config, tools and environment.
	Fingerprint string    `json:"fingerprint"`
	At          time.Time `json:"at"`
	// Notice is the reply the error was let go with; Failed the gates not judged.
	Notice string   `json:"notice"`
	Failed []string `json:"failed,omitempty"`
	// Sticky are the gates the session kept in scope when it was judged: a session that owes
	// another one since must have it judged.
	Sticky []string `json:"sticky,omitempty"`
}

// answers says whether the record answers a stop on fingerprint, by a session that owes sticky,
// at now. A record from the future (the clock went back) answers nothing.
func (r *errorRecord) answers(fingerprint string, sticky []string, now time.Time) bool {
	if r == nil || fingerprint == "" || r.Fingerprint != fingerprint {
		return false
	}
	if age := now.Sub(r.At); age < 0 || age >= errorRecordTTL {
		return false
	}
	for _, n := range sticky {
		if !slices.Contains(r.Sticky, n) {
			return false
		}
	}
	return true
}

// errorKept says whether the run and the policy's decision d on it make a record: an error the
// policy let go, every gate that did not pass having run to its end. A timeout may be a cold
// build that the next run warms, and a cancelled gate was stopped, not judged: both run again.
func errorKept(d policy.Decision, run *engine.Run) bool {
	if d.Why != policy.WhyInfra || d.Action == policy.Block || run.Verdict != gates.VerdictError {
		return false
	}
	return !slices.ContainsFunc(slices.Concat(run.Setup, run.Results), func(r gates.Result) bool {
		return r.Status == gates.StatusCancelled || r.Status == gates.StatusError && r.TimedOut
	})
}

// keepError records in sess the error the run was let go with, or forgets the record when the
// stop was decided otherwise: a record answers only the stop after the one it was made by. judged
// says the verdict is about the state fingerprinted (nothing changed it, no signal cut it short).
func (c *call) keepError(sess *sessionState, st *stopState, judged bool, run *engine.Run, out Outcome) {
	if sess == nil {
		return
	}
	sess.LastError = nil
	if !judged || !errorKept(out.decided, run) {
		return
	}
	sess.LastError = &errorRecord{
		Fingerprint: st.fingerprint,
		At:          c.now(),
		Notice:      termtext.Cap(errorNotice(slices.Concat(run.Setup, run.Results)), maxRecordedNotice),
		Failed:      slices.Clone(c.dec.failed),
		Sticky:      slices.Clone(stickyOf(st.led, st.key)),
	}
}

// fromRecord answers a stop from the record of the error stop on the same state: let go as it
// was, saying that nothing ran again and since when.
func (c *call) fromRecord(rec *errorRecord) Outcome {
	ago := agoText(c.now().Sub(rec.At))
	c.dec.verdict = gates.VerdictError
	c.dec.failed = slices.Clone(rec.Failed)
	c.note("", "answered from the record of the error stop on this state "+ago+" ago (same tree, config, tools and environment): no gate run")
	msg := strings.TrimSuffix(rec.Notice, "; stop allowed") + "; same state as " + ago + " ago, not run again; stop allowed"
	return c.answer(policy.Decide(policy.Evidence{Verdict: gates.VerdictError}), msg)
}

// agoText says an age in whole seconds under a minute, else in whole minutes.
func agoText(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d/time.Second))
	}
	return fmt.Sprintf("%dm", int(d/time.Minute))
}

// errorRecordOf is the record of the session key in led.
func errorRecordOf(led *ledger, key string) *errorRecord {
	if s := led.Sessions[key]; s != nil {
		return s.LastError
	}
	return nil
}

// now is the call's clock.
func (c *call) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}
