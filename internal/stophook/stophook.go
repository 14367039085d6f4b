// Package stophook is `gauntlet stop-hook`: the agent host's dialects in front of the engine (decode
// the payload, remember attempts, skip work already judged) and behind it (encode the reply).
package stophook

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/engine"
	"github.com/gauntlet-dev/gauntlet/internal/fix"
	"github.com/gauntlet-dev/gauntlet/internal/policy"
	"github.com/gauntlet-dev/gauntlet/internal/redact"
	"github.com/gauntlet-dev/gauntlet/internal/report"
	"github.com/gauntlet-dev/gauntlet/internal/seal"
	"github.com/gauntlet-dev/gauntlet/internal/session"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
	"github.com/gauntlet-dev/gauntlet/internal/todos"
	"github.com/gauntlet-dev/gauntlet/internal/toolid"
	"github.com/gauntlet-dev/gauntlet/lock"
	"github.com/gauntlet-dev/gauntlet/runner"
)

// Options is everything one stop-hook call reads from its surroundings.
type Options struct {
	Stdin  io.Reader
	Stderr io.Writer
	Getenv func(string) string
	// Environ is the base environment of the gates.
	Environ []string
	// Cwd is the process's working directory, the last resort for finding the project.
	Cwd string
	// Host is forced by --host; "" detects it from the payload.
	Host Host
	// ReadTimeout bounds the wait for a complete payload; 0 means ReadPayload's default (5s).
	ReadTimeout time.Duration
	// DryRun judges without consequences (gauntlet doctor): no attempt is counted, nothing is
	// written to the ledger or the history. The gates still run and write their logs.
	DryRun bool
	// StopSignalWindow is how long after a gate died of a stop signal the host's own signal to
	// the hook may come for that gate to count as stopped by the host (runner.Options); 0 is the
	// runner's default.
	StopSignalWindow time.Duration
	// Started is when the process started, about when the host's timeout started counting; zero
	// means when Run is called.
	Started time.Time
	// Now is the clock an error stop's record is kept and aged by (errorrecord.go); nil is
	// time.Now.
	Now func() time.Time
}

// Outcome is what the process prints on stdout and exits with.
type Outcome struct {
	Stdout   []byte
	ExitCode int
	// Reply is the answer before the host's encoding, for showing it in another host's words.
	Reply  Reply
	blocks bool
	// decided is the verdict policy's decision the reply was made from; asked is the evidence of
	// a block, asked again when the block cannot be counted.
	decided policy.Decision
	asked   *policy.Evidence
}

// Run answers one stop request. It never panics and never returns an error: every problem that
// is not the agent's to fix becomes a reply that lets the agent stop, with the cause.
func Run(ctx context.Context, o Options) (out Outcome) {
	call := &call{Options: o, host: o.Host, secrets: redact.New(redact.Rules{}, o.Environ)}
	if call.Started.IsZero() {
		call.Started = time.Now()
	}
	if call.host == "" {
		call.host = HostClaude
	}
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(o.Stderr, "gauntlet: stop-hook: internal error: %v\n%s", p, debug.Stack())
			out = call.unjudged(fmt.Sprintf("internal error: %v", p), false)
		}
		call.record(out)
	}()
	return call.unlessSignalled(ctx, call.run(ctx))
}

type call struct {
	Options
	host    Host
	payload Payload
	started time.Time // when stop_hook.timeout started counting
	// stateAt is when a background judge was asked for the state it judges (its request's
	// time); zero for a stop, which judges the state of its own time.
	stateAt time.Time
	dec     decision
	// turn is how this stop's prompt was told when the host sends no prompt id (turn.go).
	turn toldTurn
	// secrets hides the values of secret variables in every reply: those of the process
	// environment until the config is loaded, then also the config's and its gates'.
	secrets *redact.Redactor
	// stopped are the gates first_failure stopped before they were judged.
	stopped []gates.Result
	// integrity are the ways the change weakens the gates, which a block names first.
	integrity []gates.IntegrityFinding
	// fixed is what stop_hook.autofix's fixers did before this reply.
	fixed []fix.Result
	// overrides name what .gauntlet.local.yml changes of the gates, as the stop hook says it in
	// every block and history entry; overrideMode is stop_hook.local_overrides.
	overrides    []string
	overrideMode string
	// session is what judges this session's stops: its base, its config, its environment.
	session judging
	// cfg is the config the stop is judged with, once its state directory is open (openState).
	cfg *config.Config
	// usableRoot is the project whose .gauntlet this call found usable (openState): the history
	// is written there without checking it again.
	usableRoot string
	// replyNotes qualify every reply: gauntlet's own state found broken, and judged anyway.
	replyNotes []string
}

// sessionKey is the ledger's key of the payload's session; "" when the host names none, and
// nothing is pinned for it.
func (c *call) sessionKey() string {
	if c.payload.Session() == "" {
		return ""
	}
	return sessionKey(c.host, c.payload.Session())
}

func (c *call) allow() Outcome {
	if len(c.replyNotes) > 0 {
		return c.message("gauntlet: passed, but " + strings.Join(c.replyNotes, "; ") + "; stop allowed")
	}
	return Outcome{Stdout: Encode(c.host, Reply{Verdict: Allow}), Reply: Reply{Verdict: Allow}}
}

func (c *call) block(reason string) Outcome {
	reason = withNotes(withOverrides(reason, c.overrides, c.overrideMode), c.replyNotes)
	r := Reply{Verdict: Block, Reason: reason, Secrets: c.secrets}.Shown()
	return Outcome{Stdout: Encode(c.host, r), Reply: r, blocks: true}
}

// notify lets the agent stop with a message; hosts without a place for it get it on stderr,
// cleaned and redacted the same way.
func (c *call) notify(msg string) Outcome {
	return c.message(noticeWithNotes(msg, c.replyNotes))
}

// answer makes the reply the verdict policy decided; text words what the policy leaves to the
// caller (a block's reason, a notice made from the results).
func (c *call) answer(d policy.Decision, text string) Outcome {
	c.because(d.Why, d.Guard)
	var out Outcome
	switch d.Action {
	case policy.Allow:
		out = c.allow()
	case policy.Block:
		out = c.block(text)
	default:
		out = c.notify(cmp.Or(d.Notice, text))
	}
	out.decided = d
	return out
}

// unjudged answers a stop whose gates could not reach a verdict: what says why, in the reply's
// words; lock says the run lock stood in the way.
func (c *call) unjudged(what string, lock bool) Outcome {
	return c.answer(policy.Decide(policy.Evidence{Unjudged: &policy.Unjudged{What: what, Lock: lock}}), "")
}

// guard answers a stop that is not judged at all.
func (c *call) guard(name string) Outcome {
	return c.answer(policy.Decide(policy.Evidence{Guard: name}), "")
}

// message is notify's reply, the notes already in msg.
func (c *call) message(msg string) Outcome {
	r := Reply{Verdict: Notify, Message: msg, Secrets: c.secrets}.Shown()
	fmt.Fprintln(c.Stderr, r.Message)
	return Outcome{Stdout: Encode(c.host, r), Reply: r}
}

func (c *call) run(ctx context.Context) Outcome {
	// A gate's own agent is stopping (a review gate runs one): judging it would recurse.
	if c.Getenv("GAUNTLET") != "" {
		return c.guard("GAUNTLET set")
	}
	p, err := ReadPayload(c.Stdin, c.ReadTimeout)
	if err != nil {
		fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: %v\n", err)
		return Outcome{ExitCode: 1}
	}
	c.payload = p
	if note := backgroundNote(p); note != "" {
		c.replyNotes = append(c.replyNotes, note)
	}
	if c.Host == "" {
		c.host = DetectHost(p)
	}
	if p.PermissionMode == "plan" {
		return c.guard("plan mode")
	}

	cfg, out, ok := c.sessionConfig(ctx, p.Dir(c.Getenv, c.Cwd))
	if !ok {
		return out
	}
	if guard := stopGuard(p, cfg); guard != "" {
		return c.guard(guard)
	}

	// The whole call ends within stop_hook.timeout; the runner reports gates still running at
	// the deadline as timed out.
	c.started = time.Now()
	ctx, cancel := context.WithTimeout(ctx, cfg.StopHook.Timeout)
	defer cancel()
	c.countPerTurn(ctx)
	return c.judge(ctx, cfg)
}

// sessionConfig loads the config in dir and decides what judges the session's stops: the config
// it is judged with, or, when ok is false, the reply (no config: allow; a config error: let go
// unjudged, saying so).
func (c *call) sessionConfig(ctx context.Context, dir string) (_ *config.Config, _ Outcome, ok bool) {
	dir = sessionRoot(dir, c.sessionKey())
	loaded, err := c.loadConfig(dir)
	if loaded != nil {
		// Secrets of both files are hidden, whichever the stop is judged with.
		c.secrets = loaded.Redactor(c.Environ)
		c.judgedConfig(loaded)
	}
	// Which config and which base judge: the session's, pinned at its first hook call.
	c.session, err = sessionJudging(ctx, dir, c.sessionKey(), session.PinnedAtStop, loaded, err, c.Environ)
	switch {
	case errors.Is(err, config.ErrNotFound):
		return nil, c.allow(), false
	case err != nil:
		return nil, c.unjudged("config error: "+oneLine(err.Error()), false), false
	}
	if c.session.note != "" {
		fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: %s\n", c.session.note)
	}
	cfg := c.session.cfg
	c.dec.root = cfg.Root
	if loaded == nil {
		c.secrets = cfg.Redactor(c.Environ)
	}
	return cfg, Outcome{}, true
}

// stopGuard names the guard of the config that lets this stop go unjudged: a subagent's stop
// (without stop_hook.subagents), a continuation the host marks (with honor_active_flag); "" for
// none.
func stopGuard(p Payload, cfg *config.Config) string {
	switch {
	case p.IsSubagentStop() && !cfg.StopHook.Subagents:
		return "subagent"
	case cfg.StopHook.HonorActiveFlag && p.StopHookActive:
		return "stop_hook_active"
	}
	return ""
}

// stopBudget splits stop_hook.timeout between the gates and the stopping of them: gates still
// running are signalled early enough that the grace between SIGTERM and SIGKILL, the draining
// of their output and the reply all fit in the timeout. A gate that ignores SIGTERM must not
// make the reply late.
func stopBudget(timeout time.Duration) (gates, grace time.Duration) {
	grace = min(runner.DefaultGrace, timeout/4)
	margin := min(time.Second, timeout/10)
	return timeout - grace - margin, grace
}

// judge answers from the ledger when the state was already judged, from the verdict of another
// hook judging the same state, else runs the gates.
func (c *call) judge(ctx context.Context, cfg *config.Config) Outcome {
	sd, err := c.openState(cfg)
	if err != nil {
		return c.unjudged(oneLine(err.Error()), false)
	}
	defer sd.Close()
	st := c.readStop(ctx, cfg, sd)
	if out, ok := c.answerKnown(ctx, cfg, st); ok {
		return out
	}
	c.supersedeJudge(sd, st.fingerprint)
	held, waited, out, done := c.lockFor(ctx, cfg, sd, st.fingerprint, st.key, st.perSession)
	if done {
		return out
	}
	defer held.Release()
	if out, ok := c.answerShared(st, held, waited); ok {
		return out
	}
	return c.runGates(ctx, cfg, st, held)
}

// stopState is what a stop reads before it decides anything: the state directory, the reading of
// the repository and the fingerprint of the state, the ledger, and who is stopping.
type stopState struct {
	sd      *state.Dir
	inputs  []byte
	tools   *toolid.Resolver
	stateOf func(context.Context, *snapshot.Tree) (string, error)
	snap    *snapshot.Snapshot
	// fingerprint is "" when the state could not be fingerprinted: nothing is remembered for it.
	fingerprint string
	led         *ledger
	key         string
	maxAttempts int
	perSession  bool
	// judged are the results a background judge left for this state (answerShared).
	judged []gates.Result
}

// readStop reads the state of the stop. The repository is read once: the fingerprint, change
// scoping, the per-gate cache and the gates share the reading, and the gates' tools are named once
// for the fingerprint and the cache keys.
func (c *call) readStop(ctx context.Context, cfg *config.Config, sd *state.Dir) *stopState {
	st := &stopState{sd: sd, tools: toolid.New(), key: sessionKey(c.host, c.payload.Session()),
		maxAttempts: cfg.StopHook.MaxAttempts, perSession: sessionDependent(cfg)}
	st.inputs = c.session.inputs(judgedInputs(ctx, cfg, c.payload.Transcript()), c.Environ)
	st.stateOf = fingerprinter(cfg, sd, st.inputs, c.Environ, st.tools)
	st.snap = engine.NewSnapshot(cfg, engine.Scope{Pinned: c.session.base})
	if c.session.tree != nil {
		st.snap.SetTree(c.session.tree)
	}
	tree, err := st.snap.Tree(ctx)
	if err == nil {
		st.fingerprint, err = st.stateOf(ctx, tree)
	}
	if err != nil && !errors.Is(err, ErrNotGit) {
		fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: no fingerprint, running the gates: %v\n", err)
	}
	led, err := loadLedger(sd)
	if err != nil {
		fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: %v\n", err)
	}
	st.led = led
	if _, err := seal.Load(); err != nil {
		fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: %v; no stored pass is believed, the gates run\n", err)
	}
	// A stop whose prompt cannot be told counts with the session's last one before anything
	// compares prompts: untold is no new turn.
	c.resumeTurn(led, st.key)
	c.noteHostRelease(ctx, sd, led.Sessions[st.key])
	return st
}

// answerKnown answers a state the ledger knows: one that passed before, one this session's turn
// was already blocked on, or one this session was let go on with an error a moment ago. ok is false when the gates must judge it.
func (c *call) answerKnown(ctx context.Context, cfg *config.Config, st *stopState) (_ Outcome, ok bool) {
	if st.fingerprint == "" {
		return Outcome{}, false
	}
	// Another session's pass says nothing about gates this session still owes (sticky ones
	// can be out of scope for everybody else), nor about gates that read the session.
	if passedBefore(st.led, st.key, st.fingerprint, st.perSession) && len(stickyOf(st.led, st.key)) == 0 {
		c.reapLeftovers(ctx, st.sd)
		return c.answer(policy.Decide(policy.Evidence{PassedBefore: true}), ""), true
	}
	if c.blockedOn(st) {
		return c.reblock(ctx, cfg, st.sd), true
	}
	if errorRecordOf(st.led, st.key).answers(st.fingerprint, stickyOf(st.led, st.key), c.now()) {
		c.reapLeftovers(ctx, st.sd)
		return c.fromRecord(errorRecordOf(st.led, st.key)), true
	}
	return Outcome{}, false
}

// blockedOn says whether this session's turn was last blocked on the very state st.
func (c *call) blockedOn(st *stopState) bool {
	sess := st.led.Sessions[st.key]
	if sess == nil {
		return false
	}
	ps := sess.Prompts[c.payload.Prompt()]
	return ps != nil && ps.BlockFingerprint == st.fingerprint
}

// answerShared answers, under the lock (or past it), from a verdict another hook reached on the
// same state. A verdict this call waited for answers it, whatever it is. One found already
// finished answers when it is a pass or a failure (a hook that raced another for the lock and
// lost must not judge the same state again); warnings and infrastructure errors are judged anew,
// as they always were. Otherwise the state is marked as being judged by this call.
func (c *call) answerShared(st *stopState, held *lock.Lock, waited bool) (_ Outcome, ok bool) {
	// Read again under the lock: a hook of the same session that held it meanwhile may have made
	// a gate sticky, and running without it could let a laundered failure through.
	if fresh, err := loadLedger(st.sd); err == nil {
		st.led = fresh
	}
	in := readInflight(st.sd)
	st.judged = judgedResults(in, st.fingerprint, st.key, st.perSession)
	if answers(in, st, waited) {
		if out, ok := c.sharedAnswer(st.sd, in, st.key, st.maxAttempts); ok {
			return out, true
		}
	}
	if st.fingerprint != "" && held != nil {
		if err := writeInflight(st.sd, inflight{Fingerprint: st.fingerprint, Session: st.key, PID: os.Getpid()}); err != nil {
			fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: %v\n", err)
		}
	}
	return Outcome{}, false
}

// answers says whether another hook's finished verdict in answers this stop on st: any verdict
// this call waited for, else a pass or a failure.
func answers(in *inflight, st *stopState, waited bool) bool {
	return in.sameState(st.fingerprint, st.key, st.perSession) && in.Done && !in.Speculative &&
		(waited || in.Verdict == gates.VerdictFail || in.Verdict == gates.VerdictPass)
}

// runGates runs the gates through the engine and answers from their verdict; the reply is decided
// and the attempt counted under the run lock, as the engine records the run.
func (c *call) runGates(ctx context.Context, cfg *config.Config, st *stopState, held *lock.Lock) Outcome {
	var reply Outcome
	progress := report.NewProgress(c.Stderr, report.ProgressOptions{})
	defer progress.Stop()
	gatesTime, grace := stopBudget(cfg.StopHook.Timeout)
	gatesCtx, cancelGates := context.WithDeadline(ctx, c.started.Add(gatesTime))
	defer cancelGates()
	req := c.request(cfg, st, progress, grace, held == nil)
	// Under the run lock, so that two hooks never count over each other.
	req.Recorded = func(run *engine.Run) error {
		reply = c.recorded(ctx, gatesCtx, cfg, st, held, grace, run)
		return nil
	}
	run, err := engine.Execute(gatesCtx, req)
	progress.Stop()
	var busy *lock.BusyError
	switch {
	case errors.As(err, &busy):
		return c.unjudged(lowerFirst(busy.Error()), true)
	case run == nil:
		return c.unjudged(oneLine(err.Error()), false)
	case err != nil:
		// The verdict stands even when the run could not be recorded.
		fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: %v\n", err)
	}
	if run.CacheErr != nil {
		fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: %v\n", run.CacheErr)
	}
	return reply
}

// request is the engine's request for this stop's gates.
func (c *call) request(cfg *config.Config, st *stopState, progress *report.Progress, grace time.Duration, unlocked bool) engine.Request {
	return engine.Request{
		Config:   cfg,
		Scope:    engine.Scope{Sticky: stickyOf(st.led, st.key), Pinned: c.session.base},
		Locked:   true,
		StopHook: true,
		// The session's findings (its base's config altered, its environment changed) count
		// like the change's own integrity findings.
		BaseJudged:      c.session.baseJudged,
		SessionFindings: c.session.allFindings(),
		SessionEnv:      c.session.startEnv,
		StartInputs:     c.session.startInputs,
		SessionPinned:   c.session.pinned,
		Env:             c.Environ,
		ExtraEnv:        c.gateEnv(),
		Observer:        progress,
		Grace:           grace,
		// A gate the host killed with the hook is cancelled, not failed.
		StopSignalWindow: c.StopSignalWindow,
		// The agent's fix for the first failure changes the code: gates still running after a
		// short grace would judge a state that is about to go, so they are stopped.
		FailFast:      c.session.endsAtFirstFailure(cfg),
		Blame:         true,
		Counts:        c.session.counts(cfg),
		FailGrace:     cfg.StopHook.FirstFailure.Grace,
		Starting:      func(_ string, toRun []gates.Gate) { progress.Start(toRun) },
		Snapshot:      st.snap,
		Tools:         st.tools,
		Session:       st.key,
		SessionInputs: st.inputs,
		Judged:        st.judged,
		State:         st.sd,
		Unlocked:      unlocked,
	}
}

// recorded decides the reply from the run, as the engine records it, and shares the verdict with
// the hooks waiting on the same state.
func (c *call) recorded(ctx, gatesCtx context.Context, cfg *config.Config, st *stopState, held *lock.Lock, grace time.Duration, run *engine.Run) Outcome {
	// A verdict is remembered for the state it was judged on only if that is still the
	// state: a tree that changed while the gates ran (an agent's background job) has no
	// state the verdict is known to be about.
	// A verdict made of the cache's and a background judge's answers alone is about the
	// state read before (their keys and fingerprint were taken from it): nothing ran that
	// could have seen another.
	same := st.fingerprint != "" && (run.Executed == 0 || c.unchanged(ctx, cfg, st.fingerprint, run.TreeAfter, st.stateOf))
	// Fixers change the tree: after the check above, which is about the gates' state.
	c.autofix(gatesCtx, cfg, run, grace)
	// An error cut short by the call's end or a signal is no judgement of the state to repeat.
	whole := same && ctx.Err() == nil && gatesCtx.Err() == nil
	reply := c.remember(st.sd, func(led *ledger) Outcome {
		out := c.decide(led, st.key, st.fingerprint, same, st.maxAttempts, run, st.perSession)
		c.keepError(led.Sessions[st.key], st, whole, run, out)
		return out
	})
	switch {
	case held == nil:
		// Judged without the run lock: the state's shared verdict is its holder's to write.
	case same:
		c.share(st.sd, st.fingerprint, st.key, stickyOf(st.led, st.key), run)
	case st.fingerprint != "":
		// Hooks waiting on this state judge it themselves.
		if err := st.sd.RemoveAll(inflightFile); err != nil {
			fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: %v\n", err)
		}
	}
	return reply
}

// unchanged says whether the state is still the one fingerprinted before the gates ran, reading
// the tree again (a fresh snapshot) unless the engine already did.
func (c *call) unchanged(ctx context.Context, cfg *config.Config, before string, after *snapshot.Tree, stateOf func(context.Context, *snapshot.Tree) (string, error)) bool {
	if after == nil {
		t, err := engine.NewSnapshot(cfg, engine.Scope{}).Tree(ctx)
		if err != nil {
			return false
		}
		after = t
	}
	now, err := stateOf(ctx, after)
	if err != nil || now != before {
		fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: the tree changed while the gates ran; their verdict is not remembered for it\n")
		return false
	}
	return true
}

// passedBefore says whether every gate in scope already passed on this state, for this session
// when a gate's result depends on the session.
func passedBefore(led *ledger, key, fingerprint string, perSession bool) bool {
	if !perSession {
		return led.LastPass == fingerprint
	}
	s := led.Sessions[key]
	return s != nil && s.LastPass == fingerprint
}

// lockFor takes the run lock. Another run holding it is waited for lock_wait, as any run is, and
// then the stop is judged without it (a nil lock; see judgeUnlocked); but a hook already judging
// this very state is waited for until the deadline, so that its verdict answers this call too
// rather than this agent stopping unverified. done is set when the reply is already decided (the
// call's time ran out).
func (c *call) lockFor(ctx context.Context, cfg *config.Config, sd *state.Dir, fingerprint, key string, perSession bool) (_ *lock.Lock, waited bool, out Outcome, done bool) {
	judgingThis := func() bool {
		in := readInflight(sd)
		return in.sameState(fingerprint, key, perSession) && in.running()
	}
	var (
		held *lock.Lock
		err  error
		busy *lock.BusyError
	)
	if judgingThis() {
		waited = true
		held, err = awaitVerdict(ctx, sd.Path())
	} else {
		held, err = lock.AcquireFor(ctx, sd.Path(), min(cfg.StopHook.LockWait, cfg.StopHook.Timeout), hookPurpose)
		if errors.As(err, &busy) && judgingThis() {
			// It started judging this state while we waited.
			waited = true
			held, err = awaitVerdict(ctx, sd.Path())
		}
	}
	if err == nil {
		return held, waited, Outcome{}, false
	}
	l := lockEvidence(err, waited, ctx.Err() != nil)
	if errors.As(err, &busy) {
		l.Holder = lowerFirst(busy.Error())
	}
	d := policy.Decide(policy.Evidence{Lock: &l})
	if d.Action != policy.Judge {
		return nil, false, c.answer(d, ""), true
	}
	c.judgeUnlocked(cfg, l, d)
	return nil, false, Outcome{}, false
}

// hookPurpose is what the stop hook records with the run lock, for `gauntlet status` to show;
// its gates are not known yet when it takes the lock.
var hookPurpose = lock.Purpose{Kind: lock.KindStopHook}

// verdictPoll is how often a hook waiting for another's verdict tries the lock: the verdict is
// written just before the lock is let go, and every waiter replies as soon as it can read it.
const verdictPoll = 10 * time.Millisecond

// awaitVerdict takes the lock once the hook judging this state lets it go, until the call's
// deadline (ctx ends it).
func awaitVerdict(ctx context.Context, stateDir string) (*lock.Lock, error) {
	tick := time.NewTicker(verdictPoll)
	defer tick.Stop()
	for {
		held, err := lock.AcquireFor(ctx, stateDir, 0, hookPurpose)
		var busy *lock.BusyError
		if !errors.As(err, &busy) {
			return held, err
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for the verdict on this state: %w", context.Cause(ctx))
		case <-tick.C:
		}
	}
}

// share records the verdict for the hooks that wait on the same state.
func (c *call) share(sd *state.Dir, fingerprint, key string, sticky []string, run *engine.Run) {
	in := inflight{
		Fingerprint: fingerprint, Session: key, PID: os.Getpid(), RunID: run.ID, Done: true,
		Verdict: run.Verdict, Failed: remembered(blocking(run)), Total: ranCount(run.Results),
		Sticky: sticky, Integrity: run.Integrity,
	}
	switch run.Verdict {
	case gates.VerdictWarn:
		in.Notice = warnNotice(run.Results, run.Integrity)
	case gates.VerdictError:
		in.Notice = errorNotice(slices.Concat(run.Setup, run.Results))
	}
	if err := writeInflight(sd, in); err != nil {
		fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: %v\n", err)
	}
}

func warnNotice(results []gates.Result, integrity []gates.IntegrityFinding) string {
	warned, blamed := only(results, gates.StatusWarn), only(results, gates.StatusFail)
	var parts []string
	if len(blamed) > 0 {
		parts = append(parts, "nothing this change broke is failing; "+blameNotice(blamed))
	}
	if len(warned) > 0 {
		parts = append(parts, "passed with warnings from "+describe(results, gates.StatusWarn))
	}
	if len(integrity) > 0 {
		if len(parts) == 0 {
			parts = append(parts, "passed, but "+integrityNotice(integrity))
		} else {
			parts = append(parts, integrityNotice(integrity))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "passed with warnings from no gate")
	}
	return "gauntlet: " + strings.Join(parts, "; ") + "; stop allowed"
}

// blameNotice names the failures a stop let go because the change did not cause them (the
// verdict counted them as warnings): flaky tests first, then what failed before the change.
func blameNotice(failed []gates.Result) string {
	var flaky, before []string
	for _, r := range failed {
		switch r.Blame {
		case gates.BlameFlaky:
			flaky = append(flaky, blamedGate(r, r.BlameDetail.Flaky))
		default:
			var tests []string
			if r.BlameDetail != nil {
				tests = r.BlameDetail.PreExisting
			}
			before = append(before, blamedGate(r, tests))
		}
	}
	var parts []string
	if len(flaky) > 0 {
		parts = append(parts, "flaky (failed, then passed when run again alone): "+strings.Join(flaky, ", "))
	}
	if len(before) > 0 {
		parts = append(parts, "failing before this change: "+strings.Join(before, ", "))
	}
	return strings.Join(parts, "; ")
}

// blamedGate is a gate and what of it failed: its tests, else its findings' count.
func blamedGate(r gates.Result, tests []string) string {
	const shown = 3
	switch {
	case len(tests) > shown:
		return fmt.Sprintf("%s (%s and %d more)", r.Name, strings.Join(tests[:shown], ", "), len(tests)-shown)
	case len(tests) > 0:
		return r.Name + " (" + strings.Join(tests, ", ") + ")"
	case len(r.Findings) == 1:
		return r.Name + " (1 finding)"
	case len(r.Findings) > 1:
		return fmt.Sprintf("%s (%d findings)", r.Name, len(r.Findings))
	}
	return r.Name
}

// errorNotice tells the user why the agent was let go unverified. A gate that ran and was failed
// by its environment is "not judged", never "not run": it ran, and its log says what broke.
func errorNotice(results []gates.Result) string {
	var ran, notRun []gates.Result
	for _, r := range only(results, gates.StatusError, gates.StatusCancelled) {
		if r.Status == gates.StatusError && ranAtAll(r) {
			ran = append(ran, r)
		} else {
			notRun = append(notRun, r)
		}
	}
	var parts []string
	if len(ran) > 0 {
		parts = append(parts, "gates not judged, their environment broke: "+describe(ran, gates.StatusError))
	}
	if len(notRun) > 0 {
		parts = append(parts, "gates not run: "+describe(notRun, gates.StatusError, gates.StatusCancelled))
	}
	if len(parts) == 0 {
		parts = append(parts, "gates not run: no gate")
	}
	return "gauntlet: " + strings.Join(parts, "; ") + "; stop allowed"
}

// ranAtAll tells a gate that ran (it exited, timed out or printed) from one that never started.
func ranAtAll(r gates.Result) bool {
	return r.ExitCode >= 0 || r.TimedOut || r.Lines > 0
}

// remember applies fn to the ledger and saves it; the caller holds the run lock. A block that
// cannot be counted would be the same block forever: when the ledger cannot be read or written
// (a gate broke .gauntlet while it ran), it is counted in the user's state directory
// (rememberElsewhere), and only when that cannot be done either is the agent let go with the cause.
func (c *call) remember(sd *state.Dir, fn func(*ledger) Outcome) Outcome {
	led, err := loadLedger(sd)
	reply := fn(led)
	if err == nil && !c.DryRun {
		err = led.save(sd, time.Now())
	}
	if err != nil && reply.blocks && !c.DryRun {
		reply, err = c.rememberElsewhere(sd, fn, reply, err)
	}
	if err == nil {
		return reply
	}
	if reply.blocks {
		return c.answer(policy.Decide(uncounted(reply.asked, oneLine(err.Error()))), "")
	}
	fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: %v\n", err)
	return reply
}

// decide maps the verdict onto the reply and updates the ledger (which the caller saves).
func (c *call) decide(led *ledger, key, fingerprint string, judged bool, maxAttempts int, run *engine.Run, perSession bool) Outcome {
	sess := led.session(key, time.Now())
	sess.hear(c.payload)
	sess.settle(run.Results)
	ps := c.promptOf(sess)
	sess.Turn = c.payload.Prompt()
	c.dec.verdict = run.Verdict
	c.dec.outcomes = outcomesOf(slices.Concat(run.Setup, run.Results))
	if judged {
		c.dec.state = fingerprint[:min(len(fingerprint), historyStateDigits)]
	}

	ev := policy.Evidence{Verdict: run.Verdict, Results: blocking(run), Integrity: run.Integrity, Attempts: attemptsOf(ps, maxAttempts)}
	d := policy.Decide(ev)
	switch d.Why {
	case policy.WhyPass:
		switch {
		case !judged:
		case perSession:
			sess.LastPass = fingerprint
		default:
			led.LastPass = fingerprint
		}
		*ps = promptState{}
		return c.answer(d, "")
	case policy.WhyWarn:
		*ps = promptState{}
		// What was let through: the warn gates, and the failures that do not block (failing at
		// the session's base too, or flaky), which the reply names.
		c.failing(slices.Concat(only(run.Results, gates.StatusWarn), c.notBlocking(only(run.Results, gates.StatusFail))), gates.StatusWarn, gates.StatusFail)
		c.dec.integrity, c.dec.uncovered = len(run.Integrity), gates.OnlyUncovered(run.Integrity)
		return c.answer(d, warnNotice(run.Results, run.Integrity))
	case policy.WhyInfra:
		c.failing(slices.Concat(run.Setup, run.Results), gates.StatusError, gates.StatusCancelled)
		return c.answer(d, errorNotice(slices.Concat(run.Setup, run.Results)))
	}
	c.stopped = only(run.Results, gates.StatusCancelled)
	c.integrity = run.Integrity
	return c.attempted(ps, ev, d, ranCount(run.Results), fingerprint)
}

// attemptsOf is the turn's count of blocks, for the policy.
func attemptsOf(ps *promptState, maxAttempts int) *policy.Attempts {
	return &policy.Attempts{Blocks: ps.Blocks, Max: maxAttempts}
}

// uncounted is the evidence of a block that could not be counted: asked again, the policy lets
// the agent go saying so.
func uncounted(asked *policy.Evidence, why string) policy.Evidence {
	ev := policy.Evidence{Verdict: gates.VerdictFail, Attempts: &policy.Attempts{Max: 1}}
	if asked != nil && asked.Attempts != nil {
		ev = *asked
		a := *asked.Attempts
		ev.Attempts = &a
	}
	ev.Attempts.Unsaved = why
	return ev
}

// blocking is what a block is about: the failed setup steps and gates, then the gates that did
// not run because something they need did not pass (the reason names them, so that the agent
// knows they are still to be judged), then the steps and gates whose environment broke, with
// their causes: they were not judged either.
func blocking(run *engine.Run) []gates.Result {
	return slices.Concat(only(run.Setup, gates.StatusFail), only(run.Results, gates.StatusFail),
		slices.DeleteFunc(only(run.Results, gates.StatusSkipped), func(r gates.Result) bool { return r.SkippedBecause == "" }),
		only(run.Setup, gates.StatusError), only(run.Results, gates.StatusError))
}

// reblock answers a state this session was already blocked on, without rerunning any gate. It
// still counts as an attempt, so an agent that stops again without changing anything reaches
// the retry limit instead of looping forever.
func (c *call) reblock(ctx context.Context, cfg *config.Config, sd *state.Dir) Outcome {
	held, err := lock.AcquireFor(ctx, sd.Path(), min(cfg.StopHook.LockWait, cfg.StopHook.Timeout), hookPurpose)
	if err != nil {
		// Said as the error, one line, whoever holds the lock.
		l := lockEvidence(err, false, ctx.Err() != nil)
		d := policy.Decide(policy.Evidence{Lock: &l})
		if d.Action != policy.Judge {
			return c.answer(d, "")
		}
		c.judgeUnlocked(cfg, l, d)
	} else {
		defer held.Release()
		c.killLeftovers(sd) // only a holder of the lock knows the run that left them is dead
	}
	return c.remember(sd, func(led *ledger) Outcome {
		sess := led.session(sessionKey(c.host, c.payload.Session()), time.Now())
		sess.hear(c.payload)
		ps := c.promptOf(sess)
		c.integrity = ps.Integrity
		return c.nextAttempt(ps, ps.Failed, ps.Total, ps.BlockFingerprint, cfg.StopHook.MaxAttempts)
	})
}

// reapLeftovers kills what a run killed with SIGKILL left running, for a stop answered without
// running any gate (which would have done it): only a holder of the run lock knows that run is
// dead, so it tries the lock once, and a live run holding it is left to do its own cleaning.
func (c *call) reapLeftovers(ctx context.Context, sd *state.Dir) {
	if !engine.MayHaveLeftovers(sd) {
		return // no run recorded as in progress: no lock to take, no file to write
	}
	held, err := lock.AcquireFor(ctx, sd.Path(), 0, hookPurpose)
	if err != nil {
		return
	}
	defer held.Release()
	c.killLeftovers(sd)
}

// killLeftovers is reapLeftovers for a caller that holds the run lock.
func (c *call) killLeftovers(sd *state.Dir) {
	deadRun, n, err := engine.KillLeftovers(sd)
	switch {
	case err != nil:
		fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: %v\n", err)
	case n > 0:
		fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: killed %s left running by run %s, which was killed before it could stop its gates\n",
			termtext.Count(n, "process"), deadRun)
	}
}

// nextAttempt answers a failure already judged (the same state blocked before, a verdict shared):
// the policy blocks once more or lets the agent stop at the retry limit.
func (c *call) nextAttempt(ps *promptState, failed []gates.Result, total int, fingerprint string, maxAttempts int) Outcome {
	ev := policy.Evidence{Verdict: gates.VerdictFail, Results: failed, Integrity: c.integrity, Attempts: attemptsOf(ps, maxAttempts)}
	return c.attempted(ps, ev, policy.Decide(ev), total, fingerprint)
}

// attempted words the policy's answer to a failure: a block, counted in ps, or, after
// max_attempts blocks, the retry-limit message, the count started again.
func (c *call) attempted(ps *promptState, ev policy.Evidence, d policy.Decision, total int, fingerprint string) Outcome {
	failed, maxAttempts := ev.Results, ev.Attempts.Max
	c.failing(c.blockers(failed), gates.StatusFail)
	c.dec.verdict, c.dec.attempt, c.dec.maxAttempts = gates.VerdictFail, d.Attempt, maxAttempts
	c.dec.integrity, c.dec.uncovered = len(c.integrity), gates.OnlyUncovered(c.integrity)
	if msg, ok := c.declaredNotice(ps, failed); ok && d.Action == policy.Block {
		blocks := ps.Blocks
		*ps = promptState{}
		c.dec.attempt = blocks
		return c.answer(policy.Decision{Action: policy.Notify, Why: WhyDeclared, Reset: true, Attempt: blocks}, msg)
	}
	if d.Action != policy.Block {
		if d.Reset {
			*ps = promptState{}
		}
		return c.answer(d, c.retryLimitNotice(failed, maxAttempts))
	}
	ps.Blocks = d.Attempt
	ps.BlockFingerprint = fingerprint
	ps.Failed = remembered(failed)
	ps.Total = total
	ps.Integrity = c.integrity
	out := c.answer(d, c.blockReason(d.Lead, failed, total, Attempt{N: ps.Blocks, Max: maxAttempts}))
	out.asked = &ev
	return out
}

// blockers are the failures that block this session's stop, for its history: a failure the
// session's base has too (pre-existing, unless the project makes those block) or that passed
// alone (flaky) is named as such in the reply, and is not among the gates that blocked it.
func (c *call) blockers(failed []gates.Result) []gates.Result {
	if c.cfg == nil {
		return failed
	}
	counts := c.session.counts(c.cfg)
	return slices.DeleteFunc(slices.Clone(failed), func(r gates.Result) bool { return r.Blame != "" && !counts(r.Blame) })
}

// notBlocking are the failures that do not block this session's stop: blockers' complement.
func (c *call) notBlocking(failed []gates.Result) []gates.Result {
	if c.cfg == nil {
		return nil
	}
	counts := c.session.counts(c.cfg)
	return slices.DeleteFunc(slices.Clone(failed), func(r gates.Result) bool { return r.Blame == "" || counts(r.Blame) })
}

// retryLimitNotice says what is still failing when the retry limit lets the agent stop.
func (c *call) retryLimitNotice(failed []gates.Result, maxAttempts int) string {
	stillFailing := only(failed, gates.StatusFail)
	what := termtext.Count(len(stillFailing), "gate") + " still failing"
	switch {
	case len(c.integrity) > 0 && len(stillFailing) == 0:
		what = "the change still weakens the gates (" + termtext.Count(len(c.integrity), "integrity finding") + ")"
	case len(c.integrity) > 0:
		what += " and the change still weakens the gates (" + termtext.Count(len(c.integrity), "integrity finding") + ")"
	}
	msg := fmt.Sprintf("gauntlet: %s after %s (%s); stop allowed, see %s",
		what, termtext.Count(maxAttempts, "attempt"), cmp.Or(names(stillFailing), integrityRules(c.integrity)), ".gauntlet/"+engine.LastRunFile)
	if len(c.fixed) > 0 {
		msg += " (" + fixedNote(c.fixed) + ")"
	}
	return msg
}

// blockReason is a block's reason, led as the policy says: the integrity findings alone, the
// gates alone, or the findings first in at most half the room and the gates in the rest; all of
// it within stop_hook.reason_limit, the notes added after the first line included.
func (c *call) blockReason(lead policy.Lead, failed []gates.Result, total int, at Attempt) string {
	limit := c.reasonLimit()
	if lead == policy.LeadIntegrity {
		return IntegrityReason(c.integrity, at, limit, c.secrets)
	}
	head := ""
	if lead != policy.LeadGates {
		head = IntegrityReason(c.integrity, at, limit/2, c.secrets)
		at = Attempt{}
	}
	// The notes go under the gates' first line: their room is measured on a stand-in.
	notes := len(withFixed(withNotJudged("x\n", c.stopped), c.fixed)) - len("x\n")
	room := limit - notes
	if head != "" {
		room -= len(head) + 2
	}
	gatesPart := withFixed(withNotJudged(blockReason(failed, total, at, c.secrets, room), c.stopped), c.fixed)
	if head == "" {
		return capReason(gatesPart, limit)
	}
	return capReason(head+"\n\n"+gatesPart, limit)
}

// reasonLimit is stop_hook.reason_limit, or its default for a call judged without a config.
func (c *call) reasonLimit() int {
	if c.cfg == nil || c.cfg.StopHook.ReasonLimit <= 0 {
		return config.DefaultReasonLimit
	}
	return min(c.cfg.StopHook.ReasonLimit, MaxReasonBytes)
}

// withNotJudged names, under the reason's first line, the gates first_failure stopped, each
// saying whether it was stopped while it ran or never started: the agent must not read their
// silence as a pass. They run again at the next stop.
func withNotJudged(reason string, stopped []gates.Result) string {
	if len(stopped) == 0 {
		return reason
	}
	parts := make([]string, len(stopped))
	for i, r := range stopped {
		how := "stopped while running"
		if r.Started.IsZero() {
			how = "not started"
		}
		parts[i] = termtext.Line(r.Name) + " (" + how + ")"
	}
	note := termtext.Cap("not judged: "+strings.Join(parts, ", ")+": stopped after the first failure, they run at the next stop", maxNotRunBytes)
	header, rest, _ := strings.Cut(reason, "\n")
	return capReason(header+"\n"+note+"\n"+rest, MaxReasonBytes)
}

// gateEnv tells gates that an agent is stopping, so that a gate can check the agent's own work.
func (c *call) gateEnv() []string {
	return []string{
		"GAUNTLET_HOOK_EVENT=" + boundedID(c.payload.HookEventName),
		"GAUNTLET_SESSION_ID=" + c.payload.Session(),
		"GAUNTLET_TRANSCRIPT_PATH=" + c.payload.Transcript(),
		"GAUNTLET_HOST=" + string(c.host),
	}
}

func stickyOf(led *ledger, key string) []string {
	if s := led.Sessions[key]; s != nil {
		return s.Sticky
	}
	return nil
}

// judgedInputs is what, besides the work tree, decides the verdict: the config (the digest of the
// bytes it was loaded from) and, when a todos gate judges it, the latest todo list. The list, not the whole
// transcript: the transcript grows with every turn and would make every stop look new.
// transcriptReadBudget is a quarter of the time left, at most 5 s: reading 32 MiB of a local
// transcript takes well under that.
func transcriptReadBudget(ctx context.Context) time.Duration {
	budget := 5 * time.Second
	if deadline, ok := ctx.Deadline(); ok {
		budget = min(budget, time.Until(deadline)/4)
	}
	return budget
}

func judgedInputs(ctx context.Context, cfg *config.Config, transcript string) []byte {
	b := []byte(cfg.Digest)
	if !slices.ContainsFunc(cfg.Gates, func(g gates.Gate) bool { return g.Enabled && g.Kind == gates.KindTodos }) {
		return b
	}
	b = append(b, "todos\x00"...)
	// The fingerprint must not spend the whole budget on a transcript whose read blocks: the
	// todos gate reads it again and is the one to report it.
	ctx, cancel := context.WithTimeout(ctx, transcriptReadBudget(ctx))
	defer cancel()
	if transcript == "" {
		return append(b, "no transcript\x00"...)
	}
	list, err := todos.ReadTranscript(ctx, transcript)
	if err != nil {
		return append(b, err.Error()+"\x00"...)
	}
	for _, it := range list.Items {
		b = fmt.Appendf(b, "%q %q\x00", it.Status, it.Content)
	}
	return b
}

func only(results []gates.Result, statuses ...gates.Status) []gates.Result {
	var out []gates.Result
	for _, r := range results {
		for _, s := range statuses {
			if r.Status == s {
				out = append(out, r)
				break
			}
		}
	}
	return out
}

func ranCount(results []gates.Result) int {
	n := 0
	for _, r := range results {
		if r.Status != gates.StatusSkipped {
			n++
		}
	}
	return n
}

// describe lists gates with their reasons: "lint (exit status 127: command not found)".
// describe names the gates with their reasons, each distinct reason once: six gates that need a
// missing uv are "a, b, c, d, e, f (environment: uv ...)", not the same cause six times.
func describe(results []gates.Result, statuses ...gates.Status) string {
	parts := groupByReason(only(results, statuses...))
	if len(parts) == 0 {
		return "no gate"
	}
	return strings.Join(parts, ", ")
}

func names(results []gates.Result) string {
	n := make([]string, len(results))
	for i, r := range results {
		n[i] = r.Name
	}
	return strings.Join(n, ", ")
}

// oneLine keeps a message to its first line: replies are single-line notices.
func oneLine(s string) string {
	first, rest, more := strings.Cut(strings.TrimSpace(s), "\n")
	if more && strings.TrimSpace(rest) != "" {
		return first + " (and more)"
	}
	return first
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
