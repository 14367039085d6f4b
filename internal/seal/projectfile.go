package seal

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
)

// ProjectFile names a file kept for a project (its state directory's path) in the user's state
// directory, beside the key: out of the work tree's reach, so that deleting or rewriting the
// project's own state (which the gated agent can) does not undo what it records.
func (k *Key) ProjectFile(project, name string) string {
	return filepath.Join(k.ProjectDir(project), name)
}

// ProjectDir is the folder of a project's files beside the key (see ProjectFile); the stop hook
// also keeps there the state directory that stands in for a project's unusable .gauntlet.
func (k *Key) ProjectDir(project string) string {
	sum := sha256.Sum256([]byte(project))
	return filepath.Join(k.dir, "projects", hex.EncodeToString(sum[:12]))
}

// WriteProjectFile replaces a file kept beside the key whole, without a sync: what it protects
// is checked again on every read, and a sync on every stop would cost more than it protects.
func WriteProjectFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	err = errors.Join(err, tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		// Once renamed, the temp name is gone: removing it would only cost a failing call.
		_ = os.Remove(tmp.Name())
	}
	return err
}
