package stophook

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/state"
)

// WhyHostRelease is a turn the host ended while gauntlet was blocking it: its own cap on
// consecutive blocks (Claude Code's 8, Copilot's 8, Cursor's loop_limit) or the user stopping the
// agent. Nobody allowed that stop, so it is recorded as a release when the session's next stop
// shows it.
const WhyHostRelease = "host_release"

// overrideTailBytes is how much of the history's end is searched for the session's last
// decision: the latest few hundred decisions. Older ones would only lose a note.
const overrideTailBytes = 64 << 10

// lastDecisionFirstRead is the tail read first, some fifteen entries.
const lastDecisionFirstRead = 4 << 10

// noteHostRelease records the release a host made on its own: the session's last decision was a
// block, and this stop starts a new turn, so the agent was let go between the two with gates
// failing. A new turn is a new prompt id where the host sends one (Codex's turn_id, the prompt
// gauntlet tells for Copilot and Gemini), Cursor's loop_count back at 0, and for Claude Code a
// stop that says it is not a continuation (stop_hook_active false, not merely absent). Some hosts
// send false on every stop, the continuation of a block included, so a false is believed only
// from a session whose host has marked a continuation before (sess, the ledger's record of the
// session), or when the transcript dates a prompt the user typed after the block. A subagent's
// stop says nothing about its parent's turn.
func (c *call) noteHostRelease(ctx context.Context, sd *state.Dir, sess *sessionState) {
	if c.DryRun || c.payload.IsSubagentStop() {
		return
	}
	last, ok := lastDecision(sd, string(c.host), historyID(c.payload.Session()))
	if !ok || last.Decision != "block" || !c.newTurnSince(ctx, last, sess) {
		return
	}
	e := last
	e.Time = time.Now().UTC().Truncate(time.Millisecond)
	e.Decision, e.Why, e.Guard, e.Verdict = "allow", WhyHostRelease, "", ""
	e.Message = fmt.Sprintf("the turn ended after gauntlet's block %d without a stop gauntlet allowed: the host's own cap on blocks, or the user stopped the agent", last.Attempt)
	if err := AppendHistory(sd, e); err != nil {
		fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: %v\n", err)
	}
}

// newTurnSince says whether this stop starts another turn than the one last was decided in.
func (c *call) newTurnSince(ctx context.Context, last HistoryEntry, sess *sessionState) bool {
	switch prompt := historyID(c.payload.Prompt()); {
	case prompt != "" && last.Prompt == "" && c.turn.told:
		// The block's prompt could not be told (Copilot writes the transcript it names only after
		// the session's first stop): this is a new turn only if the user typed this prompt after
		// the block, as the count decides (adoptUntold).
		return typedSince(c.turn.at, last.Time)
	case prompt != "" || last.Prompt != "":
		return prompt != last.Prompt
	case c.host == HostCursor:
		return c.payload.LoopCount != nil && *c.payload.LoopCount == 0
	}
	return c.payload.seen&seenStopHookActive != 0 && !c.payload.StopHookActive &&
		(sess != nil && sess.MarksContinuations || typedAfter(ctx, c.payload.Transcript(), last.Time))
}

// typedAfter says whether the transcript's last prompt was typed after t, by its own date.
func typedAfter(ctx context.Context, transcript string, t time.Time) bool {
	msg := lastUserMessage(ctx, transcript)
	return !msg.At.IsZero() && msg.At.After(t)
}

// lastDecision is the newest decision recorded for a host's session. The history's last few
// entries are read first: a session's stop usually follows its own last decision closely, and
// reading and splitting the whole searched tail cost every stop a share of its fixed cost. When
// they hold none of the session's, the whole tail is searched.
func lastDecision(sd *state.Dir, host, session string) (HistoryEntry, bool) {
	for _, window := range [...]int64{lastDecisionFirstRead, overrideTailBytes} {
		data, size, err := sd.ReadFileTail(HistoryFile, window)
		if err != nil || len(data) == 0 {
			return HistoryEntry{}, false
		}
		if e, ok := newestDecision(data, size > int64(len(data)), host, session); ok {
			return e, true
		}
		if size <= int64(len(data)) {
			break // the whole file was searched
		}
	}
	return HistoryEntry{}, false
}

// newestDecision is the last of the complete lines of data that records a decision for the
// host's session; cut says data starts inside a line, which is skipped.
func newestDecision(data []byte, cut bool, host, session string) (HistoryEntry, bool) {
	if cut {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return HistoryEntry{}, false
		}
		data = data[i+1:]
	}
	data = bytes.TrimRight(data, "\n")
	for len(data) > 0 {
		line := data
		if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
			line, data = data[i+1:], data[:i]
		} else {
			data = nil
		}
		var e HistoryEntry
		if json.Unmarshal(line, &e) != nil || e.Host != host || e.Session != session {
			continue
		}
		return e, true
	}
	return HistoryEntry{}, false
}
