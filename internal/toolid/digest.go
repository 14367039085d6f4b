package toolid

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
	"github.com/gauntlet-dev/gauntlet/internal/seal"
)

const (
	// memoFile keeps the tools' digests in the user's state directory.
	memoFile = "tools.json"
	// maxMemoEntries bounds the memo; past it the oldest half is forgotten.
	maxMemoEntries = 2000
	maxMemoBytes   = 1 << 20
	sealMemo       = "tool digests"
)

// digestMemo remembers the digest of each program file under its identity, read from the
// user's state directory once per run and written back when it learned something.
type digestMemo struct {
	once sync.Once
	mu   sync.Mutex
	key  *seal.Key
	path string
	m    memo
}

type memo struct {
	Digests map[string]memoEntry `json:"digests"`
	MAC     string               `json:"mac,omitempty"`
}

type memoEntry struct {
	SHA256 string    `json:"sha256"`
	At     time.Time `json:"at"`
}

func (m *memo) SealField() *string { return &m.MAC }

// of names the file at path by its content: "sha256=<hex>", or why it cannot be read.
func (d *digestMemo) of(ctx context.Context, path string) string {
	d.once.Do(d.load)
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "unreadable"
	}
	info, err := os.Stat(real)
	if err != nil || !info.Mode().IsRegular() {
		return "unreadable"
	}
	id := fmt.Sprintf("%s\x00%d\x00%s\x00%d%s", real, info.Size(), info.Mode(), info.ModTime().UnixNano(), sysID(real))
	d.mu.Lock()
	e, ok := d.m.Digests[id]
	d.mu.Unlock()
	if ok {
		return "sha256=" + e.SHA256
	}
	sum, err := contentSHA256(ctx, real)
	if err != nil {
		return "unreadable"
	}
	d.mu.Lock()
	d.m.Digests[id] = memoEntry{SHA256: sum, At: time.Now().UTC().Truncate(time.Second)}
	d.mu.Unlock()
	d.save()
	return "sha256=" + sum
}

// load reads the memo; one that is missing, unreadable or fails its seal is empty (a digest
// someone else wrote there would name a tool by another's content).
func (d *digestMemo) load() {
	d.m = memo{Digests: map[string]memoEntry{}}
	key, err := seal.Load()
	if err != nil {
		return
	}
	d.key, d.path = key, filepath.Join(key.StateDir(), memoFile)
	data, err := safefile.ReadFile(d.path, maxMemoBytes, time.Now().Add(5*time.Second))
	if err != nil {
		return
	}
	var m memo
	if json.Unmarshal(data, &m) == nil && m.Digests != nil && key.VerifyJSON(sealMemo, d.path, &m) {
		d.m = m
	}
}

// save writes the memo back, sealed; without a key it is kept for the run only.
func (d *digestMemo) save() {
	if d.key == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.m.Digests) > maxMemoEntries {
		d.forgetOldest(len(d.m.Digests) - maxMemoEntries/2)
	}
	if d.key.SealJSON(sealMemo, d.path, &d.m) != nil {
		return
	}
	data, err := json.Marshal(d.m)
	if err != nil {
		return
	}
	replaceFile(d.path, data)
}

// replaceFile replaces the file at path with data whole, through a temporary file beside it; a
// failure leaves the file as it was.
func replaceFile(path string, data []byte) {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tools-*")
	if err != nil {
		return
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr == nil && cerr == nil {
		os.Rename(tmp.Name(), path)
	}
}

func (d *digestMemo) forgetOldest(n int) {
	type aged struct {
		id string
		at time.Time
	}
	all := make([]aged, 0, len(d.m.Digests))
	for id, e := range d.m.Digests {
		all = append(all, aged{id, e.At})
	}
	for range n {
		oldest := 0
		for i := range all {
			if all[i].at.Before(all[oldest].at) {
				oldest = i
			}
		}
		delete(d.m.Digests, all[oldest].id)
		all = append(all[:oldest], all[oldest+1:]...)
	}
}

// contentSHA256 hashes a regular file; O_NONBLOCK keeps open from blocking on a FIFO swapped in.
func contentSHA256(ctx context.Context, path string) (string, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", path)
	}
	h := sha256.New()
	if _, err := io.Copy(h, ctxReader{ctx, f}); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
