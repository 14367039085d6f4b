package stophook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/engine"
	"github.com/gauntlet-dev/gauntlet/internal/session"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/internal/toolid"
	"github.com/gauntlet-dev/gauntlet/lock"
)

// A background judge is the stop hook's shared-verdict machinery started earlier: after each edit
// of the agent, the host's after-edit hook records a request and starts one, detached; the judge
// waits for the tree to stay quiet, runs the speculative gates under the run lock exactly as the
// stop hook would, and leaves its results in the in-flight record for the state it judged. A stop
// on that state joins it (waits for it, or takes its results) instead of starting the gates.

const (
	// judgeRequestFile holds the newest after-edit request: a judge whose request is no longer
	// the newest was superseded during its quiet period and ends without running anything.
	judgeRequestFile = "state/judge-request.json"
	// judgeFile names the judge running, so that a newer one, or a stop on another state, can
	// stop it.
	judgeFile = "state/judge.json"
	// maxJudgeRecordBytes bounds the read of either file: a few numbers and an id.
	maxJudgeRecordBytes = 4 << 10
	// judgeLockWait is how long a judge waits for the run lock: a stop hook or a run holding it
	// is judging already, and a superseded judge releases it within its grace.
	judgeLockWait = 10 * time.Second
)

// judgeRecord is the content of both files.
type judgeRecord struct {
	Seq     int64  `json:"seq"`
	PID     int    `json:"pid,omitempty"`
	Session string `json:"session"`
}

func readJudgeRecord(sd *state.Dir, name string) judgeRecord {
	var r judgeRecord
	if data, err := sd.ReadFileLimit(name, maxJudgeRecordBytes); err == nil {
		json.Unmarshal(data, &r)
	}
	return r
}

func writeJudgeRecord(sd *state.Dir, name string, r judgeRecord) error {
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return sd.WriteFileAtomic(name, data)
}

// AfterEdit is what the host's after-edit hook needs decided: whether a judge should start, and
// with what. ok is false when nothing is to be done (no config, speculation off, a gate's own agent).
type AfterEdit struct {
	Root       string
	Host       Host
	Session    string
	Transcript string
	Seq        int64
	// End: the session ended, and its judge is stopped instead.
	End bool
}

// RequestJudge reads the after-edit payload and records the request. It never fails the agent's
// tool call: every problem is only reported on stderr, and means no judge.
func RequestJudge(o Options, now time.Time) (AfterEdit, bool) {
	if o.Getenv("GAUNTLET") != "" {
		return AfterEdit{}, false // a gate's own agent is editing: judging it would recurse
	}
	p, err := ReadPayload(o.Stdin, o.ReadTimeout)
	if err != nil {
		fmt.Fprintf(o.Stderr, "gauntlet: after-edit: %v\n", err)
		return AfterEdit{}, false
	}
	host := o.Host
	if host == "" {
		host = DetectHost(p)
	}
	cfg, err := config.Load(config.Options{Dir: p.Dir(o.Getenv, o.Cwd)})
	if err != nil {
		return AfterEdit{}, false
	}
	// The session's first hook call pins its base, whether a judge starts or not.
	if p.Session() != "" {
		if _, err := PinSession(context.Background(), cfg, sessionKey(host, p.Session()), session.PinnedAtEdit, o.Environ); err != nil {
			fmt.Fprintf(o.Stderr, "gauntlet: after-edit: %v\n", err)
		}
	}
	return requestJudge(o, p, host, cfg, now)
}

// requestJudge records a judge's request for the payload's session, when the config speculates.
func requestJudge(o Options, p Payload, host Host, cfg *config.Config, now time.Time) (AfterEdit, bool) {
	if !cfg.StopHook.Speculative {
		return AfterEdit{}, false
	}
	sd, err := state.Open(cfg.Root)
	if err != nil {
		fmt.Fprintf(o.Stderr, "gauntlet: after-edit: %v\n", err)
		return AfterEdit{}, false
	}
	defer sd.Close()
	req := AfterEdit{Root: cfg.Root, Host: host, Session: p.Session(), Transcript: p.Transcript(), Seq: now.UnixNano()}
	if err := writeJudgeRecord(sd, judgeRequestFile, judgeRecord{Seq: req.Seq, Session: sessionKey(host, req.Session)}); err != nil {
		fmt.Fprintf(o.Stderr, "gauntlet: after-edit: %v\n", err)
		return AfterEdit{}, false
	}
	return req, true
}

// EndSession stops the judge of a session that ended: none outlives the session that edits.
func EndSession(o Options) {
	p, host, cfg, ok := lifecycleCall(o)
	if !ok {
		return
	}
	sd, err := state.Open(cfg.Root)
	if err != nil {
		return
	}
	defer sd.Close()
	key := sessionKey(host, p.Session())
	// A judge still in its quiet period sees a request that is no longer its own, and ends.
	if req := readJudgeRecord(sd, judgeRequestFile); req.Session == key {
		writeJudgeRecord(sd, judgeRequestFile, judgeRecord{Seq: req.Seq + 1, Session: "ended"})
	}
	if j := readJudgeRecord(sd, judgeFile); j.Session == key {
		stopJudge(j)
	}
}

// stopJudge asks a running judge to stop; it stops its gates as any run interrupted does.
func stopJudge(j judgeRecord) {
	if j.PID > 0 && j.PID != os.Getpid() && (&inflight{PID: j.PID}).running() && isJudge(j.PID, j.Seq) {
		terminate(j.PID)
	}
}

// isJudge says whether pid is still the judge of request seq: a judge killed with SIGKILL leaves
// its record, and its pid may since belong to any process, which must not be signalled.
func isJudge(pid int, seq int64) bool {
	args, ok := processArgs(pid)
	if !ok {
		return false
	}
	i := slices.Index(args, "--seq")
	return slices.Contains(args, "judge") && i >= 0 && i+1 < len(args) && args[i+1] == strconv.FormatInt(seq, 10)
}

// JudgeOptions configure one background judge.
type JudgeOptions struct {
	Stderr  io.Writer
	Getenv  func(string) string
	Environ []string
	Request AfterEdit
}

// Judge runs one background judge to its end: quiet period, supersession, then the speculative
// gates under the run lock, its results left for the stop. ctx ends it early (SIGTERM from a
// newer judge, a stop on another state, or the session's end).
func Judge(ctx context.Context, o JudgeOptions) error {
	req := o.Request
	judged, err := judgeJudging(ctx, req, o.Environ)
	if err != nil {
		return err
	}
	cfg := judged.cfg
	// A judge lives at most its quiet period and one stop hook's time.
	ctx, cancel := context.WithTimeout(ctx, cfg.StopHook.QuietPeriod+cfg.StopHook.Timeout)
	defer cancel()
	sd, err := state.Open(cfg.Root)
	if err != nil {
		return err
	}
	defer sd.Close()
	key := sessionKey(req.Host, req.Session)
	superseded := func() bool { return readJudgeRecord(sd, judgeRequestFile).Seq != req.Seq }
	if !quiet(ctx, cfg.StopHook.QuietPeriod, superseded) || superseded() {
		return nil
	}
	me, err := takeOverJudging(sd, req.Seq, key)
	if err != nil {
		return err
	}
	defer func() {
		if readJudgeRecord(sd, judgeFile) == me {
			sd.RemoveAll(judgeFile)
		}
	}()
	c := judgeCall(o, cfg)
	c.stateAt = judgedAt(req.Seq, cfg.StopHook.QuietPeriod, time.Now().UTC())
	st, err := readJudgedState(ctx, cfg, sd, judged, req, key, o.Environ)
	if err != nil {
		return fmt.Errorf("judge: %w", err)
	}
	held, err := lock.AcquireFor(ctx, sd.Path(), judgeLockWait, lock.Purpose{Kind: lock.KindJudge})
	if err != nil {
		return nil // a run or a stop holds the lock: it is judging already
	}
	defer held.Release()
	if superseded() || st.judgedAlready() {
		return nil
	}
	if err := writeInflight(sd, inflight{Fingerprint: st.fingerprint, Session: key, PID: os.Getpid(), Speculative: true}); err != nil {
		return err
	}
	return c.speculate(ctx, cfg, judged, st, superseded)
}

// judgeJudging is what judges the judge's gates: as the stop will be, with the session's base and
// its config, so that its results stand for the stop's gates.
func judgeJudging(ctx context.Context, req AfterEdit, environ []string) (judging, error) {
	loaded, err := config.Load(config.Options{Dir: req.Root})
	key := sessionKey(req.Host, req.Session)
	if req.Session == "" {
		key = ""
	}
	return sessionJudging(ctx, req.Root, key, session.PinnedAtJudge, loaded, err, environ)
}

// quietPoll is how often a judge in its quiet period looks whether its request still stands.
const quietPoll = 100 * time.Millisecond

// quiet waits the quiet period; false when ctx ended first, or when the request was superseded
// meanwhile (a newer edit, or the session's end): a judge waiting out a long quiet period ends
// with its session, not after it.
func quiet(ctx context.Context, period time.Duration, superseded func() bool) bool {
	done := time.NewTimer(period)
	defer done.Stop()
	tick := time.NewTicker(quietPoll)
	defer tick.Stop()
	for {
		select {
		case <-done.C:
			return true
		case <-ctx.Done():
			return false
		case <-tick.C:
			if superseded() {
				return false
			}
		}
	}
}

// takeOverJudging stops an older judge and records this one as the judge running.
func takeOverJudging(sd *state.Dir, seq int64, key string) (judgeRecord, error) {
	if older := readJudgeRecord(sd, judgeFile); older.Seq < seq {
		stopJudge(older)
	}
	me := judgeRecord{Seq: seq, PID: os.Getpid(), Session: key}
	return me, writeJudgeRecord(sd, judgeFile, me)
}

// judgeCall is the stop-hook call a judge's gates see: an AfterEdit event of the session.
func judgeCall(o JudgeOptions, cfg *config.Config) *call {
	req := o.Request
	return &call{
		Options: Options{Stderr: o.Stderr, Getenv: o.Getenv, Environ: o.Environ, Host: req.Host},
		host:    req.Host,
		payload: Payload{HookEventName: "AfterEdit", SessionID: req.Session, TranscriptPath: req.Transcript},
		secrets: cfg.Redactor(o.Environ),
		started: time.Now(),
	}
}

// judgeReadSlack is how much longer than its quiet period a judge may take to read the state and
// still have it count as read when it was asked for: its start, its config and the session's
// record.
const judgeReadSlack = time.Minute

// judgedAt is when the state a judge reads at readAt counts as read (the engine's StateAt): its
// request's time (seq), when the judge reads within its quiet period and judgeReadSlack of it,
// as the judge the session's start asked for does. A judge started later with an old request's
// number (`gauntlet judge --seq`, by hand or by the session's agent) reads the tree of its own
// time: taken for the request's, it would pass a tree made to look like the base after the
// session started for the base the session started from (worktreebase.go).
func judgedAt(seq int64, quiet time.Duration, readAt time.Time) time.Time {
	requested := time.Unix(0, seq).UTC()
	if requested.After(readAt) || readAt.Sub(requested) > quiet+judgeReadSlack {
		return readAt
	}
	return requested
}

// readJudgedState reads the state the judge judges, and fingerprints it as the stop will.
func readJudgedState(ctx context.Context, cfg *config.Config, sd *state.Dir, judged judging, req AfterEdit, key string, environ []string) (*stopState, error) {
	st := &stopState{sd: sd, key: key, perSession: sessionDependent(cfg)}
	st.inputs = judged.inputs(judgedInputs(ctx, cfg, req.Transcript), environ)
	st.snap = engine.NewSnapshot(cfg, engine.Scope{Pinned: judged.base})
	tree, err := st.snap.Tree(ctx)
	if err != nil {
		return nil, err
	}
	st.tools = toolid.New()
	st.stateOf = fingerprinter(cfg, sd, st.inputs, environ, st.tools)
	if st.fingerprint, err = st.stateOf(ctx, tree); err != nil {
		return nil, err
	}
	return st, nil
}

// judgedAlready says whether the state was judged already: a stop that came during the quiet
// period, or an earlier judge. It reads the ledger, under the run lock, into st.
func (st *stopState) judgedAlready() bool {
	st.led, _ = loadLedger(st.sd)
	if passedBefore(st.led, st.key, st.fingerprint, st.perSession) {
		return true
	}
	in := readInflight(st.sd)
	return in.sameState(st.fingerprint, st.key, st.perSession) && in.Done
}

// speculate runs the speculative gates and leaves their results for the stop on the same state.
func (c *call) speculate(ctx context.Context, cfg *config.Config, judged judging, st *stopState, superseded func() bool) error {
	speculative := *cfg
	speculative.Gates = speculativeGates(cfg.Gates)
	gatesTime, grace := stopBudget(cfg.StopHook.Timeout)
	gatesCtx, cancelGates := context.WithTimeout(ctx, gatesTime)
	defer cancelGates()
	_, err := engine.Execute(gatesCtx, engine.Request{
		Config:          &speculative,
		Scope:           engine.Scope{Sticky: stickyOf(st.led, st.key), Pinned: judged.base},
		Locked:          true,
		StopHook:        true,
		BaseJudged:      judged.baseJudged,
		SessionFindings: judged.allFindings(),
		SessionEnv:      judged.startEnv,
		StartInputs:     judged.startInputs,
		SessionPinned:   judged.pinned,
		StateAt:         c.stateAt,
		Env:             c.Environ,
		ExtraEnv:        c.gateEnv(),
		Grace:           grace,
		FailFast:        judged.endsAtFirstFailure(cfg),
		Blame:           true,
		Counts:          judged.counts(cfg),
		FailGrace:       cfg.StopHook.FirstFailure.Grace,
		Recorded: func(run *engine.Run) error {
			return c.leaveResults(ctx, cfg, st, superseded, run)
		},
		Snapshot:      st.snap,
		Tools:         st.tools,
		Session:       st.key,
		SessionInputs: st.inputs,
	})
	var busy *lock.BusyError
	if errors.As(err, &busy) {
		return nil
	}
	return err
}

// leaveResults leaves the judge's results for the stop on the state it judged, if that is still
// the state.
func (c *call) leaveResults(ctx context.Context, cfg *config.Config, st *stopState, superseded func() bool, run *engine.Run) error {
	if ctx.Err() != nil {
		return nil // stopped: what it saw is about a state already gone
	}
	// The agent edited while the gates ran: they may have read the newer state, and an
	// edit put back would let their results answer for a state they never saw.
	if superseded() {
		return nil
	}
	// An edit the agent made without its host's after-edit hook (a background job):
	// results are left for the state fingerprinted before only if that is still the state.
	if !c.unchanged(ctx, cfg, st.fingerprint, run.TreeAfter, st.stateOf) {
		return st.sd.RemoveAll(inflightFile)
	}
	return writeInflight(st.sd, inflight{
		Fingerprint: st.fingerprint, Session: st.key, PID: os.Getpid(), RunID: run.ID, Done: true,
		Speculative: true, Verdict: run.Verdict, Results: remembered(run.Results),
		Sticky: stickyOf(st.led, st.key), Integrity: run.Integrity,
	})
}

// speculativeGates are the gates a judge runs: those not marked speculative: false, less those
// that need one of them (directly or not), which can only run after it, at the stop.
func speculativeGates(all []gates.Gate) []gates.Gate {
	held := map[string]bool{}
	for _, g := range all {
		if !g.Speculative {
			held[g.Name] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, g := range all {
			if !held[g.Name] && slices.ContainsFunc(g.Needs, func(n string) bool { return held[n] }) {
				held[g.Name], changed = true, true
			}
		}
	}
	var out []gates.Gate
	for _, g := range all {
		if !held[g.Name] {
			out = append(out, g)
		}
	}
	return out
}

// supersedeJudge is the stop's side: a judge running on another state than the stop's is stopped (the
// agent edited since), so that the lock comes free within its grace.
func (c *call) supersedeJudge(sd *state.Dir, fingerprint string) {
	in := readInflight(sd)
	if in == nil || !in.Speculative || in.Done || in.Fingerprint == fingerprint {
		return
	}
	if j := readJudgeRecord(sd, judgeFile); j.PID == in.PID {
		stopJudge(j)
	}
}

// judgedResults are the results a finished judge left for exactly this state and session.
func judgedResults(in *inflight, fingerprint, key string, perSession bool) []gates.Result {
	if !in.sameState(fingerprint, key, perSession) || !in.Done || !in.Speculative {
		return nil
	}
	return in.Results
}

// StartSession pins the base of a session that starts (the host's session-start hook): HEAD now,
// before the agent has done anything. It prints nothing and never fails the host. Where the
// config speculates, it also asks for a judge: run on the tree as the session starts, its test
// gates' censuses are the base's, kept for the session's stops to compare with.
func StartSession(o Options, now time.Time) (AfterEdit, bool) {
	if o.Getenv("GAUNTLET") != "" {
		return AfterEdit{}, false
	}
	p, host, cfg, ok := lifecycleCall(o)
	if !ok || p.Session() == "" {
		return AfterEdit{}, false
	}
	if _, err := PinSession(context.Background(), cfg, sessionKey(host, p.Session()), session.PinnedAtStart, o.Environ); err != nil {
		fmt.Fprintf(o.Stderr, "gauntlet: session start: %v\n", err)
		return AfterEdit{}, false
	}
	return requestJudge(o, p, host, cfg, now)
}

// lifecycleCall reads what a session's start or end hook needs: its payload, the host, and the
// project's config. ok is false when any is missing; the host is never failed for it.
func lifecycleCall(o Options) (p Payload, host Host, cfg *config.Config, ok bool) {
	p, err := ReadPayload(o.Stdin, o.ReadTimeout)
	if err != nil {
		return p, "", nil, false
	}
	host = o.Host
	if host == "" {
		host = DetectHost(p)
	}
	cfg, err = config.Load(config.Options{Dir: p.Dir(o.Getenv, o.Cwd)})
	return p, host, cfg, err == nil
}
