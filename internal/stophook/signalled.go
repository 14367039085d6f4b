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
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// WhySignal is a block because the hook was ended by a termination signal its host did not send at
// its timeout: the gates were not judged, and the stop counts as an attempt.
const WhySignal = "signal"

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

// hostClockSlack is how much sooner than the hook's own start the host may start the clock of its
// timeout (it starts the clock, then the hook): a signal that close to the host's timeout is the
// host's. A tenth of a short timeout at most.
const hostClockSlack = time.Second

// A process can learn the hook's pid and signal it: a gate, a test it runs, a background job of
// the agent. Go does not say who sent a signal, so the hook tells by when: its host ends it at
// the host's timeout, which gauntlet init sets above stop_hook.timeout, and a hook interrupted
// before that was not ended by its host's timeout. Such a stop is not let go as "cancelled": it
// counts as an attempt (a block saying so, then after max_attempts a recorded release). A signal
// at or after the host's timeout is the host's own, and the stop is let go as it always was; so
// is a verdict the gates reached before the signal. A user interrupting the agent is counted as an
// attempt too, but the host does not wait for that reply.

// unlessSignalled turns a stop let go because the hook was signalled before its host's timeout
// into an attempt.
func (c *call) unlessSignalled(ctx context.Context, out Outcome) Outcome {
	var sig *Signalled
	if !errors.As(context.Cause(ctx), &sig) || out.ExitCode != 0 || out.blocks || c.cfg == nil || c.DryRun ||
		(c.dec.why != WhyInfra && c.dec.why != WhyLock) {
		return out
	}
	timeout := c.hostTimeout()
	if sig.At.Sub(c.Started) >= timeout-min(hostClockSlack, timeout/10) {
		c.note("", fmt.Sprintf("ended by %s at the host's timeout (%s)", sig.name(), timeout))
		return out
	}
	what := fmt.Sprintf("the stop hook was ended by %s %s after it started, before its deadline (%s) and its host's timeout (%s)",
		sig.name(), sig.At.Sub(c.Started).Round(time.Millisecond), c.cfg.StopHook.Timeout, timeout)
	fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: %s; the stop counts as an attempt\n", what)
	return c.signalAttempt(out, sig, what)
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
func (c *call) signalAttempt(out Outcome, sig *Signalled, what string) Outcome {
	sd, err := c.openState(c.cfg)
	if err != nil {
		fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: the attempt cannot be counted: %v\n", err)
		return out
	}
	defer sd.Close()
	key := sessionKey(c.host, c.payload.Session())
	maxAttempts := c.cfg.StopHook.MaxAttempts
	c.note("", sig.Error()+" before its deadline")
	return c.remember(sd, func(led *ledger) Outcome {
		ps := led.session(key, time.Now()).prompt(c.payload.Prompt())
		c.dec.maxAttempts = maxAttempts
		if ps.Blocks >= maxAttempts {
			c.dec.attempt = ps.Blocks
			*ps = promptState{}
			return c.because(WhyRetryLimit, "").notify(fmt.Sprintf("gauntlet: %s: gates not judged after %s; stop allowed",
				what, termtext.Count(maxAttempts, "attempt")))
		}
		ps.Blocks++
		ps.BlockFingerprint = ""
		c.dec.attempt = ps.Blocks
		c.because(WhySignal, "")
		return c.block(fmt.Sprintf("gauntlet: %s, so the gates were not judged (attempt %d of %d).\n\n"+
			"A signal from the agent's own processes (a test, a script, a background job) does not let the agent stop. "+
			"Make sure nothing the gates run signals gauntlet, then stop again: the gates are judged at the next stop.",
			what, ps.Blocks, maxAttempts))
	})
}
