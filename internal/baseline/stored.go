package baseline

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/seal"
	"github.com/gauntlet-dev/gauntlet/internal/state"
)

// The base's findings of each gate are kept under the state dir (in cache/, which `gauntlet
// clean` removes), one file per base commit and gate definition, so that a base is run once per
// gate however many runs compare with it.
const (
	cacheDir     = "cache/base"
	maxCacheRead = 8 << 20
	// maxCached bounds the files kept; the oldest go first.
	maxCached = 32
	// cacheVersion changes whenever what a key or a stored set means changes.
	cacheVersion = "gauntlet-base-2"
)

type stored struct {
	Version  string   `json:"version"`
	Commit   string   `json:"commit"`
	Source   string   `json:"source"`
	Failed   bool     `json:"failed"`
	Complete bool     `json:"complete"`
	Cause    string   `json:"cause,omitempty"`
	Keys     []string `json:"keys"`
	// MAC seals the rest with the user's key: a finding written into the file would make a new
	// finding look pre-existing, and new_only let it through.
	MAC string `json:"mac,omitempty"`
}

// SealField is where the seal is kept (seal.Sealed).
func (st *stored) SealField() *string { return &st.MAC }

// sealPurpose binds a seal to stored base findings, and to the key they are stored under: one
// file's content copied under another key does not verify.
func sealPurpose(key string) string { return "base-findings/" + key }

// CacheKey names the stored findings of gate g (by everything of it that decides what it
// prints) at the base commit, for gauntlet version tool: the gate's run there, or its entry of
// the baseline committed there (a commit's baseline never changes).
func CacheKey(g gates.Gate, commit, tool string) string {
	sum := sha256.Sum256([]byte(cacheVersion + "\x00" + tool + "\x00" + Definition(g) + "\x00" + commit))
	return hex.EncodeToString(sum[:])
}

// Definition is a digest of what decides a gate's findings: its command, directory,
// environment and format. A baseline written for another definition does not apply.
func Definition(g gates.Gate) string {
	def, _ := json.Marshal(struct {
		Run    string
		Argv   []string
		Dir    string
		Env    []string
		Format []string
	}{g.Run, g.Argv, g.Dir, g.Env, g.Format})
	sum := sha256.Sum256(def)
	return hex.EncodeToString(sum[:])
}

// LoadCached reads the findings stored under key; ok is false when there are none (or they
// cannot be read: running the base again only costs time).
func LoadCached(sd *state.Dir, key string) (*Set, bool) {
	data, err := sd.ReadFileLimit(cacheDir+"/"+key+".json", maxCacheRead)
	if err != nil {
		return nil, false
	}
	var st stored
	if json.Unmarshal(data, &st) != nil || st.Version != cacheVersion {
		return nil, false
	}
	// Unsealed or tampered findings are not believed: the base is judged again.
	if sk, _ := seal.Load(); !sk.VerifyJSON(sealPurpose(key), sd.Path(), &st) {
		return nil, false
	}
	s := NewSet(st.Source, st.Failed)
	s.Commit, s.Cause = st.Commit, st.Cause
	for _, h := range st.Keys {
		var k Key
		b, err := hex.DecodeString(h)
		if err != nil || len(b) != len(k) {
			return nil, false
		}
		copy(k[:], b)
		s.AddKey(k)
	}
	s.Complete = s.Complete && st.Complete
	return s, true
}

// SaveCached stores s under key and keeps the newest maxCached sets.
func SaveCached(sd *state.Dir, key string, s *Set) error {
	st := stored{Version: cacheVersion, Commit: s.Commit, Source: s.Source, Failed: s.Failed, Complete: s.Complete, Cause: s.Cause}
	for _, k := range s.Keys() {
		st.Keys = append(st.Keys, hex.EncodeToString(k[:]))
	}
	slices.Sort(st.Keys)
	sk, _ := seal.Load()
	if err := sk.SealJSON(sealPurpose(key), sd.Path(), &st); err != nil {
		return err
	}
	data, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("encode the base's findings: %w", err)
	}
	if err := sd.WriteFileAtomic(cacheDir+"/"+key+".json", data); err != nil {
		return fmt.Errorf("store the base's findings: %w", err)
	}
	return pruneCached(sd)
}

func pruneCached(sd *state.Dir) error { return PruneOldest(sd, cacheDir, maxCached) }

// PruneOldest keeps the keep newest files of dir in the state directory, by modification time.
func PruneOldest(sd *state.Dir, dir string, keep int) error {
	list, err := sd.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(list) <= keep {
		return nil
	}
	var entries []fs.FileInfo
	for _, e := range list {
		if info, err := e.Info(); err == nil {
			entries = append(entries, info)
		}
	}
	slices.SortFunc(entries, func(a, b fs.FileInfo) int { return b.ModTime().Compare(a.ModTime()) })
	for _, e := range entries[min(keep, len(entries)):] {
		if err := sd.RemoveAll(dir + "/" + e.Name()); err != nil {
			return err
		}
	}
	return nil
}
