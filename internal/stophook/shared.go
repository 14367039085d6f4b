package stophook

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/policy"
	"github.com/gauntlet-dev/gauntlet/internal/proc"
	"github.com/gauntlet-dev/gauntlet/internal/seal"
	"github.com/gauntlet-dev/gauntlet/internal/state"
)

// inflightFile records the state the stop hook holding the run lock is judging, and once it is
// done, its verdict: another hook stopping on the same state waits for that verdict instead of
// running the gates a second time, or of giving up after lock_wait and letting its agent stop
// unverified. Relative to the state dir; written only under the run lock.
const inflightFile = "state/inflight.json"

// maxInflightBytes bounds the read: the failures kept are trimmed like the ledger's.
const maxInflightBytes = 1 << 20

type inflight struct {
	Fingerprint string `json:"fingerprint"`
	// Session is the session key of the hook that runs the gates: a verdict on gates that depend
	// on the session is shared only within it.
	Session string `json:"session"`
	PID     int    `json:"pid"`
	RunID   string `json:"run_id,omitempty"`
	Done    bool   `json:"done"`
	// Verdict and what failed, once Done.
	Verdict gates.Verdict  `json:"verdict,omitempty"`
	Failed  []gates.Result `json:"failed,omitempty"`
	Total   int            `json:"total,omitempty"`
	// Notice is the reply of a warn or error verdict.
	Notice string `json:"notice,omitempty"`
	// Sticky are the gates the run kept in scope for its own session only (they failed there
	// earlier): what its verdict says about them does not hold for another session.
	Sticky []string `json:"sticky,omitempty"`
	// Speculative marks a background judge's record: its Results stand for the gates it ran,
	// which a stop on the same state takes instead of running them again.
	Speculative bool           `json:"speculative,omitempty"`
	Results     []gates.Result `json:"results,omitempty"`
	// Integrity are the integrity findings of the verdict, once Done.
	Integrity []gates.IntegrityFinding `json:"integrity,omitempty"`
	// MAC seals the rest with the user's key (internal/seal): a verdict edited by hand is not
	// one another hook may answer with.
	MAC string `json:"mac,omitempty"`
}

func (in *inflight) SealField() *string { return &in.MAC }

// readInflight reads the record; one that is missing, unreadable or not sealed by gauntlet is
// none.
func readInflight(sd *state.Dir) *inflight {
	data, err := sd.ReadFileLimit(inflightFile, maxInflightBytes)
	if err != nil {
		return nil
	}
	var in inflight
	if json.Unmarshal(data, &in) != nil || in.Fingerprint == "" {
		return nil
	}
	key, _ := seal.Load()
	if !key.VerifyJSON(sealInflight, sd.Path(), &in) {
		return nil
	}
	return &in
}

func writeInflight(sd *state.Dir, in inflight) error {
	key, _ := seal.Load()
	if err := key.SealJSON(sealInflight, sd.Path(), &in); err != nil {
		return err
	}
	data, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return sd.WriteFileAtomic(inflightFile, data)
}

// sameState says whether in is about the state this call judges and may answer for this
// session.
func (in *inflight) sameState(fingerprint, key string, sessionDependent bool) bool {
	return in != nil && fingerprint != "" && in.Fingerprint == fingerprint &&
		(!sessionDependent || in.Session == key)
}

// running says whether the hook that wrote in is still judging: not done, and its process alive
// (a hook killed mid-run leaves a record nobody will finish).
func (in *inflight) running() bool {
	if in == nil || in.Done || in.PID <= 0 {
		return false
	}
	return proc.Alive(in.PID)
}

// sessionDependent says whether any enabled gate's result depends on the agent's session: then a
// pass is remembered, and a verdict shared, per session only.
func sessionDependent(cfg *config.Config) bool {
	return slices.ContainsFunc(cfg.Gates, func(g gates.Gate) bool { return g.Enabled && g.SessionDependent() })
}

// sharedAnswer answers from a finished run on the same state, under the run lock, counted for
// this session like its own run would be. ok is false when the verdict cannot stand for this
// session: a pass that does not cover the gates this session still owes.
func (c *call) sharedAnswer(sd *state.Dir, in *inflight, key string, maxAttempts int) (Outcome, bool) {
	led, _ := loadLedger(sd)
	if !in.standsFor(stickyOf(led, key)) {
		return Outcome{}, false
	}
	return c.remember(sd, func(led *ledger) Outcome {
		sess := led.session(key, time.Now())
		sess.hear(c.payload)
		sess.settle(in.Failed)
		ps := c.promptOf(sess)
		c.dec.verdict = in.Verdict
		ev := policy.Evidence{Verdict: in.Verdict, Results: in.Failed, Integrity: in.Integrity, Attempts: attemptsOf(ps, maxAttempts)}
		d := policy.Decide(ev)
		switch d.Why {
		case policy.WhyPass, policy.WhyWarn, policy.WhyInfra:
			if d.Reset {
				*ps = promptState{}
			}
			return c.answer(d, in.Notice)
		}
		c.integrity = in.Integrity
		return c.attempted(ps, ev, d, in.Total, in.Fingerprint)
	}), true
}

// standsFor says whether the verdict holds for a session that keeps sticky in scope: its scope
// and the run's differ only by the two sticky lists. A pass must have covered every gate this
// session owes; a failure must be of gates this session has in scope too.
func (in *inflight) standsFor(sticky []string) bool {
	covers := func(a, b []string) bool { // every name of b is in a
		for _, n := range b {
			if !slices.Contains(a, n) {
				return false
			}
		}
		return true
	}
	switch in.Verdict {
	case gates.VerdictPass:
		return covers(in.Sticky, sticky)
	case gates.VerdictFail:
		for _, r := range only(in.Failed, gates.StatusFail) {
			if slices.Contains(in.Sticky, r.Name) && !slices.Contains(sticky, r.Name) {
				return false
			}
		}
		return true
	}
	return covers(in.Sticky, sticky) && covers(sticky, in.Sticky)
}
