package stophook

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"syscall"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/hookfile"
	"github.com/gauntlet-dev/gauntlet/internal/hosts"
	"github.com/gauntlet-dev/gauntlet/internal/policy"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// WhySignal is a block because the hook was ended by a termination signal its host did not send at
// its timeout: the gates were not judged, and the stop counts as an attempt.
const WhySignal = policy.WhySignal

// Signalled is the cause of a stop hook's context ended by a termination signal: which, and when
// it arrived.
type Signalled struct {
	Signal os.Signal
	At     time.Time
}

func (s *Signalled) Error() string { return "ended by " + s.name() }

// signalNames are the termination signals by their usual names: Go's own are words ("terminated").
var signalNames = map[os.Signal]string{
	syscall.SIGTERM: "SIGTERM",
	os.Interrupt:    "SIGINT",
	syscall.SIGHUP:  "SIGHUP",
}

func (s *Signalled) name() string {
	if n, ok := signalNames[s.Signal]; ok {
		return n
	}
	return s.Signal.String()
}

// A process can learn the hook's pid and signal it: a gate, a test it runs, a background job of
// the agent. Where a signal came from is the verdict policy's to say (policy.Signal): a stop let
// go unverified because the hook was interrupted before its host's timeout is not let go as
// "cancelled": it counts as an attempt (a block saying so, then after max_attempts a recorded
// release). A signal at or after the host's timeout is the host's own, and the stop is let go as
// it always was; so is a verdict the gates reached before the signal. A user interrupting the
// agent is counted as an attempt too, but the host does not wait for that reply.

// unlessSignalled asks the policy again about a stop the hook was signalled during: one let go
// unverified before its host's timeout becomes an attempt.
func (c *call) unlessSignalled(ctx context.Context, out Outcome) Outcome {
	var sig *Signalled
	if !errors.As(context.Cause(ctx), &sig) || out.ExitCode != 0 || c.cfg == nil || c.DryRun {
		return out
	}
	prior := policy.Decision{Action: policy.Notify, Why: c.dec.why}
	if out.blocks {
		prior.Action = policy.Block
	}
	if !policy.Unverified(prior) {
		return out // a verdict, reached before the signal: the host's timeout need not be read
	}
	timeout := c.hostTimeout()
	ev := policy.Evidence{Prior: &prior, Signal: &policy.Signal{After: sig.At.Sub(c.Started), HostTimeout: timeout}}
	if policy.Decide(ev).Action != policy.Block {
		c.note("", fmt.Sprintf("ended by %s at the host's timeout (%s)", sig.name(), timeout))
		return out
	}
	what := fmt.Sprintf("the stop hook was ended by %s %s after it started, before its deadline (%s) and its host's timeout (%s)",
		sig.name(), sig.At.Sub(c.Started).Round(time.Millisecond), c.cfg.StopHook.Timeout, timeout)
	fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: %s; the stop counts as an attempt\n", what)
	return c.signalAttempt(out, ev, sig, what)
}

// hostTimeout is how long the host gives this hook: the longest timeout of gauntlet's stop-hook
// entries in this host's hook files (the project's, and its repository's when the config is in a
// folder below), else the host's default, else stop_hook.timeout itself.
func (c *call) hostTimeout() time.Duration {
	var longest time.Duration
	for _, dir := range slices.Compact([]string{c.cfg.Root, cmp.Or(RepoRoot(c.cfg.Root), c.cfg.Root)}) {
		for _, f := range hookfile.Inspect(dir, c.host) {
			for _, h := range f.Hooks {
				longest = max(longest, h.Timeout)
			}
		}
	}
	if longest > 0 {
		return longest
	}
	if spec, ok := hosts.Get(c.host); ok && spec.DefaultTimeout > 0 {
		return spec.DefaultTimeout
	}
	return c.cfg.StopHook.Timeout
}

// signalAttempt counts the interrupted stop as an attempt: a block while attempts are left, the
// retry limit's release after. The state was not judged, so the next stop judges it (no block is
// remembered for it). Without a ledger to count in, out (the stop let go) stands.
func (c *call) signalAttempt(out Outcome, ev policy.Evidence, sig *Signalled, what string) Outcome {
	sd, err := c.openState(c.cfg)
	if err != nil {
		// The policy's decision before the signal stands: out is its reply.
		fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: the attempt cannot be counted: %v\n", err)
		return out
	}
	defer sd.Close()
	key := sessionKey(c.host, c.payload.Session())
	maxAttempts := c.cfg.StopHook.MaxAttempts
	c.note("", sig.Error()+" before its deadline")
	return c.remember(sd, func(led *ledger) Outcome {
		ps := led.session(key, time.Now()).prompt(c.payload.Prompt())
		ev := ev
		ev.Attempts = attemptsOf(ps, maxAttempts)
		d := policy.Decide(ev)
		c.dec.maxAttempts, c.dec.attempt = maxAttempts, d.Attempt
		if d.Action != policy.Block {
			if d.Reset {
				*ps = promptState{}
			}
			return c.answer(d, fmt.Sprintf("gauntlet: %s: gates not judged after %s; stop allowed",
				what, termtext.Count(maxAttempts, "attempt")))
		}
		ps.Blocks = d.Attempt
		ps.BlockFingerprint = ""
		reply := c.answer(d, fmt.Sprintf("gauntlet: %s, so the gates were not judged (attempt %d of %d).\n\n"+
			"A signal from the agent's own processes (a test, a script, a background job) does not let the agent stop. "+
			"Make sure nothing the gates run signals gauntlet, then stop again: the gates are judged at the next stop.",
			what, ps.Blocks, maxAttempts))
		reply.asked = &ev
		return reply
	})
}
