package stophook

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/gauntlet-dev/gauntlet/internal/seal"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/state"
)

// The fingerprint needs the index's special entries (files git is told not to look at, symlinks),
// which on a large tree cost a read of the whole index file on every stop. They only change when
// the index file does, so they are remembered under the file's identity (snapshot.IndexID),
// sealed: a memo saying "nothing hidden" for an index that hides an edit must not be writable by
// hand.
const (
	indexMemoFile     = "state/index-special.json"
	maxIndexMemoBytes = 1 << 20
	sealIndexMemo     = "index special entries"
)

type indexMemo struct {
	Index   string                `json:"index"`
	Entries []snapshot.IndexEntry `json:"entries,omitempty"`
	MAC     string                `json:"mac,omitempty"`
}

func (m *indexMemo) SealField() *string { return &m.MAC }

// rememberSpecial gives tree its special entries from the memo when the index file is the one
// it was made for, and otherwise reads them and remembers them.
func rememberSpecial(ctx context.Context, sd *state.Dir, tree *snapshot.Tree) {
	if sd == nil {
		return
	}
	id, ok := tree.IndexID()
	key, err := seal.Load()
	if !ok || err != nil {
		return
	}
	if data, err := sd.ReadFileLimit(indexMemoFile, maxIndexMemoBytes); err == nil {
		if entries, ok := readIndexMemo(key, sd.Path(), id, data); ok {
			tree.SetSpecial(entries)
			return
		}
	}
	entries, err := tree.Special(ctx)
	if err != nil {
		return
	}
	// The index as read must still be the one named: a rewrite in between leaves nothing
	// remembered rather than a memo of one version under the other's name.
	if again, ok := tree.IndexID(); !ok || again != id {
		return
	}
	m := indexMemo{Index: id, Entries: entries}
	if key.SealJSON(sealIndexMemo, sd.Path(), &m) != nil {
		return
	}
	if data, err := json.Marshal(m); err == nil && len(data) < maxIndexMemoBytes {
		_ = sd.WriteFileAtomic(indexMemoFile, data)
	}
}

// readIndexMemo gives the entries a memo (data) remembers for the index file id, ok only when
// it was made for id and verifies. The memo gauntlet writes is json.Marshal of its seal's own
// input with the seal added as the last field, so the seal is first checked over those bytes as
// they are: a memo that passes needs no JSON encoding to verify, and one without entries (no
// file hidden from git, no symlink: most projects) no decoding either. Any other memo is
// verified as decoded, as seal.VerifyJSON does.
func readIndexMemo(key *seal.Key, project, id string, data []byte) ([]snapshot.IndexEntry, bool) {
	verified := key.VerifyEncoded(sealIndexMemo, project, data)
	// A verified memo whose index is followed at once by its seal holds no entries.
	if quoted, err := json.Marshal(id); verified && err == nil && bytes.HasPrefix(data, []byte(`{"index":`+string(quoted)+`,"mac":"`)) {
		return nil, true
	}
	var m indexMemo
	if json.Unmarshal(data, &m) != nil || m.Index != id {
		return nil, false
	}
	return m.Entries, verified || key.VerifyJSON(sealIndexMemo, project, &m)
}
