package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/atomicfile"
	"github.com/gauntlet-dev/gauntlet/internal/historypage"
	"github.com/gauntlet-dev/gauntlet/internal/runlog"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/internal/stophook"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// statusDecisions is how many of the stop hook's latest decisions status lists.
const statusDecisions = 10

// readHookHistory reads the stop hook's decisions without creating .gauntlet/; a history that
// cannot be read is mentioned and otherwise left out, since the last run is still worth showing.
// A history whose file (or whole state directory) is gone is still checked against its anchor:
// deleting it must not make a release disappear.
// The stops recorded in the user's state directory (while .gauntlet could not be used, or without
// a config) are read too.
func readHookHistory(root string, stderr io.Writer) stophook.History {
	stateDir := filepath.Join(root, state.Name)
	h := readOwnHistory(root, stateDir, stderr)
	kept, ok, err := stophook.ReadKeptHistory(stateDir)
	if err != nil {
		fmt.Fprintf(stderr, "gauntlet: stop-hook history kept in the user's state directory: %v\n", err)
	}
	if ok {
		h = h.Merge(kept)
	}
	return h
}

// readOwnHistory reads the history under .gauntlet; one that cannot be opened is checked against
// its anchor as a gone one is.
func readOwnHistory(root, stateDir string, stderr io.Writer) stophook.History {
	if _, err := os.Lstat(stateDir); err != nil {
		return stophook.ReadGoneHistory(stateDir)
	}
	sd, err := state.Open(root)
	if err != nil {
		fmt.Fprintf(stderr, "gauntlet: stop-hook history: %v\n", err)
		return stophook.ReadGoneHistory(stateDir)
	}
	defer sd.Close()
	h, err := stophook.ReadHistory(sd)
	if err != nil {
		fmt.Fprintf(stderr, "gauntlet: %v\n", err)
	}
	return h
}

// writeHistoryPage draws the history as an HTML page to stdout ("-") or to a file, which is
// replaced whole: a browser showing it never reads half a page.
func writeHistoryPage(ios *IOStreams, dest, root string, h stophook.History, now time.Time) error {
	runs := readRuns(root, ios.ErrOut)
	var page bytes.Buffer
	err := historypage.Write(&page, h, historypage.Options{
		Project:   filepath.Base(root),
		Now:       now,
		Describe:  describeDecision,
		CheckNote: checkNote(h.Check),
		Runs:      runs,
	})
	if err != nil {
		return err
	}
	if dest == "-" {
		_, err := ios.Out.Write(page.Bytes())
		return err
	}
	shown := dest
	if dest == historyPageDefault {
		// No file named: the page goes beside the state it draws, and its path is printed, never
		// the page itself onto the terminal.
		shown, err = writeStatePage(root, page.Bytes())
	} else {
		err = atomicfile.Write(dest, page.Bytes(), 0o644)
	}
	if err != nil {
		return fmt.Errorf("status --html: %w", err)
	}
	_, err = fmt.Fprintf(ios.ErrOut, "gauntlet: wrote the history (%s, %s) to %s\n",
		termtext.Count(len(runs), "run"), termtext.Count(len(h.Entries), "stop-hook decision"), shown)
	if err == nil {
		_, err = fmt.Fprintln(ios.Out, shown)
	}
	return err
}

// historyPageDefault is what --html means without a file: history.html in the project's
// .gauntlet folder.
const historyPageDefault = ".gauntlet/history.html"

// writeStatePage writes the history page into the project's state folder and returns its path
// as the user should see it.
func writeStatePage(root string, page []byte) (string, error) {
	sd, err := state.Open(root)
	if err != nil {
		return "", err
	}
	defer sd.Close()
	if err := sd.WriteFileAtomic("history.html", page); err != nil {
		return "", err
	}
	return config.DisplayPath(filepath.Join(root, state.Name, "history.html")), nil
}

// readRuns reads the run history under .gauntlet; none, or one that cannot be read (said on
// stderr), draws as no runs.
func readRuns(root string, stderr io.Writer) []runlog.Record {
	if _, err := os.Lstat(filepath.Join(root, state.Name)); err != nil {
		return nil
	}
	sd, err := state.Open(root)
	if err != nil {
		fmt.Fprintf(stderr, "gauntlet: run history: %v\n", err)
		return nil
	}
	defer sd.Close()
	runs, err := runlog.Read(sd)
	if err != nil {
		fmt.Fprintf(stderr, "gauntlet: %v\n", err)
	}
	return runs
}

// shown says whether there is anything of the history to show.
func shown(h stophook.History) bool {
	return len(h.Entries) > 0 || len(h.Check.Released) > 0 || !h.Check.OK() || h.Check.Unsealed > 0 || h.Check.Cleaned > 0
}

// writeHistory shows first, loudly, every agent let go with gates failing that has not passed
// since (the host may have shown the user nothing), then what the history's seals say when it is
// not as gauntlet wrote it, then the latest decisions.
func writeHistory(w io.Writer, h stophook.History, now time.Time, color bool) error {
	loud := func(s string) string {
		if color {
			return "\x1b[1;31m" + s + "\x1b[0m"
		}
		return s
	}
	if released := h.Unresolved(); len(released) > 0 {
		fmt.Fprintln(w, loud(fmt.Sprintf("!! agents let go by the stop hook with gates still failing (%d):", len(released))))
		for _, e := range released {
			fmt.Fprintf(w, "   %s  %s session %s: %s\n", stamp(e.Time, now), e.Host, orDash(e.Session), describeDecision(e))
		}
		fmt.Fprintln(w)
	}
	if note := checkNote(h.Check); note != "" {
		fmt.Fprintln(w, loud("!! "+note))
		fmt.Fprintln(w)
	}
	if c := h.Check; c.Cleaned > 0 {
		// Said plainly, not as an alarm: the user removed them, and the next decision ends it.
		fmt.Fprintf(w, "stop hook: %s removed by gauntlet clean at %s; none since\n", termtext.Count(c.Cleaned, "decision"), stamp(c.CleanedAt, now))
		fmt.Fprintln(w)
	}
	entries := h.Entries
	if len(entries) == 0 {
		return nil
	}
	writeFlaky(w, h.FlakyCounts())
	latest := entries[max(0, len(entries)-statusDecisions):]
	fmt.Fprintf(w, "stop hook, last %s:\n", termtext.Count(len(latest), "decision"))
	for _, e := range latest {
		fmt.Fprintf(w, "  %s  %-7s %-12s %-5s %s\n", stamp(e.Time, now), e.Host, orDash(shortID(e.Session)), e.Decision, describeDecision(e))
	}
	return nil
}

// checkNote says in one line how the history differs from what gauntlet wrote: "" when it does
// not.
func checkNote(c stophook.HistoryCheck) string {
	var parts []string
	if c.Missing > 0 {
		parts = append(parts, termtext.Count(c.Missing, "decision")+" missing")
	}
	if c.Tampered > 0 {
		// The seals are bound to the project's folder: a copy or a move fails them as an edit does.
		const why = " (edited by hand, or the project was copied or moved here from another folder?)"
		parts = append(parts, termtext.Count(c.Tampered, "line")+" fails its check"+why+" and is left out")
		if c.Tampered > 1 {
			parts[len(parts)-1] = termtext.Count(c.Tampered, "line") + " fail their check" + why + " and are left out"
		}
	}
	if c.Unsealed > 0 {
		parts = append(parts, termtext.Count(c.Unsealed, "line")+" written unsealed")
	}
	if c.Problem != "" {
		parts = append(parts, "not checked: "+c.Problem)
	}
	if len(parts) == 0 {
		return ""
	}
	return state.Name + "/" + stophook.HistoryFile + ": " + strings.Join(parts, "; ")
}

// describeDecision says why, in words: "retry limit after 3 attempts: test, lint", then what of
// gauntlet's own state was broken and how the stop was judged anyway, in parentheses.
func describeDecision(e stophook.HistoryEntry) string {
	if len(e.Notes) == 0 {
		return decisionWords(e)
	}
	return decisionWords(e) + " (" + strings.Join(e.Notes, "; ") + ")"
}

func decisionWords(e stophook.HistoryEntry) string {
	gates := failedWords(e)
	switch e.Why {
	case stophook.WhyFail:
		return fmt.Sprintf("blocked, attempt %d of %d: %s", e.Attempt, e.MaxAttempts, gates)
	case stophook.WhySignal:
		return fmt.Sprintf("blocked, attempt %d of %d, gates not judged", e.Attempt, e.MaxAttempts)
	case stophook.WhyRetryLimit:
		return fmt.Sprintf("retry limit after %s, still failing: %s", termtext.Count(e.Attempt, "attempt"), gates)
	case stophook.WhyInfra, stophook.WhyLock:
		return notRunWords(e)
	case stophook.WhyHostRelease:
		return fmt.Sprintf("let go by the host after block %d (its own cap, or the user stopped the agent), still failing: %s", e.Attempt, gates)
	case stophook.WhyDeclared:
		// The notice quotes the user's words and the change's file names: cleaned for the terminal.
		return "ALLOWED A WEAKENING DECLARED AS THE USER'S REQUEST: " + termtext.Line(strings.TrimPrefix(e.Message, stophook.DeclaredNoticePrefix))
	case stophook.WhyWarn:
		return "passed with warnings: " + gates
	case stophook.WhyCached:
		return "pass (this state passed before)"
	case stophook.WhyGuard:
		return "not judged: " + e.Guard
	case stophook.WhyNoConfig:
		return "not judged: no .gauntlet.yml"
	default:
		return e.Why
	}
}

// failedWords names the failing gates, after the integrity findings when the change weakened
// the gates: the loudest part first, whether the gates are green or failing.
func failedWords(e stophook.HistoryEntry) string {
	gates := strings.Join(e.Failed, ", ")
	if e.Integrity == 0 {
		return gates
	}
	weakened := "THE CHANGE WEAKENS THE GATES (" + termtext.Count(e.Integrity, "integrity finding") + ", gauntlet explain)"
	if e.Uncovered {
		weakened = "lines the change wrote run by no test (" + termtext.Count(e.Integrity, "finding") + ", gauntlet explain)"
	}
	if gates == "" {
		return weakened
	}
	return weakened + "; " + gates
}

// notRunWords says why the gates were not run, or not judged, and what kept them.
func notRunWords(e stophook.HistoryEntry) string {
	what := "gates not run"
	if e.Why == stophook.WhyLock {
		what = "gates not run (lock held)"
	}
	if e.Message == "" {
		return what
	}
	cause := strings.TrimPrefix(e.Message, "gauntlet: ")
	if rest, ok := strings.CutPrefix(cause, "gates not judged, their environment broke: "); ok {
		what, cause = "gates not judged", rest
	}
	cause = strings.TrimSuffix(strings.TrimPrefix(cause, "gates not run: "), "; stop allowed")
	return what + ": " + cause
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

// historyJSON is the history's fields of status --json.
func historyJSON(h stophook.History) any {
	released := h.Unresolved()
	if released == nil {
		released = []stophook.HistoryEntry{}
	}
	entries := h.Entries
	if entries == nil {
		entries = []stophook.HistoryEntry{}
	}
	return struct {
		History  []stophook.HistoryEntry `json:"stop_hook_history"`
		Released []stophook.HistoryEntry `json:"stop_hook_released"`
		Check    stophook.HistoryCheck   `json:"stop_hook_history_check"`
	}{entries, released, h.Check}
}

// writeStatusJSON adds the fields of each of extras (objects) to the stored report's object:
// fields are only ever added, and the report's own bytes stay as they were.
func writeStatusJSON(w io.Writer, report []byte, extras ...any) error {
	body := bytes.TrimSpace(report)
	if len(body) < 2 || body[len(body)-1] != '}' {
		return fmt.Errorf("last run report is not a JSON object")
	}
	var out bytes.Buffer
	out.Write(body[:len(body)-1])
	empty := len(bytes.TrimSpace(body[1:len(body)-1])) == 0
	for _, extra := range extras {
		fields, err := json.Marshal(extra)
		if err != nil {
			return fmt.Errorf("encode status: %w", err)
		}
		fields = bytes.TrimSuffix(bytes.TrimPrefix(fields, []byte("{")), []byte("}"))
		if len(fields) == 0 {
			continue
		}
		if !empty {
			out.WriteByte(',')
		}
		out.Write(fields)
		empty = false
	}
	out.WriteString("}\n")
	_, err := w.Write(out.Bytes())
	return err
}

// maxFlakyShown bounds the flaky tests status lists, the most often flaky first.
const maxFlakyShown = 10

// writeFlaky lists the tests the stop hook found flaky (failed, then passed alone), with how
// often: a test that flakes again and again is worth fixing.
func writeFlaky(w io.Writer, counts map[string]int) {
	if len(counts) == 0 {
		return
	}
	tests := slices.Collect(maps.Keys(counts))
	slices.SortFunc(tests, func(a, b string) int {
		if c := cmp.Compare(counts[b], counts[a]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	fmt.Fprintf(w, "flaky tests (failed, then passed when run again alone):\n")
	for _, t := range tests[:min(len(tests), maxFlakyShown)] {
		fmt.Fprintf(w, "  %s  %s\n", termtext.Count(counts[t], "time"), t)
	}
	if len(tests) > maxFlakyShown {
		fmt.Fprintf(w, "  and %d more\n", len(tests)-maxFlakyShown)
	}
	fmt.Fprintln(w)
}
