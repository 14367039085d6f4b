// Package policy decides whether what a stop hook found lets the agent stop. Every way a failure,
// an error or a broken piece of gauntlet's own machinery becomes an allow is written here, as
// rules over evidence the callers gather (the gates' verdict, the base's answer, the lock, a
// signal, the count of attempts); the callers do the I/O and the wording of what the rules leave
// to them, never the deciding. A package of pure functions: it reads nothing and writes nothing.
package policy

import (
	"cmp"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// Why a stop was allowed or blocked, as the stop hook's history records it.
const (
	WhyPass       = "pass"        // every gate in scope passed
	WhyCached     = "cached"      // the same state passed before: nothing ran
	WhyWarn       = "warn"        // only warn-severity gates failed
	WhyFail       = "fail"        // a block: gates failed, attempts left
	WhyRetryLimit = "retry_limit" // max_attempts blocks reached: let go with gates failing
	WhyInfra      = "infra"       // gates could not run or be judged: let go unverified
	WhyLock       = "lock"        // the call's time ran out waiting for a hook judging this state: let go unverified
	WhyGuard      = "guard"       // not judged at all: see Evidence.Guard
	// WhySignal is a block because the hook was ended by a termination signal its host did not
	// send at its timeout: the gates were not judged, and the stop counts as an attempt.
	WhySignal = "signal"
)

// Action is what the stop hook answers.
type Action int

const (
	// Judge decides nothing yet: the gates judge the stop (the lock taken or not).
	Judge Action = iota
	// Allow lets the agent stop, with nothing to say.
	Allow
	// Notify lets the agent stop, telling the user why: unverified, warnings, the retry limit.
	Notify
	// Block sends the agent back to work.
	Block
)

func (a Action) String() string {
	return [...]string{"judge", "allow", "notify", "block"}[a]
}

// Lead is what a block's reason starts with.
type Lead int

const (
	// LeadGates: the failed gates; the integrity findings, when any, only warn.
	LeadGates Lead = iota
	// LeadIntegrity: the integrity findings alone; no gate failed.
	LeadIntegrity
	// LeadBoth: the blocking integrity findings first, then the failed gates.
	LeadBoth
)

// Decision is the policy's answer.
type Decision struct {
	Action Action
	// Why is the history's word for it (the Why constants); "" for Judge.
	Why string
	// Guard names the guard that let the stop go unjudged, for WhyGuard.
	Guard string
	// Notice is the text of a Notify the policy words itself (what kept the gates from a
	// verdict); "" when the caller words it from the evidence (warnings, errors, the retry limit).
	Notice string
	// ReplyNote and KeptNote qualify every later reply and the history when the gates judge
	// without the run lock ("" for none).
	ReplyNote, KeptNote string
	// Reset starts the turn's count of blocks again: a pass, a warning, the retry limit.
	Reset bool
	// Attempt is the block's number, of Attempts.Max; for the retry limit, the blocks made. 0
	// while the attempts are not counted yet.
	Attempt int
	// Lead is what a block's reason starts with.
	Lead Lead
}

// Evidence is what a stop hook knows when it asks. A caller fills in what it has found; the
// first of these that is set decides, in this order: Guard, Prior (with Signal), Unjudged, Lock,
// PassedBefore, then the Verdict with Results, Integrity and Attempts.
type Evidence struct {
	// Guard names why the stop is not judged at all ("GAUNTLET set", "plan mode", "subagent",
	// "stop_hook_active"): nothing was found failing.
	Guard string
	// Prior is what the stop was about to answer when a termination signal ended the call
	// (Signal): a stop let go unverified may be an attempt instead.
	Prior  *Decision
	Signal *Signal
	// Unjudged is what kept the gates from a verdict: a config that does not load, a state
	// directory that cannot be used, a run that could not start, an internal error.
	Unjudged *Unjudged
	// Lock is how taking the run lock went, when it was not taken.
	Lock *Lock
	// PassedBefore: every gate in scope passed on this very state before, for this session.
	PassedBefore bool
	// Verdict is the gates' verdict, the integrity findings counted (gates.VerdictWithIntegrity).
	Verdict gates.Verdict
	// Results are the results a block is about (failed, not run because of a failure, errors).
	Results []gates.Result
	// Integrity are the ways the change weakens the gates.
	Integrity []gates.IntegrityFinding
	// Attempts is this turn's count of blocks; nil before the ledger is read.
	Attempts *Attempts
}

// Unjudged is what kept the gates from a verdict.
type Unjudged struct {
	// What says it in the reply's words, one line ("config error: ...").
	What string
	// Lock: the run lock stood in the way (its holder could not be waited for).
	Lock bool
}

// Lock is how taking the run lock went, when it was not taken.
type Lock struct {
	// Err is why it was not taken, in the reply's words, one line.
	Err string
	// Busy: another process holds it; Foreign: that process is not gauntlet (any process can
	// flock the file: the agent's own shell).
	Busy, Foreign bool
	// Holder says the holder when a reply lets the agent go for it; "" says Err.
	Holder string
	// Awaited: the holder was a hook judging this very state, waited for so that its verdict
	// answers this stop too.
	Awaited bool
	// Expired: the call's time ran out.
	Expired bool
}

// Signal is a termination signal that ended the call.
type Signal struct {
	// After is how long after the hook started it came; HostTimeout is how long the host gives
	// the hook.
	After, HostTimeout time.Duration
}

// hostClockSlack is how much sooner than the hook's own start the host may start the clock of its
// timeout (it starts the clock, then the hook): a signal that close to the host's timeout is the
// host's. A tenth of a short timeout at most.
const hostClockSlack = time.Second

// FromHost says whether the signal is the host's own at its timeout. Go does not say who sent a
// signal, and any process can learn the hook's pid (a gate, a test it runs, a background job of
// the agent), so the hook tells by when: its host ends it at the host's timeout, which gauntlet
// init sets above stop_hook.timeout; a signal before that is not the host's timeout.
func (s Signal) FromHost() bool {
	return s.After >= s.HostTimeout-min(hostClockSlack, s.HostTimeout/10)
}

// Attempts is this turn's count of blocks.
type Attempts struct {
	// Blocks is how many blocks the turn has had; Max is stop_hook.max_attempts.
	Blocks, Max int
	// Unsaved says why the block decided could not be counted: the ledger could not be saved,
	// in .gauntlet nor in the user's state directory. "" when it was.
	Unsaved string
}

// Decide answers a stop from the evidence.
func Decide(e Evidence) Decision {
	switch {
	case e.Guard != "":
		return Decision{Action: Allow, Why: WhyGuard, Guard: e.Guard}
	case e.Prior != nil:
		return afterSignal(e)
	case e.Unjudged != nil:
		return unverified(*e.Unjudged)
	case e.Lock != nil:
		return withoutLock(*e.Lock)
	case e.PassedBefore:
		return Decision{Action: Allow, Why: WhyCached}
	}
	return byVerdict(e)
}

// unverified lets the agent stop when the gates could not reach a verdict for reasons that are
// not the agent's to fix; the reply says what kept them.
func unverified(u Unjudged) Decision {
	why := WhyInfra
	if u.Lock {
		why = WhyLock
	}
	return Decision{Action: Notify, Why: why, Notice: "gauntlet: gates not run: " + u.What + "; stop allowed"}
}

// withoutLock decides a stop whose run lock was not taken. A lock held past lock_wait, or one that
// cannot be taken at all, is no reason to let the agent stop: `flock .gauntlet/lock sleep 1d` from
// its shell would be the cheapest allow there is. So the gates judge without it, and a holder that
// is not gauntlet (or a lock that failed otherwise) is named in the reply. Only a wait that ran
// out of the call's time, or the wait for a hook judging this very state whose verdict never came,
// lets the agent go unverified.
func withoutLock(l Lock) Decision {
	if l.Awaited || l.Expired {
		return unverified(Unjudged{What: cmp.Or(l.Holder, l.Err), Lock: true})
	}
	d := Decision{Action: Judge, KeptNote: "judged without the run lock: " + l.Err}
	if !l.Busy || l.Foreign {
		d.ReplyNote = l.Err + ": the gates were judged without it"
	}
	return d
}

// afterSignal turns a stop let go unverified because a termination signal ended the call before
// its host's timeout into an attempt: the signal may be the agent's own processes'. A signal at
// or after the host's timeout is the host's, and what the stop was about to answer stands; so does
// a verdict the gates reached before the signal.
func afterSignal(e Evidence) Decision {
	p := *e.Prior
	if e.Signal == nil || !Unverified(p) || e.Signal.FromHost() {
		return p
	}
	return attempt(e, WhySignal)
}

// Unverified says whether d lets the agent go with its gates not judged: what a signal from
// elsewhere than the host turns into an attempt.
func Unverified(d Decision) bool {
	return (d.Action == Allow || d.Action == Notify) && (d.Why == WhyInfra || d.Why == WhyLock)
}

// byVerdict maps the gates' verdict: a pass allows, a warning allows with a notice, an error
// (the environment broke, and the base did not show it to be the change's) allows unverified, a
// failure blocks while attempts are left.
func byVerdict(e Evidence) Decision {
	switch e.Verdict {
	case gates.VerdictPass:
		return Decision{Action: Allow, Why: WhyPass, Reset: true}
	case gates.VerdictWarn:
		return Decision{Action: Notify, Why: WhyWarn, Reset: true}
	case gates.VerdictError:
		return Decision{Action: Notify, Why: WhyInfra}
	}
	return attempt(e, WhyFail)
}

// attempt blocks once more, or, after Max blocks, lets the agent stop and starts the count again.
// A block that cannot be counted would be the same block forever: it lets the agent go, saying
// so. The retry limit comes first: it lets the agent go whether or not the count is kept.
func attempt(e Evidence, why string) Decision {
	a := e.Attempts
	switch {
	case a == nil:
		return Decision{Action: Block, Why: why, Lead: lead(e)} // to be counted
	case a.Blocks >= a.Max:
		return Decision{Action: Notify, Why: WhyRetryLimit, Reset: true, Attempt: a.Blocks}
	case a.Unsaved != "":
		return Decision{Action: Notify, Why: WhyInfra,
			Notice: "gauntlet: gates failed, but attempts cannot be counted (" + a.Unsaved + "); stop allowed"}
	}
	return Decision{Action: Block, Why: why, Attempt: a.Blocks + 1, Lead: lead(e)}
}

// lead says what a block's reason starts with: only blocking findings lead it, as a warning alone
// is no reason to restore anything.
func lead(e Evidence) Lead {
	blocking := gates.Blocking(e.Integrity)
	switch {
	case !blocking:
		return LeadGates
	case !failed(e.Results):
		return LeadIntegrity
	}
	return LeadBoth
}

func failed(results []gates.Result) bool {
	for _, r := range results {
		if r.Status == gates.StatusFail {
			return true
		}
	}
	return false
}
