package stophook

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
	"github.com/gauntlet-dev/gauntlet/internal/seal"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// ledgerFile is the stop hook's memory between calls, relative to the state dir.
const ledgerFile = "state/stop-hook.json"

// The ledger forgets sessions untouched for this long, and keeps at most this many, so that the
// file stays small however many agents have stopped in the repository.
const (
	sessionTTL  = 7 * 24 * time.Hour
	maxSessions = 200
	// maxLedgerBytes caps the file: a larger one is read no further and counts as corrupt (a
	// planted 200 MB ledger must cost neither memory nor seconds), and save prunes the oldest
	// sessions until it fits. Ids are bounded (boundedID), so only stored tails weigh much.
	maxLedgerBytes = 4 << 20
)

// ledger remembers, per agent session, what the stop hook decided: how often it blocked (per
// prompt), on which state, why, and which gates failed and have not passed since.
type ledger struct {
	Version int `json:"version"`
	// LastPass is the fingerprint of the last state on which every gate in scope passed.
	LastPass string                   `json:"last_pass,omitempty"`
	Sessions map[string]*sessionState `json:"sessions"`
	// MAC seals the rest with the user's key (internal/seal): a ledger edited by hand (a
	// last_pass set, a block count raised to the limit) is not believed.
	MAC string `json:"mac,omitempty"`
}

func (l *ledger) SealField() *string { return &l.MAC }

// sealPurpose names each kind of sealed state, so that a seal made for one verifies for no other.
const (
	sealLedger   = "stop-hook ledger"
	sealInflight = "stop-hook inflight"
	sealHistory  = "stop-hook history"
)

type sessionState struct {
	// Sticky gates failed in this session and stay in scope until they pass, so that committing
	// the work (which empties the diff) cannot launder a failure.
	Sticky  []string                `json:"sticky,omitempty"`
	Prompts map[string]*promptState `json:"prompts,omitempty"`
	// StopHookActive is what the host last said; recorded, but it decides only when
	// honor_active_flag is set.
	StopHookActive bool `json:"stop_hook_active"`
	// MarksContinuations is set once the host said stop_hook_active true in this session: it
	// marks the stops a block caused, so its false starts a new turn (see noteHostRelease).
	MarksContinuations bool      `json:"marks_continuations,omitempty"`
	UpdatedAt          time.Time `json:"updated_at"`
	// LastPass is the ledger's LastPass for this session alone, kept instead of it when a gate's
	// result depends on the session: another session's pass says nothing about this one.
	LastPass string `json:"last_pass,omitempty"`
	// Turn is the user prompt the session's last judged stop belonged to, for hosts that send
	// no prompt id: a stop whose own prompt cannot be told is counted with it.
	Turn string `json:"turn,omitempty"`
	// LastError is the error the session's last judged stop was let go with, which answers its
	// next stop on the same state for a while (errorrecord.go).
	LastError *errorRecord `json:"last_error,omitempty"`
}

type promptState struct {
	Blocks int `json:"blocks"`
	// Since is when the stop that began the count was judged: a prompt typed after it is a new
	// one, one typed before it is the prompt the count belongs to (see adoptUntold).
	Since time.Time `json:"since,omitzero"`
	// BlockFingerprint is the state the last block judged; the same state gets the same block
	// without rerunning the gates.
	BlockFingerprint string            `json:"block_fingerprint,omitempty"`
	Failed           rememberedResults `json:"failed,omitempty"`
	Total            int               `json:"total,omitempty"`
	// Integrity are the integrity findings the last block named.
	Integrity rememberedFindings `json:"integrity,omitempty"`
}

// rememberedResults are the failed gates a block remembers. They are encoded and decoded on their
// own, and only when there are any: encoding/json builds its tables for a type the first time it
// meets it, and gates.Result's are the largest of the ledger's; a stop reading a ledger without a
// remembered block (every stop on a state that passed) would pay more for them than for reading
// the file. The encoding is a plain []gates.Result's, so seals made before still verify.
type rememberedResults []gates.Result

func (r rememberedResults) MarshalJSON() ([]byte, error) {
	return json.Marshal([]gates.Result(r))
}

func (r *rememberedResults) UnmarshalJSON(data []byte) error {
	return json.Unmarshal(data, (*[]gates.Result)(r))
}

// rememberedFindings are the integrity findings a block remembers, encoded on their own for the
// same reason as rememberedResults.
type rememberedFindings []gates.IntegrityFinding

func (r rememberedFindings) MarshalJSON() ([]byte, error) {
	return json.Marshal([]gates.IntegrityFinding(r))
}

func (r *rememberedFindings) UnmarshalJSON(data []byte) error {
	return json.Unmarshal(data, (*[]gates.IntegrityFinding)(r))
}

func sessionKey(h Host, session string) string { return string(h) + "/" + session }

// SessionKey is the key a session's records are kept under (its pinned base among them): the
// same session id from two hosts is two sessions.
func SessionKey(h Host, session string) string { return sessionKey(h, session) }

// loadLedger reads the ledger; a missing or unreadable one starts afresh, because a corrupt
// memory must never keep an agent from stopping. So does one whose seal does not verify: what it
// says was not written by gauntlet. What must not be lost with it (the gates that stay in scope
// for a session until they pass) is kept beside the key too, and comes back from there. Without
// a key to verify with, the ledger still counts attempts (an agent must never be trapped), but
// none of the passes it records is believed.
func loadLedger(sd *state.Dir) (*ledger, error) {
	l, data, err := readLedger(sd)
	key, kerr := seal.Load()
	if kerr != nil {
		l.LastPass = ""
		for _, s := range l.Sessions {
			s.LastPass, s.LastError = "", nil
		}
		return l, err
	}
	if (l.MAC != "" || l.LastPass != "" || len(l.Sessions) > 0) && !key.VerifyEncoded(sealLedger, sd.Path(), data) &&
		!key.VerifyJSON(sealLedger, sd.Path(), l) {
		l = &ledger{Version: 1, Sessions: map[string]*sessionState{}}
	}
	// A ledger put back from an older copy verifies too; the anchor has the latest word. An
	// anchor that cannot be read or fails its check adds nothing (and is rewritten on save): it
	// must never turn into an error, which would let the agent stop.
	kept, _ := readSticky(key, sd.Identity())
	for k, names := range kept.Sessions {
		sess := l.Sessions[k]
		if sess == nil {
			sess = l.session(k, time.Now())
		}
		for _, n := range names {
			if !slices.Contains(sess.Sticky, n) {
				sess.Sticky = append(sess.Sticky, n)
			}
		}
	}
	return l, err
}

// stickyAnchor is what the ledger must not lose, kept beside the key: per session, the gates
// that stay in scope until they pass.
type stickyAnchor struct {
	Project  string              `json:"project"`
	Sessions map[string][]string `json:"sessions,omitempty"`
	MAC      string              `json:"mac,omitempty"`
}

func (a *stickyAnchor) SealField() *string { return &a.MAC }

const sealSticky = "stop-hook sticky gates"

// maxStickyAnchorBytes bounds the anchor: session keys and gate names are bounded, and so is
// their number (maxSessions).
const maxStickyAnchorBytes = 1 << 20

func readSticky(key *seal.Key, project string) (*stickyAnchor, error) {
	a := &stickyAnchor{Project: project}
	path := key.ProjectFile(project, "sticky.json")
	data, err := safefile.ReadFile(path, maxStickyAnchorBytes, time.Now().Add(5*time.Second))
	if errors.Is(err, fs.ErrNotExist) {
		return a, nil
	}
	if err != nil {
		return a, fmt.Errorf("gates kept in scope: %w", err)
	}
	var got stickyAnchor
	if json.Unmarshal(data, &got) != nil || got.Project != project ||
		!key.VerifyEncoded(sealSticky, project, data) && !key.VerifyJSON(sealSticky, project, &got) {
		return a, fmt.Errorf("gates kept in scope: %s fails its check", path)
	}
	return &got, nil
}

// keepSticky writes the anchor when the ledger's gates in scope differ from it.
func (l *ledger) keepSticky(project string) error {
	key, err := seal.Load()
	if err != nil {
		return nil // nothing can be kept safe without a key; the ledger alone counts
	}
	now := &stickyAnchor{Project: project, Sessions: map[string][]string{}}
	for k, s := range l.Sessions {
		if len(s.Sticky) > 0 {
			now.Sessions[k] = slices.Sorted(slices.Values(s.Sticky))
		}
	}
	if old, err := readSticky(key, project); err == nil && maps.EqualFunc(old.Sessions, now.Sessions, slices.Equal) {
		return nil
	}
	if err := key.SealJSON(sealSticky, project, now); err != nil {
		return err
	}
	data, err := json.Marshal(now)
	if err != nil {
		return err
	}
	if err := seal.WriteProjectFile(key.ProjectFile(project, "sticky.json"), data); err != nil {
		return fmt.Errorf("gates kept in scope: %w", err)
	}
	return nil
}

// readLedger reads the ledger, and the bytes it was decoded from (none for a ledger started
// afresh), for their seal to be checked.
func readLedger(sd *state.Dir) (*ledger, []byte, error) {
	l := &ledger{Version: 1, Sessions: map[string]*sessionState{}}
	data, err := sd.ReadFileLimit(ledgerFile, maxLedgerBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return l, nil, nil
	case errors.Is(err, safefile.ErrTooLarge):
		// Like a corrupt ledger: starting afresh only forgets attempts, never traps the agent.
		return l, nil, nil
	case err != nil:
		return l, nil, fmt.Errorf("read stop-hook ledger: %w", err)
	}
	if err := json.Unmarshal(data, l); err != nil || l.Version != 1 {
		return &ledger{Version: 1, Sessions: map[string]*sessionState{}}, nil, nil
	}
	if l.Sessions == nil {
		l.Sessions = map[string]*sessionState{}
	}
	return l, data, nil
}

func (l *ledger) save(sd *state.Dir, now time.Time) error {
	l.prune(now)
	data, err := l.sealed(sd)
	for err == nil && len(data) >= maxLedgerBytes && len(l.Sessions) > 0 {
		l.dropOldest((len(l.Sessions) + 1) / 2)
		data, err = l.sealed(sd)
	}
	if err != nil {
		return fmt.Errorf("encode stop-hook ledger: %w", err)
	}
	if err := sd.WriteFileAtomic(ledgerFile, append(data, '\n')); err != nil {
		return fmt.Errorf("write stop-hook ledger: %w", err)
	}
	// The anchor is a second copy: failing to write it must not make a block uncountable (which
	// lets the agent stop), so it is kept when it can be.
	_ = l.keepSticky(sd.Identity())
	return nil
}

// sealed encodes the ledger with its seal; without a key it goes unsealed, and only its attempt
// counts will be read back.
func (l *ledger) sealed(sd *state.Dir) ([]byte, error) {
	key, _ := seal.Load()
	if err := key.SealJSON(sealLedger, sd.Path(), l); err != nil {
		return nil, err
	}
	return json.MarshalIndent(l, "", "  ")
}

func (l *ledger) session(key string, now time.Time) *sessionState {
	s := l.Sessions[key]
	if s == nil {
		s = &sessionState{}
		l.Sessions[key] = s
	}
	if s.Prompts == nil {
		s.Prompts = map[string]*promptState{}
	}
	s.UpdatedAt = now
	return s
}

// hear records what the host said of this stop: whether it continues a block.
func (s *sessionState) hear(p Payload) {
	s.StopHookActive = p.StopHookActive
	s.MarksContinuations = s.MarksContinuations || p.StopHookActive
}

func (s *sessionState) prompt(id string) *promptState {
	p := s.Prompts[id]
	if p == nil {
		p = &promptState{}
		s.Prompts[id] = p
	}
	return p
}

// settle records which gates ran and how: failures become sticky, passes clear them. A gate a
// failed need kept from running is still owed a judgement, so it is sticky too: otherwise
// breaking what it needs, then moving the change out of its paths, would never judge it.
func (s *sessionState) settle(results []gates.Result) {
	for _, r := range results {
		if r.Setup {
			continue // a step is no gate: it runs whenever a gate in scope needs it
		}
		owed := r.Status == gates.StatusFail || r.Status == gates.StatusSkipped && r.SkippedBecause != ""
		switch {
		case owed:
			if !slices.Contains(s.Sticky, r.Name) {
				s.Sticky = append(s.Sticky, r.Name)
			}
		case r.Status == gates.StatusPass || r.Status == gates.StatusWarn:
			s.Sticky = slices.DeleteFunc(s.Sticky, func(n string) bool { return n == r.Name })
		}
	}
}

func (l *ledger) prune(now time.Time) {
	for k, s := range l.Sessions {
		if now.Sub(s.UpdatedAt) > sessionTTL {
			delete(l.Sessions, k)
		}
	}
	if len(l.Sessions) > maxSessions {
		l.dropOldest(len(l.Sessions) - maxSessions)
	}
}

// dropOldest forgets the n sessions updated longest ago.
func (l *ledger) dropOldest(n int) {
	keys := make([]string, 0, len(l.Sessions))
	for k := range l.Sessions {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return l.Sessions[a].UpdatedAt.Compare(l.Sessions[b].UpdatedAt) })
	for _, k := range keys[:min(n, len(keys))] {
		delete(l.Sessions, k)
	}
}

// Bounds of what a block remembers to repeat itself: the reason shows at most 8,000 characters,
// so longer tails and more gates would only weigh on the ledger.
const (
	maxRememberedGates = 100
	maxRememberedTail  = 4 << 10
)

// remembered trims failed results to what a repeated block can show.
func remembered(failed []gates.Result) []gates.Result {
	out := slices.Clone(failed[:min(len(failed), maxRememberedGates)])
	for i := range out {
		if len(out[i].Tail) > maxRememberedTail {
			out[i].Tail = termtext.LastBytes(out[i].Tail, maxRememberedTail)
		}
	}
	return out
}
