// Package seal authenticates the verdict state gauntlet keeps in the work tree (the stop hook's
// ledger and shared verdicts, the gate cache, the decision history) with a per-user secret that
// the work tree does not hold. The gated agent can write every file of its work tree in one
// command; a pass it writes there must not be believed. A seal is an HMAC-SHA256 over what the
// file says, bound to its purpose and its project, under a key kept in the user's state
// directory ($XDG_STATE_HOME/gauntlet, else ~/.local/state/gauntlet; the user's config directory
// where that has no meaning), created on first use with mode 0600 in a 0700 directory.
//
// Readers treat state whose seal does not verify as absent: it is recomputed, never believed.
// Without a key (no home directory, an unwritable one, a key file someone else owns) nothing
// verifies, so nothing is answered from stored state: every gate runs.
package seal

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// keyFile is the secret's name in the user's state directory.
const keyFile = "key"

// keyBytes is the secret's length: 256 bits.
const keyBytes = 32

// Key is the user's secret.
type Key struct {
	secret []byte
	dir    string
}

// Dir is the user's gauntlet state directory: $XDG_STATE_HOME/gauntlet, else
// ~/.local/state/gauntlet on Unix systems and the user's config directory elsewhere.
func Dir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "gauntlet"), nil
	}
	if runtime.GOOS != "windows" && runtime.GOOS != "darwin" && runtime.GOOS != "ios" && runtime.GOOS != "plan9" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(home, ".local", "state", "gauntlet"), nil
	}
	cfg, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(cfg, "gauntlet"), nil
}

var (
	loadMu sync.Mutex
	loaded = map[string]*Key{}
)

// ErrNoStateDir means the user has no state directory at all (no home directory): nothing the
// gated agent can cause, unlike a key it made readable or a directory it replaced.
var ErrNoStateDir = errors.New("the user's state directory")

// Load returns the user's key, creating it on first use; it is read once per process and
// directory.
func Load() (*Key, error) {
	dir, err := Dir()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoStateDir, err)
	}
	loadMu.Lock()
	defer loadMu.Unlock()
	if k := loaded[dir]; k != nil {
		return k, nil
	}
	k, err := load(dir)
	if err != nil {
		return nil, fmt.Errorf("the key that authenticates gauntlet's state: %w", err)
	}
	loaded[dir] = k
	return k, nil
}

func load(dir string) (*Key, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, keyFile)
	secret, err := readKey(path)
	if errors.Is(err, fs.ErrNotExist) {
		secret, err = createKey(dir, path)
	}
	if err != nil {
		return nil, err
	}
	return &Key{secret: secret, dir: dir}, nil
}

// createKey writes a new secret under a temporary name and links it into place, so that two
// processes creating it at once agree on one (the loser reads the winner's).
func createKey(dir, path string) ([]byte, error) {
	secret := make([]byte, keyBytes)
	if _, err := rand.Read(secret); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(dir, ".key-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return nil, err
	}
	if _, err := tmp.WriteString(hex.EncodeToString(secret) + "\n"); err != nil {
		tmp.Close()
		return nil, err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		return nil, err
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return readKey(path)
		}
		return nil, err
	}
	return secret, nil
}

// readKey reads the secret, refusing a file that is not the user's own regular file or that
// others may read.
func readKey(path string) ([]byte, error) {
	f, info, err := safefile.Open(path, time.Now().Add(5*time.Second))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := ownedPrivately(info); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	buf := make([]byte, 2*keyBytes+2)
	n, _ := f.Read(buf)
	secret, err := hex.DecodeString(strings.TrimSpace(string(buf[:n])))
	if err != nil || len(secret) != keyBytes {
		return nil, fmt.Errorf("%s is not a gauntlet key", path)
	}
	return secret, nil
}

// Sum seals parts for purpose (what the state is: "ledger", "cache"...) in project (its root):
// a seal made for one file or project verifies for no other. Parts are length-prefixed, so no
// two different sequences give the same input.
func (k *Key) Sum(purpose, project string, parts ...[]byte) string {
	mac := hmac.New(sha256.New, k.secret)
	field(mac, []byte(purpose))
	field(mac, []byte(project))
	for _, p := range parts {
		field(mac, p)
	}
	return hex.EncodeToString(mac.Sum(nil))
}

// Verify says whether seal is the seal of parts for purpose in project. A nil key verifies
// nothing.
func (k *Key) Verify(seal, purpose, project string, parts ...[]byte) bool {
	if k == nil || seal == "" {
		return false
	}
	want := k.Sum(purpose, project, parts...)
	return hmac.Equal([]byte(seal), []byte(want))
}

// StateDir is the user's state directory the key lives in, where other state that must outlive
// the work tree's (see Anchor) is kept too.
func (k *Key) StateDir() string { return k.dir }

func field(h hash.Hash, data []byte) {
	h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(data))))
	h.Write(data)
}

// ownedPrivately refuses a key file that is not a regular file of the user's own, or that others
// can read or write: a key someone else can write is no secret of the user's.
func ownedPrivately(info fs.FileInfo) error {
	if !info.Mode().IsRegular() {
		return errors.New("not a regular file")
	}
	if uid, ok := safefile.Owner(info); ok && int(uid) != os.Geteuid() {
		return fmt.Errorf("owned by uid %d, not by you (uid %d)", uid, os.Geteuid())
	}
	if runtime.GOOS != "windows" && info.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("mode %s lets others read or write it; it must be 0600", info.Mode().Perm())
	}
	return nil
}

// Sealed is state that carries its own seal in a field (json:"mac"), computed over the JSON
// encoding of the rest of it.
type Sealed interface {
	// SealField points at the field that holds the seal.
	SealField() *string
}

// SealJSON sets v's seal: the seal of v's JSON encoding with the field empty. A nil key leaves
// it empty, which nothing verifies.
func (k *Key) SealJSON(purpose, project string, v Sealed) error {
	field := v.SealField()
	*field = ""
	if k == nil {
		return nil
	}
	data, err := canonical(v)
	if err != nil {
		return fmt.Errorf("seal %s: %w", purpose, err)
	}
	*field = k.Sum(purpose, project, data)
	return nil
}

// canonical is v's JSON encoding as a reader will see it: encoded, decoded and encoded again.
// One pass is not enough: invalid UTF-8 in a string is written as an escaped U+FFFD, which
// decodes to a valid U+FFFD that is then written unescaped.
func canonical(v Sealed) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	again := reflect.New(reflect.TypeOf(v).Elem()).Interface()
	if err := json.Unmarshal(data, again); err != nil {
		return nil, err
	}
	return json.Marshal(again)
}

// VerifyJSON says whether v, as decoded, carries the seal SealJSON gave it. What is verified is
// what was decoded, encoded again: everything gauntlet stores round-trips through encoding/json
// unchanged, so an untouched file verifies, and any edit that changes a decoded value (a field
// changed, added in another case, given twice) changes the encoding and fails.
func (k *Key) VerifyJSON(purpose, project string, v Sealed) bool {
	field := v.SealField()
	got := *field
	*field = ""
	defer func() { *field = got }()
	if k == nil || got == "" {
		return false
	}
	data, err := json.Marshal(v)
	return err == nil && k.Verify(got, purpose, project, data)
}

// sealMember is how the seal ends a sealed value's compact encoding when its field is the last:
// `,"mac":"<64 hex digits>"}`.
const (
	sealMemberStart = `,"mac":"`
	sealMemberLen   = len(sealMemberStart) + 2*sha256.Size + len(`"}`)
)

// VerifyEncoded says whether data, a file holding a sealed value's JSON (compact or indented) with
// the seal as its last member, is the encoding SealJSON sealed. It reads the bytes alone, neither
// decoding nor encoding them again, which costs a reader a fraction of VerifyJSON's reflection.
// What it accepts, VerifyJSON accepts once decoded: the bytes without the seal member are the
// very bytes the seal was made over (the seal cannot be forged), and decoding them gives back a
// value that encodes to them, as every sealed value does. What it refuses may still verify (keys
// in another order, a string spelt with other escapes): the caller then decodes and asks
// VerifyJSON, as before.
func (k *Key) VerifyEncoded(purpose, project string, data []byte) bool {
	if k == nil {
		return false
	}
	var compact bytes.Buffer
	compact.Grow(len(data))
	if json.Compact(&compact, data) != nil {
		return false
	}
	c := compact.Bytes()
	if len(c) < sealMemberLen || !bytes.HasPrefix(c[len(c)-sealMemberLen:], []byte(sealMemberStart)) || !bytes.HasSuffix(c, []byte(`"}`)) {
		return false
	}
	seal := string(c[len(c)-sealMemberLen+len(sealMemberStart) : len(c)-len(`"}`)])
	sealed := append(c[:len(c)-sealMemberLen], '}')
	return k.Verify(seal, purpose, project, sealed)
}
