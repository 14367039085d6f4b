package stophook

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/policy"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// HistoryFile is the stop hook's log of decisions, relative to the state dir: one JSON object a
// line, newest last. A host may show none of the hook's messages, so this is where a user learns
// afterwards that an agent was let go with gates still failing.
const HistoryFile = "state/history.jsonl"

// The history is rotated when it grows past historyMaxBytes: its newest half is kept. Readers
// take at most historyReadBytes from its end, which holds every entry the cap lets stand.
const (
	historyMaxBytes  = 256 << 10
	historyReadBytes = 2 * historyMaxBytes
	// Entries are kept small whatever the host sends, so that the cap holds many of them.
	maxHistorySession = 64
	maxHistoryMessage = 300
	maxHistoryGates   = 20
	// maxHistoryOutcomes bounds the gates' results an entry keeps (HistoryEntry.Gates).
	maxHistoryOutcomes = 32
	// historyStateDigits is how much of the state's fingerprint an entry keeps: enough to tell
	// states apart in one project's history, not to be a key to anything.
	historyStateDigits = 16
)

// Why a stop was allowed or blocked, as the history records it: the verdict policy's words
// (internal/policy), and the stop hook's own for a stop that was not its to decide.
const (
	WhyPass       = policy.WhyPass       // every gate in scope passed
	WhyCached     = policy.WhyCached     // the same state passed before: nothing ran
	WhyWarn       = policy.WhyWarn       // only warn-severity gates failed
	WhyFail       = policy.WhyFail       // a block: gates failed, attempts left
	WhyRetryLimit = policy.WhyRetryLimit // max_attempts blocks reached: let go with gates failing
	WhyInfra      = policy.WhyInfra      // gates could not run or be judged: let go unverified
	WhyLock       = policy.WhyLock       // the call's time ran out waiting for a hook judging this state: let go unverified
	WhyGuard      = policy.WhyGuard      // not judged at all: see Guard
	WhyNoConfig   = "no_config"          // no .gauntlet.yml: nothing to judge (recorded inside a git repository only)
)

// HistoryEntry is one stop-hook decision.
type HistoryEntry struct {
	Time     time.Time `json:"time"`
	Host     string    `json:"host"`
	Session  string    `json:"session,omitempty"`
	Prompt   string    `json:"prompt,omitempty"`
	Decision string    `json:"decision"` // block | allow
	Why      string    `json:"why"`
	// Guard says which guard allowed the stop unjudged: "GAUNTLET set", "plan mode", "subagent",
	// "stop_hook_active".
	Guard string `json:"guard,omitempty"`
	// Verdict is the gates' verdict when they were judged.
	Verdict string `json:"verdict,omitempty"`
	// Attempt is the block's number (of MaxAttempts); for the retry limit, the blocks before it.
	Attempt     int      `json:"attempt,omitempty"`
	MaxAttempts int      `json:"max_attempts,omitempty"`
	Failed      []string `json:"failed,omitempty"` // gates failing (or not run, for infra)
	Message     string   `json:"message,omitempty"`
	// Integrity is how many integrity findings (ways the change weakens the gates) stood.
	Integrity int `json:"integrity,omitempty"`
	// Uncovered says every one of them is change-uncovered: lines the change wrote that no test
	// runs, a measure of the change, which status words for what it is.
	Uncovered bool `json:"uncovered,omitempty"`
	// Overrides name what .gauntlet.local.yml changed of the gates when this stop was judged
	// (honoured or set aside, see stop_hook.local_overrides).
	Overrides []string `json:"overrides,omitempty"`
	// Notes say what of gauntlet's own state was found broken and how the stop was judged anyway
	// ("state kept in the user's state directory: .gauntlet is not a directory").
	Notes []string `json:"notes,omitempty"`
	// State is the start of the fingerprint of the state the gates judged, set only when the
	// verdict is known to be about it (the tree did not change while they ran): one gate passing
	// and failing on one state is flaky. Gates are the results of the gates and setup steps that
	// ran or were answered from the cache (their status and duration), at most
	// maxHistoryOutcomes of them. Both are read by gauntlet status --html.
	State string        `json:"state,omitempty"`
	Gates []GateOutcome `json:"gates,omitempty"`
	// Seq numbers the entries of a project's history; Prev is the seal of entry Seq-1, and MAC
	// this entry's own seal (see historyseal.go).
	Seq  uint64 `json:"seq,omitempty"`
	Prev string `json:"prev,omitempty"`
	MAC  string `json:"mac,omitempty"`
}

// GateOutcome is one gate's result in a stop's history entry.
type GateOutcome struct {
	Name       string `json:"name"`
	Status     string `json:"status"`
	DurationMS int64  `json:"duration_ms"`
	Cached     bool   `json:"cached,omitempty"`
	// Blame is a failure's blame (regression, pre-existing, flaky) when it was measured; Flaky
	// names the tests that failed and passed when run again alone (at most maxHistoryFlaky).
	Blame string   `json:"blame,omitempty"`
	Flaky []string `json:"flaky,omitempty"`
}

// maxHistoryFlaky bounds the flaky tests one gate's outcome names in the history.
const maxHistoryFlaky = 5

// FlakyCounts counts, over the decisions of h, how often each test was found flaky, by
// "gate: test".
func (h History) FlakyCounts() map[string]int {
	out := map[string]int{}
	for _, e := range h.Entries {
		for _, g := range e.Gates {
			for _, t := range g.Flaky {
				out[g.Name+": "+t]++
			}
		}
	}
	return out
}

// outcomesOf keeps what the history needs of the results: a gate that did not run (skipped)
// says nothing about its duration or its stability, and is left out.
func outcomesOf(results []gates.Result) []GateOutcome {
	var out []GateOutcome
	for _, r := range results {
		if r.Status == gates.StatusSkipped {
			continue
		}
		if len(out) == maxHistoryOutcomes {
			break
		}
		o := GateOutcome{Name: historyID(r.Name), Status: string(r.Status), DurationMS: r.Duration.Milliseconds(), Cached: r.Cached, Blame: string(r.Blame)}
		if r.BlameDetail != nil {
			for _, t := range r.BlameDetail.Flaky[:min(len(r.BlameDetail.Flaky), maxHistoryFlaky)] {
				o.Flaky = append(o.Flaky, termtext.Line(t))
			}
		}
		out = append(out, o)
	}
	return out
}

// Released reports a stop let go while gates were failing or not run: what a user must hear
// about even when the host showed them nothing.
func (e HistoryEntry) Released() bool {
	return e.Decision == "allow" && (e.Why == WhyRetryLimit || e.Why == WhyInfra || e.Why == WhyLock || e.Why == WhyHostRelease || e.Why == WhyDeclared)
}

// decision is what one call decided, filled in along the way and written once at the end.
type decision struct {
	why, guard  string
	verdict     gates.Verdict
	attempt     int
	maxAttempts int
	failed      []string
	integrity   int
	uncovered   bool // every integrity finding is change-uncovered
	overrides   []string
	notes       []string
	root        string // the project, once known
	state       string
	outcomes    []GateOutcome
}

// because notes why the stop is answered the way the next call on c says; it returns c so that
// a return site stays one line.
func (c *call) because(why, guard string) *call {
	c.dec.why, c.dec.guard = why, guard
	return c
}

func (c *call) failing(results []gates.Result, statuses ...gates.Status) {
	c.dec.failed = c.dec.failed[:0]
	for _, r := range only(results, statuses...) {
		c.dec.failed = append(c.dec.failed, r.Name)
	}
}

// record appends the decision to the project's history: in .gauntlet, or where the stop kept its
// state when .gauntlet could not be used. A stop in a git repository without a config is recorded
// in the user's state directory (a project that does not use gauntlet gets no .gauntlet). Nothing
// is recorded for a dry run, for bad input (no decision was made), or outside any project.
func (c *call) record(out Outcome) {
	if c.DryRun || out.ExitCode != 0 {
		return
	}
	// The history is a record, never a reason to fail the reply already made.
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: history: internal error: %v\n", p)
		}
	}()
	sd, err := c.historyDir()
	if err != nil {
		fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: history: %v\n", err)
	}
	if sd == nil || err != nil {
		return
	}
	defer sd.Close()
	if err := c.appendEntry(sd, c.entry(out)); err != nil {
		fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: %v\n", err)
	}
}

// appendEntry appends entry to the history in sd. A directory opened unchecked, as found usable
// earlier in the call, is checked when the append fails, and the entry kept elsewhere when it
// broke since.
func (c *call) appendEntry(sd *state.Dir, entry HistoryEntry) error {
	err := AppendHistory(sd, entry)
	if err == nil || c.usableRoot == "" {
		return err
	}
	c.usableRoot = ""
	again, aerr := c.historyDir()
	if aerr != nil || again == nil {
		return err
	}
	defer again.Close()
	return AppendHistory(again, entry)
}

// historyDir opens the state directory the decision is recorded in; nil when there is no project.
func (c *call) historyDir() (*state.Dir, error) {
	root := c.dec.root
	if root == "" {
		dir := c.payload.Dir(c.Getenv, c.Cwd)
		found, err := config.Find(dir)
		if err != nil {
			repo := RepoRoot(dir)
			if repo == "" {
				return nil, nil
			}
			c.because(WhyNoConfig, "")
			return openFallback(filepath.Join(repo, state.Name))
		}
		root = filepath.Dir(found)
	}
	if root == c.usableRoot {
		return state.Open(root)
	}
	sd, broken, err := openProjectState(root)
	if broken != nil && err == nil {
		c.note("", keptNote(broken))
	}
	return sd, err
}

// entry is the decision as the history keeps it: bounded whatever the host sent.
func (c *call) entry(out Outcome) HistoryEntry {
	e := HistoryEntry{
		Time:        time.Now().UTC().Truncate(time.Millisecond),
		Host:        string(c.host),
		Session:     historyID(c.payload.Session()),
		Prompt:      historyID(c.payload.Prompt()),
		Decision:    "allow",
		Why:         c.dec.why,
		Guard:       c.dec.guard,
		Verdict:     string(c.dec.verdict),
		Attempt:     c.dec.attempt,
		MaxAttempts: c.dec.maxAttempts,
		Failed:      c.dec.failed[:min(len(c.dec.failed), maxHistoryGates)],
		Message:     termtext.Short(out.Reply.Message, maxHistoryMessage),
		Integrity:   c.dec.integrity,
		Uncovered:   c.dec.uncovered,
		Overrides:   c.dec.overrides[:min(len(c.dec.overrides), maxHistoryGates)],
		Notes:       c.dec.notes,
		State:       c.dec.state,
		Gates:       c.dec.outcomes,
	}
	if out.blocks {
		e.Decision = "block"
	}
	if e.Why == "" {
		e.Why = WhyPass
	}
	return e
}

// RepoRoot is the nearest directory from dir up that holds a .git (a repository's, or a
// worktree's file); "" when there is none. No git runs: a stop without a config must cost
// nothing.
func RepoRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// AppendHistory adds e to the history, sealed and chained, rotating the file when it has grown
// past its cap. Hooks appending at once take turns on the anchor's lock; when it cannot be had
// in time (or there is no key) the entry is still written, unsealed, and the error says why.
func AppendHistory(sd *state.Dir, e HistoryEntry) error {
	commit, sealErr := sealEntry(sd, &e)
	if sealErr != nil {
		sealErr = fmt.Errorf("stop-hook history written unsealed: %w", sealErr)
	}
	line, err := json.Marshal(e)
	if err != nil {
		return errors.Join(fmt.Errorf("encode stop-hook history: %w", err), commit(0), sealErr)
	}
	size, err := sd.AppendFile(HistoryFile, append(line, '\n'))
	if err != nil {
		// The anchor is not moved: the entry is not in the file.
		return errors.Join(fmt.Errorf("stop-hook history: %w", err), sealErr)
	}
	rotatedFrom, rotErr := rotateHistory(sd, size)
	return errors.Join(rotErr, commit(rotatedFrom), sealErr)
}

// rotateHistory keeps the newest half of the history once it has grown past its cap, and
// returns the number of the oldest entry kept (0 when nothing was rotated).
func rotateHistory(sd *state.Dir, size int64) (uint64, error) {
	if size <= historyMaxBytes {
		return 0, nil
	}
	data, _, err := sd.ReadFileTail(HistoryFile, historyReadBytes)
	if err != nil {
		return 0, nil // the next append tries again
	}
	keep := data[max(0, len(data)-historyMaxBytes/2):]
	if i := bytes.IndexByte(keep, '\n'); i >= 0 && len(keep) < len(data) {
		keep = keep[i+1:] // the first line was cut
	}
	if err := sd.WriteFileAtomic(HistoryFile, keep); err != nil {
		return 0, fmt.Errorf("rotate stop-hook history: %w", err)
	}
	first, _, _ := bytes.Cut(keep, []byte("\n"))
	var e HistoryEntry
	if json.Unmarshal(first, &e) != nil {
		return 0, nil
	}
	return e.Seq, nil
}

// History is the stop hook's recorded decisions, as far as they may be believed.
type History struct {
	// Entries are the decisions, oldest first: lines that fail their seal are left out.
	Entries []HistoryEntry
	Check   HistoryCheck
}

// ReadHistory returns the recorded decisions, oldest first, checked against their seals and the
// anchor. Lines that do not decode (a torn write, another version's format) are skipped.
func ReadHistory(sd *state.Dir) (History, error) {
	data, size, err := sd.ReadFileTail(HistoryFile, historyReadBytes)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return History{}, err
	}
	if size > int64(len(data)) {
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[i+1:]
		}
	}
	var lines []HistoryEntry
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		var e HistoryEntry
		if len(bytes.TrimSpace(line)) == 0 || json.Unmarshal(line, &e) != nil || e.Decision == "" {
			continue
		}
		lines = append(lines, e)
	}
	entries, check := checkHistory(sd.Path(), lines)
	return History{Entries: entries, Check: check}, nil
}

// ReadGoneHistory is ReadHistory for a project whose state directory (stateDir, absolute) is
// gone: no line is left, and whatever the anchor says was written is missing.
func ReadGoneHistory(stateDir string) History {
	entries, check := checkHistory(stateDir, nil)
	return History{Entries: entries, Check: check}
}

// Unresolved picks the releases not followed by a pass in the same session: agents let go with
// gates failing whose work nobody has seen pass since. The anchor's releases count too, so that
// a release whose line was deleted is still there.
func (h History) Unresolved() []HistoryEntry {
	out := Unresolved(h.Entries)
	for _, r := range h.Check.Released {
		if slices.ContainsFunc(out, func(e HistoryEntry) bool { return e.MAC == r.MAC }) {
			continue
		}
		resolved := slices.ContainsFunc(h.Entries, func(l HistoryEntry) bool {
			return laterThan(l, r) && l.MAC != "" && sameSession(l, r) && resolves(l)
		})
		if !resolved {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b HistoryEntry) int { return a.Time.Compare(b.Time) })
	return out
}

// Unresolved picks, from a history in order, the releases not followed by a pass in the same
// session.
func Unresolved(entries []HistoryEntry) []HistoryEntry {
	var out []HistoryEntry
	for i, e := range entries {
		if !e.Released() {
			continue
		}
		passedLater := slices.ContainsFunc(entries[i+1:], func(l HistoryEntry) bool {
			return sameSession(l, e) && resolves(l)
		})
		if !passedLater {
			out = append(out, e)
		}
	}
	return out
}

// historyID keeps an identifier readable when short and replaces a huge one by a digest, so that
// a host sending a long session id cannot bloat the history.
func historyID(s string) string {
	if len(s) <= maxHistorySession {
		return s
	}
	sum := sha256.Sum256([]byte(s))
	return s[:16] + "…" + hex.EncodeToString(sum[:8])
}
