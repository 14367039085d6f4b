package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/termtext"
	"github.com/gauntlet-dev/gauntlet/lock"
)

// lockHolderNames are the words status uses for each kind of lock holder.
var lockHolderNames = map[string]string{
	lock.KindRun:      "gauntlet run",
	lock.KindStopHook: "the stop hook",
	lock.KindJudge:    "the stop hook's background judge",
	lock.KindFix:      "gauntlet fix",
	lock.KindClean:    "gauntlet clean",
	lock.KindBaseline: "gauntlet baseline",
	lock.KindCache:    "a save to the shared gate cache",
}

// statusGates bounds the gate names the line names; the rest are counted.
const statusGates = 5

// describeLock is status's one line about the run lock: what holds it, or the holder that was
// interrupted; "" when there is nothing to say. It informs; it never stands for a verdict.
func describeLock(a lock.Activity, now time.Time) string {
	switch {
	case a.State == lock.Held && a.Foreign != "":
		return "in progress: the run lock (.gauntlet/lock) is held by " + termtext.Short(a.Foreign, 200) + ", which is not a gauntlet run"
	case a.State == lock.Held && a.Holder.PID == 0:
		return "in progress: the run lock (.gauntlet/lock) is held; its holder has not said what for"
	case a.State == lock.Held:
		return "in progress: " + describeHolder(a.Holder, now) + gateList(a.Holder)
	case a.State == lock.Interrupted:
		return "interrupted: " + describeHolder(a.Holder, now) + ", ended without releasing the run lock (killed, or it crashed)"
	}
	return ""
}

func describeHolder(h lock.Holder, now time.Time) string {
	name, ok := lockHolderNames[h.Kind]
	if !ok {
		name = "a gauntlet run"
	}
	return fmt.Sprintf("%s, pid %d, started %s (%s)", name, h.PID,
		h.Started.Local().Format("2006-01-02 15:04:05 MST"), ago(now.Sub(h.Started)))
}

// gateList names the holder's gates, when it said them. The record is a file anyone can write:
// its names are cleaned of terminal escapes like any gate-provided text.
func gateList(h lock.Holder) string {
	total := max(h.GateCount, len(h.Gates))
	if len(h.Gates) == 0 {
		return ""
	}
	names := h.Gates[:min(len(h.Gates), statusGates)]
	list := ", gates " + termtext.Short(strings.Join(names, ", "), 200)
	if more := total - len(names); more > 0 {
		list += fmt.Sprintf(" and %d more", more)
	}
	return list
}

// runLockJSON is status --json's run_lock: describeLock's facts.
type runLockJSON struct {
	State     string   `json:"state"`
	Kind      string   `json:"kind,omitempty"`
	PID       int      `json:"pid,omitempty"`
	StartedAt string   `json:"started_at,omitempty"`
	Gates     []string `json:"gates,omitempty"`
	GateCount int      `json:"gate_count,omitempty"`
	Holder    string   `json:"holder,omitempty"`
}

// lockJSON is the run_lock field, nil when there is nothing to say.
func lockJSON(a lock.Activity) *runLockJSON {
	if a.State == "" {
		return nil
	}
	j := &runLockJSON{State: a.State, Kind: a.Holder.Kind, PID: a.Holder.PID, Gates: a.Holder.Gates,
		GateCount: a.Holder.GateCount, Holder: a.Foreign}
	if !a.Holder.Started.IsZero() {
		j.StartedAt = a.Holder.Started.UTC().Format(time.RFC3339)
	}
	return j
}
