package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/internal/stophook"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// statusDecisions is how many of the stop hook's latest decisions status lists.
const statusDecisions = 10

// readHookHistory reads the stop hook's decisions without creating .gauntlet/; a history that
// cannot be read is mentioned and otherwise left out, since the last run is still worth showing.
func readHookHistory(root string, stderr io.Writer) []stophook.HistoryEntry {
	if _, err := os.Lstat(filepath.Join(root, state.Name, filepath.FromSlash(stophook.HistoryFile))); err != nil {
		return nil
	}
	sd, err := state.Open(root)
	if err != nil {
		fmt.Fprintf(stderr, "gauntlet: stop-hook history: %v\n", err)
		return nil
	}
	defer sd.Close()
	entries, err := stophook.ReadHistory(sd)
	if err != nil {
		fmt.Fprintf(stderr, "gauntlet: %v\n", err)
	}
	return entries
}

// writeHistory shows first, loudly, every agent let go with gates failing that has not passed
// since (the host may have shown the user nothing), then the latest decisions.
func writeHistory(w io.Writer, entries []stophook.HistoryEntry, now time.Time, color bool) error {
	if released := stophook.Unresolved(entries); len(released) > 0 {
		head := fmt.Sprintf("!! agents let go by the stop hook with gates still failing (%d):", len(released))
		if color {
			head = "\x1b[1;31m" + head + "\x1b[0m"
		}
		fmt.Fprintln(w, head)
		for _, e := range released {
			fmt.Fprintf(w, "   %s  %s session %s: %s\n", stamp(e.Time, now), e.Host, orDash(e.Session), describeDecision(e))
		}
		fmt.Fprintln(w)
	}
	latest := entries[max(0, len(entries)-statusDecisions):]
	fmt.Fprintf(w, "stop hook, last %s:\n", termtext.Count(len(latest), "decision"))
	for _, e := range latest {
		fmt.Fprintf(w, "  %s  %-7s %-12s %-5s %s\n", stamp(e.Time, now), e.Host, orDash(shortID(e.Session)), e.Decision, describeDecision(e))
	}
	return nil
}

// describeDecision says why, in words: "retry limit after 3 attempts: test, lint".
func describeDecision(e stophook.HistoryEntry) string {
	gates := strings.Join(e.Failed, ", ")
	if e.Integrity > 0 {
		// The loudest part first: the gates are green, or failing, on a change that weakened them.
		weakened := "THE CHANGE WEAKENS THE GATES (" + termtext.Count(e.Integrity, "integrity finding") + ", gauntlet explain)"
		if gates == "" {
			gates = weakened
		} else {
			gates = weakened + "; " + gates
		}
	}
	switch e.Why {
	case stophook.WhyFail:
		return fmt.Sprintf("blocked, attempt %d of %d: %s", e.Attempt, e.MaxAttempts, gates)
	case stophook.WhyRetryLimit:
		return fmt.Sprintf("retry limit after %s, still failing: %s", termtext.Count(e.Attempt, "attempt"), gates)
	case stophook.WhyInfra, stophook.WhyLock:
		what := "gates not run"
		if e.Why == stophook.WhyLock {
			what = "gates not run (lock held)"
		}
		if e.Message != "" {
			cause := strings.TrimPrefix(e.Message, "gauntlet: ")
			if rest, ok := strings.CutPrefix(cause, "gates not judged, their environment broke: "); ok {
				what, cause = "gates not judged", rest
			}
			cause = strings.TrimSuffix(strings.TrimPrefix(cause, "gates not run: "), "; stop allowed")
			return what + ": " + cause
		}
		return what
	case stophook.WhyHostRelease:
		return fmt.Sprintf("let go by the host after block %d (its own cap, or the user stopped the agent), still failing: %s", e.Attempt, gates)
	case stophook.WhyWarn:
		return "passed with warnings: " + gates
	case stophook.WhyCached:
		return "pass (this state passed before)"
	case stophook.WhyGuard:
		return "not judged: " + e.Guard
	default:
		return e.Why
	}
}

func stamp(t, now time.Time) string {
	local := t.Local()
	if now.Sub(t) < 20*time.Hour {
		return local.Format("15:04:05")
	}
	return local.Format("2006-01-02 15:04")
}

func shortID(s string) string {
	if len(s) > 12 {
		return s[:11] + "…"
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// writeHistoryJSON adds the history to the stored report's object: fields are only ever added,
// and the report's own bytes stay as they were.
func writeHistoryJSON(w io.Writer, report []byte, entries []stophook.HistoryEntry) error {
	released := stophook.Unresolved(entries)
	if released == nil {
		released = []stophook.HistoryEntry{}
	}
	extra, err := json.Marshal(struct {
		History  []stophook.HistoryEntry `json:"stop_hook_history"`
		Released []stophook.HistoryEntry `json:"stop_hook_released"`
	}{entries, released})
	if err != nil {
		return fmt.Errorf("encode stop-hook history: %w", err)
	}
	body := bytes.TrimSpace(report)
	if len(body) < 2 || body[len(body)-1] != '}' {
		return fmt.Errorf("last run report is not a JSON object")
	}
	var out bytes.Buffer
	out.Write(body[:len(body)-1])
	if len(bytes.TrimSpace(body[1:len(body)-1])) > 0 {
		out.WriteByte(',')
	}
	out.Write(extra[1:])
	out.WriteByte('\n')
	_, err = w.Write(out.Bytes())
	return err
}
