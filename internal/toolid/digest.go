package toolid

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
	"github.com/gauntlet-dev/gauntlet/internal/seal"
)

const (
	// memoFile keeps the tools' digests in the user's state directory. Its form is text, one
	// line per program file, read without a JSON decoder: the stop hook reads it on every call.
	memoFile = "tool-digests"
	// maxMemoEntries bounds the memo; past it the oldest half is forgotten.
	maxMemoEntries = 2000
	maxMemoBytes   = 1 << 20
	sealMemo       = "tool digests"
)

// digestMemo remembers the digest of each program file under its identity, read from the
// user's state directory once per run and written back when it learned something.
//
// The file is the seal of the rest on its first line, then one line per file: its identity
// quoted as a Go string, its SHA-256 in hex, when it was learned (Unix seconds), and its #! line
// quoted ("" for none: a binary), which its identity vouches for as it does for the digest. A
// quoted identity holds no newline, so a line of the memo is found by searching for it, without
// reading the others; they are read only to write the memo back.
type digestMemo struct {
	once sync.Once
	mu   sync.Mutex
	key  *seal.Key
	path string
	// body is the memo as read, verified; learned are the digests this run added to it.
	body    []byte
	learned map[string]memoEntry
}

type memoEntry struct {
	SHA256 string
	At     int64
	// Shebang is the file's #! line ("" for none).
	Shebang string
}

// of names the file at path by its content: "sha256=<hex>", or why it cannot be read.
func (d *digestMemo) of(ctx context.Context, path string) string {
	id, _, _ := d.file(ctx, path)
	return id
}

// file is of, also giving the file's #! line; known is false when the file could not be read,
// and nothing is known of its line then.
func (d *digestMemo) file(ctx context.Context, path string) (id, shebang string, known bool) {
	d.once.Do(d.load)
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "unreadable", "", false
	}
	info, err := os.Stat(real)
	if err != nil || !info.Mode().IsRegular() {
		return "unreadable", "", false
	}
	key := fmt.Sprintf("%s\x00%d\x00%s\x00%d%s", real, info.Size(), info.Mode(), info.ModTime().UnixNano(), sysID(real, info))
	d.mu.Lock()
	e, ok := d.lookup(key)
	d.mu.Unlock()
	if ok {
		return "sha256=" + e.SHA256, e.Shebang, true
	}
	sum, line, err := contentSHA256(ctx, real)
	if err != nil {
		return "unreadable", "", false
	}
	d.mu.Lock()
	d.learned[key] = memoEntry{SHA256: sum, At: time.Now().Unix(), Shebang: line}
	d.mu.Unlock()
	d.save()
	return "sha256=" + sum, line, true
}

// lookup finds id's entry among those learned in this run, then in the memo as read.
func (d *digestMemo) lookup(id string) (memoEntry, bool) {
	if e, ok := d.learned[id]; ok {
		return e, true
	}
	line := append(append([]byte{'\n'}, strconv.Quote(id)...), ' ')
	i := bytes.Index(d.body, line)
	if i < 0 {
		return memoEntry{}, false
	}
	rest := d.body[i+len(line):]
	if end := bytes.IndexByte(rest, '\n'); end >= 0 {
		rest = rest[:end]
	}
	e, ok := parseEntry(string(rest))
	return e, ok && len(e.SHA256) == sha256.Size*2
}

// parseEntry reads what follows an identity on its line: the digest, when, and the #! line.
func parseEntry(rest string) (memoEntry, bool) {
	sum, rest, ok := strings.Cut(rest, " ")
	at, quoted, ok2 := strings.Cut(rest, " ")
	secs, atErr := strconv.ParseInt(at, 10, 64)
	shebang, quoteErr := strconv.Unquote(quoted)
	if !ok || !ok2 || atErr != nil || quoteErr != nil {
		return memoEntry{}, false
	}
	return memoEntry{SHA256: sum, At: secs, Shebang: shebang}, true
}

// load reads the memo; one that is missing, unreadable or fails its seal is empty (a digest
// someone else wrote there would name a tool by another's content).
func (d *digestMemo) load() {
	d.learned = map[string]memoEntry{}
	key, err := seal.Load()
	if err != nil {
		return
	}
	d.key, d.path = key, filepath.Join(key.StateDir(), memoFile)
	data, err := safefile.ReadFile(d.path, maxMemoBytes, time.Now().Add(5*time.Second))
	if err != nil {
		return
	}
	mac, body, ok := bytes.Cut(data, []byte{'\n'})
	// The body keeps the newline before its first line, so that every line is found alike.
	if ok && key.Verify(string(mac), sealMemo, d.path, body) {
		d.body = data[len(mac):]
	}
}

// entries are every digest the memo holds: those read and those learned.
func (d *digestMemo) entries() map[string]memoEntry {
	all := map[string]memoEntry{}
	for line := range bytes.SplitSeq(d.body, []byte{'\n'}) {
		quoted, err := strconv.QuotedPrefix(string(line))
		if err != nil {
			continue
		}
		id, err := strconv.Unquote(quoted)
		e, ok := parseEntry(strings.TrimPrefix(string(line[len(quoted):]), " "))
		if err == nil && ok {
			all[id] = e
		}
	}
	maps.Copy(all, d.learned)
	return all
}

// save writes the memo back, sealed; without a key it is kept for the run only.
func (d *digestMemo) save() {
	if d.key == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	all := d.entries()
	if len(all) > maxMemoEntries {
		forgetOldest(all, len(all)-maxMemoEntries/2)
	}
	var body bytes.Buffer
	for _, id := range slices.Sorted(maps.Keys(all)) {
		fmt.Fprintf(&body, "\n%s %s %d %s", strconv.Quote(id), all[id].SHA256, all[id].At, strconv.Quote(all[id].Shebang))
	}
	body.WriteByte('\n')
	// The seal covers the body without its leading newline, as load reads it.
	mac := d.key.Sum(sealMemo, d.path, body.Bytes()[1:])
	replaceFile(d.path, append([]byte(mac), body.Bytes()...))
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

// forgetOldest drops the n entries learned longest ago.
func forgetOldest(all map[string]memoEntry, n int) {
	ids := slices.SortedFunc(maps.Keys(all), func(a, b string) int { return cmp.Compare(all[a].At, all[b].At) })
	for _, id := range ids[:n] {
		delete(all, id)
	}
}

// contentSHA256 hashes a regular file, and gives its #! line ("" for none) from what it read;
// O_NONBLOCK keeps open from blocking on a FIFO swapped in.
func contentSHA256(ctx context.Context, path string) (sum, shebang string, err error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return "", "", fmt.Errorf("%s is not a regular file", path)
	}
	h := sha256.New()
	head := &headWriter{n: shebangBytes}
	if _, err := io.Copy(io.MultiWriter(h, head), ctxReader{ctx, f}); err != nil {
		return "", "", err
	}
	return hex.EncodeToString(h.Sum(nil)), shebangLine(head.b), nil
}

// headWriter keeps the first n bytes written.
type headWriter struct {
	b []byte
	n int
}

func (w *headWriter) Write(p []byte) (int, error) {
	if room := w.n - len(w.b); room > 0 {
		w.b = append(w.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
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
