package stophook

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/engine"
	"github.com/gauntlet-dev/gauntlet/internal/seal"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// stateFiles are what a stop writes in the state directory, itself or through the engine, before
// its reply is decided: each must take a write, or the stop keeps its state elsewhere. A folder
// ends in "/".
var stateFiles = []string{"lock", ledgerFile, HistoryFile, inflightFile, engine.RunningFile, "logs/"}

// The gated agent can make .gauntlet unusable in one command (`touch .gauntlet` after removing it,
// `chmod -R a-w .gauntlet`, a directory where the ledger goes). A stop that let the agent go
// because of that would be the cheapest allow there is; so the stop keeps its state for the call
// in a directory that stands in for .gauntlet, in the project's folder of the user's state
// directory (beside the sealing key, out of the work tree's reach), judges the gates as usual,
// and names the breakage in its reply and its history.

// openProjectState opens root's .gauntlet when it can take what a stop writes, else the directory
// that stands in for it; broken then says what was wrong with .gauntlet. An error means neither
// could be used.
func openProjectState(root string) (sd *state.Dir, broken *state.BrokenError, err error) {
	sd, err = state.OpenUsable(root, stateFiles...)
	if err == nil || !errors.As(err, &broken) {
		return sd, nil, err
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, broken, err
	}
	fb, err := openFallback(filepath.Join(abs, state.Name))
	if err != nil {
		return nil, broken, fmt.Errorf("%s, and the user's state directory cannot stand in for it: %w", brokenText(broken), err)
	}
	return fb, broken, nil
}

// openFallback opens the directory standing in for identity (a project's .gauntlet, absolute).
func openFallback(identity string) (*state.Dir, error) {
	key, err := seal.Load()
	if err != nil {
		return nil, err
	}
	return state.OpenFallback(key.ProjectDir(identity), identity)
}

// brokenText says what is wrong in the reply's words: "gauntlet's state directory .gauntlet is
// not a directory".
func brokenText(b *state.BrokenError) string {
	if b.Path == state.Name {
		return "gauntlet's state directory " + b.Error()
	}
	return "gauntlet's state directory " + state.Name + " cannot be used: " + b.Error()
}

// keptNote is the history's word for a stop whose state was kept in the user's state directory.
func keptNote(b *state.BrokenError) string {
	return "state kept in the user's state directory: " + b.Error()
}

// openState opens the state directory this stop is judged with (see openProjectState) for cfg,
// the config it is judged with, and notes a stand-in in the reply and the history.
func (c *call) openState(cfg *config.Config) (*state.Dir, error) {
	c.cfg = cfg
	sd, broken, err := openProjectState(cfg.Root)
	if err == nil && broken == nil {
		c.usableRoot = cfg.Root
	}
	if err != nil || broken == nil {
		return sd, err
	}
	c.note(brokenText(broken)+"; state kept in "+sd.Path(), keptNote(broken))
	return sd, nil
}

// Notes qualify a decision: what of gauntlet's own state was found broken, and how the stop was
// judged anyway. At most maxNotes, each at most maxNoteBytes, in the reply and in the history.
const (
	maxNotes     = 4
	maxNoteBytes = 300
)

// note adds what every reply from now on says (reply, "" for none) and what the history keeps
// (kept, "" for none), each once.
func (c *call) note(reply, kept string) {
	add := func(list []string, s string) []string {
		s = termtext.Short(s, maxNoteBytes)
		if s == "" || slices.Contains(list, s) || len(list) >= maxNotes {
			return list
		}
		return append(list, s)
	}
	c.replyNotes = add(c.replyNotes, reply)
	c.dec.notes = add(c.dec.notes, kept)
}

// withNotes ends a block reason with the notes, keeping it within MaxReasonBytes.
func withNotes(reason string, notes []string) string {
	if len(notes) == 0 {
		return reason
	}
	tail := strings.Join(notes, "\n")
	return capReason(reason, max(0, MaxReasonBytes-len(tail)-2)) + "\n\n" + tail
}

// noticeWithNotes adds the notes to a notice that lets the agent stop.
func noticeWithNotes(msg string, notes []string) string {
	if len(notes) == 0 {
		return msg
	}
	return msg + "; " + strings.Join(notes, "; ")
}

// rememberElsewhere takes the decision again against the ledger of the directory that stands in
// for sd, when sd could not take it: a gate can break .gauntlet while it runs, after the stop
// found it usable. It returns the cause when that cannot be done either (sd is already the stand-in,
// or the user's state directory fails too), with the reply first made.
func (c *call) rememberElsewhere(sd *state.Dir, fn func(*ledger) Outcome, first Outcome, cause error) (Outcome, error) {
	if sd.StandsIn() {
		return first, cause
	}
	fb, err := openFallback(sd.Identity())
	if err != nil {
		return first, errors.Join(cause, err)
	}
	defer fb.Close()
	led, err := loadLedger(fb)
	if err != nil {
		return first, errors.Join(cause, err)
	}
	reply := fn(led)
	if err := led.save(fb, time.Now()); err != nil {
		return first, errors.Join(cause, err)
	}
	fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: %s; attempts counted in %s\n", oneLine(cause.Error()), fb.Path())
	c.note("", "attempts counted in the user's state directory: "+oneLine(cause.Error()))
	return reply, nil
}
