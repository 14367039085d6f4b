package statedir

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// WriteFileAtomic replaces the file at name (relative to the state directory, e.g.
// "state/ledger.json") so that a reader sees either the old or the new content, never a torn
// write. A symlink already at name is replaced, not followed.
func (d *Dir) WriteFileAtomic(name string, data []byte) error {
	err := d.writeFileAtomic(name, data)
	if err != nil && d.revive() {
		err = d.writeFileAtomic(name, data)
	}
	return err
}

func (d *Dir) writeFileAtomic(name string, data []byte) error {
	rel, err := d.localName(name)
	if err != nil {
		return err
	}
	target := d.display(rel)
	dir := filepath.Dir(rel)
	if dir != "." {
		if err := d.root.MkdirAll(dir, 0o755); err != nil {
			return opErr(target, "mkdir", err)
		}
	}

	tmp := filepath.Join(dir, "."+filepath.Base(rel)+".tmp-"+randomHex(4))
	f, err := d.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return opErr(target, "create temp file", err)
	}
	committed := false
	defer func() {
		if !committed {
			_ = f.Close()
			_ = d.root.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return opErr(target, "write", err)
	}
	if err := f.Sync(); err != nil {
		return opErr(target, "fsync", err)
	}
	if err := f.Close(); err != nil {
		return opErr(target, "close", err)
	}
	if err := d.root.Rename(tmp, rel); err != nil {
		return opErr(target, "rename", err)
	}
	committed = true
	d.syncDir(dir)
	return nil
}

// syncDir makes the rename durable. It is best effort: some filesystems refuse to fsync a
// directory, and the file's content is already safe.
func (d *Dir) syncDir(dir string) {
	f, err := d.root.Open(dir)
	if err != nil {
		return
	}
	_ = f.Sync()
	_ = f.Close()
}

// ReadFile reads a file relative to the state directory. A missing file satisfies
// errors.Is(err, fs.ErrNotExist).
func (d *Dir) ReadFile(name string) ([]byte, error) {
	rel, err := d.localName(name)
	if err != nil {
		return nil, err
	}
	data, err := d.root.ReadFile(rel)
	if err != nil {
		return nil, opErr(d.display(rel), "read", err)
	}
	return data, nil
}

// RemoveAll removes a file or directory tree relative to the state directory; a missing one is
// not an error. The state directory itself cannot be removed this way.
func (d *Dir) RemoveAll(name string) error {
	rel, err := d.localName(name)
	if err != nil {
		return err
	}
	if err := d.root.RemoveAll(rel); err != nil {
		return opErr(d.display(rel), "remove", err)
	}
	return nil
}

// localName accepts only names that stay strictly below the state directory. The Root would
// refuse an escape anyway; checking first gives a clearer error and keeps "." (the directory
// itself) out of RemoveAll and WriteFileAtomic.
func (d *Dir) localName(name string) (string, error) {
	rel := filepath.Clean(filepath.FromSlash(name))
	if name == "" || !filepath.IsLocal(rel) || rel == "." {
		return "", fmt.Errorf("state dir %s: invalid name %q: must be a relative path inside it", d.path, name)
	}
	return rel, nil
}

func (d *Dir) display(rel string) string {
	return filepath.Join(d.path, rel)
}

// randomHex returns 2n hex digits. crypto/rand.Read never fails on supported platforms.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
