package stophook

// The history is where a user learns that an agent was let go with gates failing, so deleting a
// line of it must not make that release disappear. Each entry is sealed (internal/seal) and
// numbered, and carries the seal of the one before it; the number and seal of the last entry, and
// the releases no pass has resolved since, are kept beside the key, outside the work tree (the
// anchor). `gauntlet status` then tells entries that are missing (numbers absent between the
// oldest kept and the anchor's last), lines that fail their seal, and shows the anchor's
// releases whether or not their lines are still there.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/gofrs/flock"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
	"github.com/gauntlet-dev/gauntlet/internal/seal"
	"github.com/gauntlet-dev/gauntlet/internal/state"
)

const (
	sealAnchor = "stop-hook history anchor"
	// maxAnchoredReleases bounds the releases the anchor keeps: the newest win.
	maxAnchoredReleases = 20
	maxAnchorBytes      = 256 << 10
	// anchorLockWait bounds the wait for another hook appending to the same history; past it the
	// entry is written unsealed rather than the reply delayed.
	anchorLockWait = 2 * time.Second
)

// anchor is the history's tail, kept in the user's state directory.
type anchor struct {
	Project string `json:"project"`
	// Seq is the number of the last entry written; From the oldest one the file still holds
	// after a rotation (entries before it were dropped by gauntlet, not missing).
	Seq  uint64 `json:"seq"`
	From uint64 `json:"from,omitempty"`
	// Last is the seal of entry Seq.
	Last string `json:"last,omitempty"`
	// Releases are the releases no pass of the same session has followed since.
	Releases []HistoryEntry `json:"releases,omitempty"`
	// Cleaned counts the entries gauntlet clean last removed, and CleanedAt says when: status
	// says so until the next entry, where it would otherwise count them as missing.
	Cleaned   uint64    `json:"cleaned,omitempty"`
	CleanedAt time.Time `json:"cleaned_at,omitzero"`
	MAC       string    `json:"mac,omitempty"`
}

func (a *anchor) SealField() *string { return &a.MAC }

func (e *HistoryEntry) SealField() *string { return &e.MAC }

// anchorPath names a project's anchor by a digest of its state directory's path.
func anchorPath(key *seal.Key, project string) string {
	return key.ProjectFile(project, "history.json")
}

func readAnchor(key *seal.Key, project string) (*anchor, error) {
	a := &anchor{Project: project}
	path := anchorPath(key, project)
	data, err := safefile.ReadFile(path, maxAnchorBytes, time.Now().Add(5*time.Second))
	if errors.Is(err, fs.ErrNotExist) {
		return a, nil
	}
	if err != nil {
		return a, err
	}
	var got anchor
	if json.Unmarshal(data, &got) != nil || got.Project != project ||
		!key.VerifyEncoded(sealAnchor, project, data) && !key.VerifyJSON(sealAnchor, project, &got) {
		return a, fmt.Errorf("%s fails its check", path)
	}
	return &got, nil
}

func (a *anchor) write(key *seal.Key) error {
	if err := key.SealJSON(sealAnchor, a.Project, a); err != nil {
		return err
	}
	data, err := json.Marshal(a)
	if err != nil {
		return err
	}
	return seal.WriteProjectFile(anchorPath(key, a.Project), data)
}

// note records e as the anchor's last entry, and keeps the releases no pass has resolved.
func (a *anchor) note(e HistoryEntry) {
	a.Seq, a.Last = e.Seq, e.MAC
	if a.From == 0 {
		a.From = e.Seq
	}
	switch {
	case e.Released():
		a.Releases = append(a.Releases, e)
		a.Releases = a.Releases[max(0, len(a.Releases)-maxAnchoredReleases):]
	case resolves(e):
		a.Releases = slices.DeleteFunc(a.Releases, func(r HistoryEntry) bool { return sameSession(r, e) })
	}
}

// sealEntry numbers e after the anchor's last entry, chains it to it and seals it, holding the
// anchor's lock; commit writes the anchor once the line is written. Without a key, or when the
// lock cannot be had in time, the entry goes unsealed (status counts such lines) and commit does
// nothing.
func sealEntry(sd *state.Dir, e *HistoryEntry) (commit func(rotatedFrom uint64) error, err error) {
	nothing := func(uint64) error { return nil }
	key, err := seal.Load()
	if err != nil {
		return nothing, err
	}
	path := anchorPath(key, sd.Path())
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nothing, fmt.Errorf("history anchor: %w", err)
	}
	lk, err := lockAnchor(path)
	if err != nil {
		return nothing, fmt.Errorf("history anchor: lock: %w", err)
	}
	a, aerr := readAnchor(key, sd.Path())
	e.Seq, e.Prev = a.Seq+1, a.Last
	if err := key.SealJSON(sealHistory, sd.Path(), e); err != nil {
		lk.Unlock()
		return nothing, err
	}
	return func(rotatedFrom uint64) error {
		defer lk.Unlock()
		a.note(*e)
		if rotatedFrom > 0 {
			a.From = rotatedFrom
		}
		return errors.Join(aerr, a.write(key))
	}, nil
}

// lockAnchor takes the lock of the anchor at path, waiting up to anchorLockWait while another
// hook holds it; the deadline's timer is set only then.
func lockAnchor(path string) (*flock.Flock, error) {
	lk := flock.New(path + ".lock")
	ok, err := lk.TryLock()
	if !ok && err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), anchorLockWait)
		defer cancel()
		ok, err = lk.TryLockContext(ctx, 10*time.Millisecond)
	}
	if !ok {
		return nil, errors.Join(err, errors.New("held by another hook"))
	}
	return lk, nil
}

// HistoryCheck is what the seals say of the history file.
type HistoryCheck struct {
	// Missing counts entries gauntlet wrote that the file no longer holds.
	Missing int `json:"missing"`
	// Tampered counts lines whose seal does not verify (edited, or written by someone else);
	// they are left out of the entries.
	Tampered int `json:"tampered"`
	// Unsealed counts lines written without a key; they are shown, as nothing better is known.
	Unsealed int `json:"unsealed"`
	// Released are the anchor's unresolved releases, whether or not their lines remain.
	Released []HistoryEntry `json:"-"`
	// Problem says why nothing could be checked (no key, an anchor that fails its own check).
	Problem string `json:"problem,omitempty"`
	// Cleaned counts the entries gauntlet clean removed at CleanedAt, while no entry has been
	// written since: removed on purpose, they are not missing, but not hidden either.
	Cleaned   int       `json:"cleaned,omitempty"`
	CleanedAt time.Time `json:"cleaned_at,omitzero"`
}

// OK says whether the history is as gauntlet wrote it.
func (c HistoryCheck) OK() bool { return c.Missing == 0 && c.Tampered == 0 && c.Problem == "" }

// check verifies lines in file order: each line's seal, its number and chain to the one before,
// and the file against the anchor. It returns the entries that may be believed.
func checkHistory(project string, lines []HistoryEntry) ([]HistoryEntry, HistoryCheck) {
	var c HistoryCheck
	key, err := seal.Load()
	if err != nil {
		c.Problem = err.Error()
		return lines, c
	}
	a, err := readAnchor(key, project)
	if err != nil {
		c.Problem = err.Error()
	}
	c.Released = a.Releases
	if a.Cleaned > 0 && a.From > a.Seq {
		c.Cleaned, c.CleanedAt = int(a.Cleaned), a.CleanedAt
	}
	out, present := c.believed(key, project, lines)
	// Every number from the oldest the file should hold to the anchor's last must be there.
	if a.Seq > 0 {
		for n := max(a.From, 1); n <= a.Seq; n++ {
			if !present[n] {
				c.Missing++
			}
		}
	}
	return out, c
}

// believed are the entries whose seal holds, and the unsealed ones (counted), with the numbers
// of every sealed line present; a line whose seal fails is counted, present, and not believed.
func (c *HistoryCheck) believed(key *seal.Key, project string, lines []HistoryEntry) ([]HistoryEntry, map[uint64]bool) {
	var out []HistoryEntry
	present := map[uint64]bool{}
	for _, e := range lines {
		switch {
		case e.MAC == "":
			c.Unsealed++
			out = append(out, e)
		case !key.VerifyJSON(sealHistory, project, &e):
			c.Tampered++
			present[e.Seq] = true // the line is there, not missing; what it says is not believed
		default:
			present[e.Seq] = true
			out = append(out, e)
		}
	}
	return out, present
}

func resolves(e HistoryEntry) bool {
	return e.Why == WhyPass || e.Why == WhyCached || e.Why == WhyWarn
}

func sameSession(a, b HistoryEntry) bool { return a.Host == b.Host && a.Session == b.Session }

// HistoryCut is what `gauntlet clean` leaves of a project's history: the record, in the user's
// state directory, of the agents let go with gates failing.
type HistoryCut struct {
	Releases int    // releases the record still names, resolved by no pass since
	Record   string // the anchor file that keeps them
}

// CutHistory records that the user removed the project's history (gauntlet clean): the entries
// gauntlet wrote up to now are gone on purpose, so status no longer counts them as missing, and
// numbering goes on after them. The releases stay in the record: cleaning the project must not
// erase that an agent was let go with gates failing. Without a record (no stop ever sealed one)
// it does nothing.
func CutHistory(sd *state.Dir) (HistoryCut, error) {
	key, err := seal.Load()
	if err != nil {
		return HistoryCut{}, fmt.Errorf("history record: %w", err)
	}
	path := anchorPath(key, sd.Path())
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return HistoryCut{}, nil
	}
	lk, err := lockAnchor(path)
	if err != nil {
		return HistoryCut{}, fmt.Errorf("history record: lock: %w", err)
	}
	defer lk.Unlock()
	a, err := readAnchor(key, sd.Path())
	if err != nil {
		// A record that fails its check is left for status to report, not rewritten as believed.
		return HistoryCut{}, fmt.Errorf("history record: %w", err)
	}
	cut := HistoryCut{Releases: len(a.Releases), Record: path}
	if a.Seq == 0 || a.From > a.Seq {
		return cut, nil
	}
	a.Cleaned, a.CleanedAt = a.Seq-max(a.From, 1)+1, time.Now()
	a.From = a.Seq + 1
	if err := a.write(key); err != nil {
		return cut, fmt.Errorf("history record: %w", err)
	}
	return cut, nil
}
