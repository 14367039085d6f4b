package state

import (
	"encoding/hex"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
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
	if err := f.Close(); err != nil {
		return opErr(target, "close", err)
	}
	if err := d.root.Rename(tmp, rel); err != nil {
		return opErr(target, "rename", err)
	}
	committed = true
	// No fsync: the rename alone makes a reader see the old content or the new, never a torn
	// write, which is all the state dir promises; after a power loss a lost or empty file is read
	// as absent or corrupt, and starts afresh. Syncing cost milliseconds on every stop.
	d.removeStaleTemps(dir, filepath.Base(rel), time.Now())
	return nil
}

// StaleTempAge is how old a temp file of an atomic write must be before it counts as left by a
// writer that was killed: no write takes that long.
const StaleTempAge = time.Hour

// isTemp tells the temp files of atomic writes, here and of the lock's sidecar.
func isTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-")
}

// removeStaleTemps removes what killed writers of base left in dir, so that temp files cannot
// pile up however often gauntlet is killed mid-write.
func (d *Dir) removeStaleTemps(dir, base string, now time.Time) {
	f, err := d.root.Open(dir)
	if err != nil {
		return
	}
	entries, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return
	}
	prefix := "." + base + ".tmp-"
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		if info, err := e.Info(); err == nil && now.Sub(info.ModTime()) > StaleTempAge {
			_ = d.root.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// RemoveTemps removes every temp file of an atomic write in the state directory (logs aside),
// whatever its age: the caller (gauntlet clean) holds the lock, so no write is under way. It
// returns how many it removed.
func (d *Dir) RemoveTemps() (int, error) {
	removed := 0
	err := fs.WalkDir(d.root.FS(), ".", func(name string, e fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil // a directory that vanished or cannot be read holds nothing to remove
		case e.IsDir() && name == "logs":
			return fs.SkipDir
		case e.IsDir() || !isTemp(e.Name()):
			return nil
		}
		if err := d.root.Remove(name); err != nil {
			return opErr(d.display(name), "remove", err)
		}
		removed++
		return nil
	})
	return removed, err
}

// DefaultMaxRead bounds ReadFile: gauntlet's own state files are small, and a planted huge one
// must cost neither memory nor time.
const DefaultMaxRead = 16 << 20

// readDeadline bounds every read of a state file: a FIFO planted there is refused without
// blocking, and nothing in .gauntlet/ can hold a stop hook up.
const readDeadline = 10 * time.Second

// ReadFile reads a file relative to the state directory, at most DefaultMaxRead bytes. A missing
// file satisfies errors.Is(err, fs.ErrNotExist); a larger one safefile.ErrTooLarge.
func (d *Dir) ReadFile(name string) ([]byte, error) {
	return d.ReadFileLimit(name, DefaultMaxRead)
}

// ReadFileLimit is ReadFile with its own size limit. Only regular files are read.
func (d *Dir) ReadFileLimit(name string, max int64) ([]byte, error) {
	rel, err := d.localName(name)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(readDeadline)
	f, info, err := safefile.OpenInRoot(d.root, rel, deadline)
	if err != nil {
		return nil, opErr(d.display(rel), "read", err)
	}
	defer f.Close()
	data, err := safefile.ReadAllSized(f, max, deadline, info.Size())
	if err != nil {
		return nil, opErr(d.display(rel), "read", err)
	}
	return data, nil
}

// Exists reports whether name (relative to the state directory) is there, whatever it is: a
// look that opens nothing.
func (d *Dir) Exists(name string) bool {
	rel, err := d.localName(name)
	if err != nil {
		return false
	}
	_, err = d.root.Lstat(rel)
	return err == nil
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

// randomHex returns 2n random hex digits, for names no other process picks at the same time.
// The runtime's generator, seeded from the system at every start, does that as well as
// crypto/rand, without the set-up of the system's generator on first use, which a stop that only
// probes its state directory would pay for.
func randomHex(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rand.Uint32())
	}
	return hex.EncodeToString(b)
}
