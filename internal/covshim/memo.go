package covshim

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
	"github.com/gauntlet-dev/gauntlet/internal/seal"
)

const (
	// memoFile remembers, in the user's state directory, the covdata each go resolved to: asking
	// go costs 0.07 s of CPU on every run, a fifth of what coverage adds to a stop.
	memoFile    = "covdata-paths"
	memoPurpose = "covdata paths"
	// maxMemoBytes and maxMemoEntries bound the memo; past the count the file starts again.
	maxMemoBytes   = 64 << 10
	maxMemoEntries = 64
	// maxGoModBytes bounds the read of the go.mod whose toolchain line can switch go's version.
	maxGoModBytes = 1 << 20
	readTimeout   = 5 * time.Second
)

var memoMu sync.Mutex

// Covdata is the covdata executable `go tool covdata` runs for the go at goPath, started in dir
// with env: remembered under what decides it (the go binary as a file, go's variables, the
// nearest go.mod, which can name another toolchain), else asked of go by resolve and
// remembered. The memo is sealed with the user's key; one that does not verify, or a path that
// is no longer an executable file, is asked again. "" when resolve finds none.
func Covdata(goPath, dir string, env []string, resolve func() string) string {
	key, ok := memoKey(goPath, dir, env)
	if !ok {
		return resolve()
	}
	memoMu.Lock()
	defer memoMu.Unlock()
	sk, err := seal.Load()
	if err != nil || sk == nil {
		return resolve()
	}
	path := filepath.Join(sk.StateDir(), memoFile)
	entries := readMemo(sk, path)
	if p := entries[key]; p != "" && isExecutable(p) {
		return p
	}
	p := resolve()
	if p == "" {
		return ""
	}
	if len(entries) >= maxMemoEntries {
		clear(entries)
	}
	entries[key] = p
	writeMemo(sk, path, entries)
	return p
}

// memoKey is what decides which covdata go runs; false when the go binary cannot be read.
func memoKey(goPath, dir string, env []string) (string, bool) {
	info, err := os.Stat(goPath)
	if err != nil || !info.Mode().IsRegular() {
		return "", false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\x00%d\x00%d", goPath, info.Size(), info.ModTime().UnixNano())
	vars := slices.Clone(env)
	vars = slices.DeleteFunc(vars, func(e string) bool {
		return !strings.HasPrefix(e, "GO") && !strings.HasPrefix(e, "CGO_") && !strings.HasPrefix(e, "HOME=") && !strings.HasPrefix(e, "XDG_CACHE_HOME=")
	})
	slices.Sort(vars)
	for _, v := range vars {
		b.WriteString("\x00" + v)
	}
	b.WriteString("\x00" + goModDigest(dir))
	// `go env -w` settings (GOTOOLCHAIN, GOCACHE) live in go's env file.
	if info, err := os.Stat(goEnvFile(env)); err == nil {
		fmt.Fprintf(&b, "\x00env %d %d", info.Size(), info.ModTime().UnixNano())
	}
	return b.String(), true
}

// goEnvFile is the file `go env -w` writes: $GOENV, else go's file in the user's config folder.
func goEnvFile(env []string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], "GOENV="); ok {
			return v
		}
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "go", "env")
}

// goModDigest is the SHA-256 of the nearest go.mod from dir up, "" for none.
func goModDigest(dir string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		data, err := safefile.ReadFile(filepath.Join(d, "go.mod"), maxGoModBytes, time.Now().Add(readTimeout))
		if err == nil {
			sum := sha256.Sum256(data)
			return hex.EncodeToString(sum[:])
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// readMemo reads the memo's entries: none when it is missing, too large or not sealed by the key.
func readMemo(sk *seal.Key, path string) map[string]string {
	out := map[string]string{}
	data, err := safefile.ReadFile(path, maxMemoBytes, time.Now().Add(readTimeout))
	if err != nil {
		return out
	}
	mac, body, _ := bytes.Cut(data, []byte{'\n'})
	if !sk.Verify(string(mac), memoPurpose, path, body) {
		return out
	}
	for line := range strings.SplitSeq(string(body), "\n") {
		k, rest, err := unquotePrefix(line)
		p, _, err2 := unquotePrefix(strings.TrimPrefix(rest, " "))
		if err == nil && err2 == nil {
			out[k] = p
		}
	}
	return out
}

func unquotePrefix(s string) (string, string, error) {
	q, err := strconv.QuotedPrefix(s)
	if err != nil {
		return "", "", err
	}
	v, err := strconv.Unquote(q)
	return v, s[len(q):], err
}

// writeMemo replaces the memo with entries, sealed; a failure keeps what was there.
func writeMemo(sk *seal.Key, path string, entries map[string]string) {
	var body bytes.Buffer
	for _, k := range slices.Sorted(maps.Keys(entries)) {
		fmt.Fprintf(&body, "%s %s\n", strconv.Quote(k), strconv.Quote(entries[k]))
	}
	mac := sk.Sum(memoPurpose, path, body.Bytes())
	_ = seal.WriteProjectFile(path, append([]byte(mac+"\n"), body.Bytes()...))
}

// isExecutable says whether path is an executable regular file (on Windows: a regular file).
func isExecutable(path string) bool {
	info, err := os.Stat(path)
	return err == nil && filepath.IsAbs(path) && info.Mode().IsRegular() && (info.Mode().Perm()&0o111 != 0 || os.PathSeparator == '\\')
}
