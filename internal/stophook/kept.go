package stophook

import (
	"cmp"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/internal/seal"
	"github.com/gauntlet-dev/gauntlet/internal/state"
)

// OpenKeptState opens the directory that stood in for the project's .gauntlet (stateDir,
// absolute) in the user's state directory, without making one: nil when the stop hook never
// needed one there (nor recorded a stop without a config).
func OpenKeptState(stateDir string) (*state.Dir, error) {
	key, err := seal.Load()
	if err != nil {
		return nil, nil // no key: nothing was kept beside it
	}
	parent := key.ProjectDir(stateDir)
	if _, err := os.Lstat(filepath.Join(parent, state.FallbackName)); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return state.OpenFallback(parent, stateDir)
}

// ReadKeptHistory reads the history kept in the user's state directory for the project whose
// .gauntlet is stateDir: the stops recorded while .gauntlet could not be used, and those in a
// repository without a config. ok is false when there is none.
func ReadKeptHistory(stateDir string) (h History, ok bool, err error) {
	sd, err := OpenKeptState(stateDir)
	if sd == nil || err != nil {
		return History{}, false, err
	}
	defer sd.Close()
	h, err = ReadHistory(sd)
	return h, true, err
}

// Merge joins two histories of one project (its own and the one kept in the user's state
// directory), entries in time order. Each was checked against its own anchor; the counts add up.
func (h History) Merge(o History) History {
	h.Entries = append(slices.Clone(h.Entries), o.Entries...)
	slices.SortStableFunc(h.Entries, func(a, b HistoryEntry) int { return a.Time.Compare(b.Time) })
	h.Check.Missing += o.Check.Missing
	h.Check.Tampered += o.Check.Tampered
	h.Check.Unsealed += o.Check.Unsealed
	h.Check.Cleaned += o.Check.Cleaned
	if o.Check.CleanedAt.After(h.Check.CleanedAt) {
		h.Check.CleanedAt = o.Check.CleanedAt
	}
	h.Check.Released = append(slices.Clone(h.Check.Released), o.Check.Released...)
	var problems []string
	for _, p := range []string{h.Check.Problem, o.Check.Problem} {
		if p != "" && !slices.Contains(problems, p) {
			problems = append(problems, p)
		}
	}
	h.Check.Problem = strings.Join(problems, "; ")
	return h
}

// laterThan says whether l was recorded after r: by number within one history, by time across the
// two a project may have (their numbers are not comparable).
func laterThan(l, r HistoryEntry) bool {
	return cmp.Or(l.Time.Compare(r.Time), cmp.Compare(l.Seq, r.Seq)) > 0
}
