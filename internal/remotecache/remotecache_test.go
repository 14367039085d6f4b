package remotecache

import (
	"context"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// davServer is an in-memory stand-in for a WebDAV store: PUT keeps a body, GET returns it.
type davServer struct {
	mu       sync.Mutex
	files    map[string][]byte
	requests atomic.Int32
	auth     atomic.Value
}

func (s *davServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	s.auth.Store(r.Header.Get("Authorization"))
	s.mu.Lock()
	defer s.mu.Unlock()
	switch r.Method {
	case http.MethodPut:
		b, _ := io.ReadAll(r.Body)
		s.files[r.URL.Path] = b
		w.WriteHeader(http.StatusCreated)
	case http.MethodGet:
		b, ok := s.files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}
}

func newDAV(t *testing.T) (*davServer, string) {
	s := &davServer{files: map[string][]byte{}}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv.URL + "/cache/"
}

const key = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// keypair is a fresh signing key, as `gauntlet cache keygen` makes one.
func keypair(t *testing.T) (ed25519.PublicKey, ed25519.PrivateKey) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return pub, priv
}

// writer is CI: it holds the private key, and trusts its public key like everybody else.
func writer(t *testing.T, url string, priv ed25519.PrivateKey) *Client {
	t.Helper()
	c, err := New(Options{URL: url, Trusted: []ed25519.PublicKey{priv.Public().(ed25519.PublicKey)}, Signer: priv, Token: "tok", Budget: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// reader is everybody else: only the public keys of the config.
func reader(t *testing.T, url string, trusted ...ed25519.PublicKey) *Client {
	t.Helper()
	c, err := New(Options{URL: url, Trusted: trusted, Token: "tok", Budget: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestWrittenPassIsReadBackByAnotherReader(t *testing.T) {
	dav, url := newDAV(t)
	ctx := context.Background()
	pub, priv := keypair(t)
	at := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	ci := writer(t, url, priv)
	if !ci.Writes() {
		t.Fatal("a client with a signing key does not write")
	}
	if err := ci.Put(ctx, key, Entry{Gate: "test", Run: "r1", At: at}); err != nil {
		t.Fatal(err)
	}
	if _, ok := dav.files["/cache/ac/"+key]; !ok {
		t.Fatalf("nothing stored under /cache/ac/KEY: %v", dav.files)
	}
	if got := dav.auth.Load(); got != "Bearer tok" {
		t.Errorf("Authorization = %q", got)
	}
	e, ok, err := reader(t, url, pub).Get(ctx, key)
	if err != nil || !ok || e.Gate != "test" || e.Run != "r1" || !e.At.Equal(at) {
		t.Fatalf("Get = %+v, %v, %v", e, ok, err)
	}
}

// A reader holds public keys only: it has nothing to sign with, and never writes.
func TestReadOnlyClientNeverWrites(t *testing.T) {
	dav, url := newDAV(t)
	pub, _ := keypair(t)
	c := reader(t, url, pub)
	if c.Writes() {
		t.Fatal("a client without a signing key says it writes")
	}
	if err := c.Put(context.Background(), key, Entry{Gate: "g"}); err != nil {
		t.Fatal(err)
	}
	if n := dav.requests.Load(); n != 0 {
		t.Fatalf("a read-only client made %d requests", n)
	}
}

func TestMissIsNotAFailure(t *testing.T) {
	_, url := newDAV(t)
	pub, _ := keypair(t)
	c := reader(t, url, pub)
	for range 2 {
		if _, ok, err := c.Get(context.Background(), key); ok || err != nil {
			t.Fatalf("Get on an empty server = %v, %v", ok, err)
		}
	}
	if c.Ignored() != (Ignored{}) {
		t.Fatalf("a miss counted as an ignored entry: %+v", c.Ignored())
	}
}

// Every way to put on the server an entry that the project's key did not sign for this key is a
// miss, counted once as an entry whose signature does not hold: never a pass.
func TestForgedEntriesAreIgnored(t *testing.T) {
	dav, url := newDAV(t)
	ctx := context.Background()
	path := "/cache/ac/" + key
	other := "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"
	pub, priv := keypair(t)
	_, agentPriv := keypair(t)
	ci := writer(t, url, priv)
	genuine := func(k, run string) []byte {
		t.Helper()
		if err := ci.Put(ctx, k, Entry{Gate: "test", Run: run}); err != nil {
			t.Fatal(err)
		}
		return dav.files["/cache/ac/"+k]
	}
	otherEntry := genuine(other, "r0")
	entry := genuine(key, "r1")
	withSig := func(b []byte, edit func(sig []byte) string) []byte {
		t.Helper()
		var w map[string]any
		if err := json.Unmarshal(b, &w); err != nil {
			t.Fatal(err)
		}
		sig, err := base64.StdEncoding.DecodeString(w["sig"].(string))
		if err != nil {
			t.Fatal(err)
		}
		w["sig"] = edit(sig)
		out, _ := json.Marshal(w)
		return out
	}
	cases := map[string]func() []byte{
		"signed with the agent's own key": func() []byte {
			// The agent's own pair, through a client that trusts it: a well-formed entry.
			c, err := New(Options{URL: url, Trusted: []ed25519.PublicKey{agentPriv.Public().(ed25519.PublicKey)}, Signer: agentPriv, Budget: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Put(ctx, key, Entry{Gate: "test", Run: "agent"}); err != nil {
				t.Fatal(err)
			}
			return dav.files[path]
		},
		"another key's entry copied over": func() []byte { return otherEntry },
		"gate edited after signing": func() []byte {
			return []byte(strings.Replace(string(entry), `"r1"`, `"r9"`, 1))
		},
		"time edited after signing": func() []byte {
			return []byte(strings.Replace(string(entry), `"at":"0001`, `"at":"0002`, 1))
		},
		"signature truncated": func() []byte {
			return withSig(entry, func(sig []byte) string { return base64.StdEncoding.EncodeToString(sig[:len(sig)-1]) })
		},
		"signature padded": func() []byte {
			return withSig(entry, func(sig []byte) string { return base64.StdEncoding.EncodeToString(append(sig, 0)) })
		},
		"signature flipped": func() []byte {
			return withSig(entry, func(sig []byte) string { sig[0] ^= 1; return base64.StdEncoding.EncodeToString(sig) })
		},
		"signature not base64": func() []byte { return withSig(entry, func([]byte) string { return "not base64!" }) },
		"signature empty":      func() []byte { return withSig(entry, func([]byte) string { return "" }) },
		"not JSON":             func() []byte { return []byte("pass") },
		"format of the future": func() []byte {
			return []byte(strings.Replace(string(entry), `"gauntlet-remote-cache-2"`, `"gauntlet-remote-cache-3"`, 1))
		},
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			b := body()
			dav.files[path] = b
			r := reader(t, url, pub)
			if e, ok, err := r.Get(ctx, key); ok || err != nil {
				t.Fatalf("Get of %s = %+v, %v, %v", b, e, ok, err)
			}
			if got := r.Ignored(); got != (Ignored{Unverified: 1}) {
				t.Errorf("Ignored() = %+v, want one entry that does not verify", got)
			}
		})
	}
	// The genuine entry still verifies: the cases above failed for what they changed.
	dav.files[path] = entry
	if _, ok, _ := reader(t, url, pub).Get(ctx, key); !ok {
		t.Fatal("the genuine entry was not believed")
	}
}

// oldHMACEntry is an entry as gauntlet wrote it before entries were signed with Ed25519: an
// HMAC-SHA256 with a secret every reader held.
func oldHMACEntry(secret, k string, e Entry) []byte {
	w := map[string]any{"format": "gauntlet-remote-cache-1", "key": k, "gate": e.Gate, "run": e.Run, "at": e.At.UTC()}
	m := hmac.New(sha256.New, []byte(secret))
	for _, field := range []string{"gauntlet-remote-cache-1", k, e.Gate, e.Run, e.At.UTC().Format(time.RFC3339Nano)} {
		fmt.Fprintf(m, "%d:%s;", len(field), field)
	}
	w["mac"] = hex.EncodeToString(m.Sum(nil))
	b, _ := json.Marshal(w)
	return b
}

// Entries written before public keys are not believed any more, whoever holds the old secret,
// and are told apart from forgeries: the next CI run with the signing key replaces them.
func TestOldHMACEntriesAreMisses(t *testing.T) {
	dav, url := newDAV(t)
	pub, priv := keypair(t)
	dav.files["/cache/ac/"+key] = oldHMACEntry("team-secret", key, Entry{Gate: "test", Run: "r1"})
	r := reader(t, url, pub)
	if _, ok, err := r.Get(context.Background(), key); ok || err != nil {
		t.Fatalf("an HMAC entry: %v, %v", ok, err)
	}
	if got := r.Ignored(); got != (Ignored{HMAC: 1}) {
		t.Fatalf("Ignored() = %+v, want one HMAC entry", got)
	}
	if err := writer(t, url, priv).Put(context.Background(), key, Entry{Gate: "test", Run: "r2"}); err != nil {
		t.Fatal(err)
	}
	if e, ok, _ := reader(t, url, pub).Get(context.Background(), key); !ok || e.Run != "r2" {
		t.Fatalf("after CI's run: %+v, %v", e, ok)
	}
}

// Rotation: while the config lists the old and the new public key, entries of both are
// believed; once the old one is gone from the list, its entries are misses.
func TestKeyRotation(t *testing.T) {
	dav, url := newDAV(t)
	ctx := context.Background()
	oldPub, oldPriv := keypair(t)
	newPub, newPriv := keypair(t)
	const key2 = "1123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	writer(t, url, oldPriv).Put(ctx, key, Entry{Gate: "a", Run: "old"})
	writer(t, url, newPriv).Put(ctx, key2, Entry{Gate: "b", Run: "new"})
	for _, trusted := range [][]ed25519.PublicKey{{oldPub, newPub}, {newPub, oldPub}} {
		r := reader(t, url, trusted...)
		if e, ok, _ := r.Get(ctx, key); !ok || e.Run != "old" {
			t.Errorf("the old key's entry with both trusted: %+v, %v", e, ok)
		}
		if e, ok, _ := r.Get(ctx, key2); !ok || e.Run != "new" {
			t.Errorf("the new key's entry with both trusted: %+v, %v", e, ok)
		}
	}
	r := reader(t, url, newPub)
	if _, ok, _ := r.Get(ctx, key); ok {
		t.Error("the retired key's entry was believed")
	}
	if _, ok, _ := r.Get(ctx, key2); !ok {
		t.Error("the new key's entry was not believed")
	}
	if dav.requests.Load() == 0 {
		t.Fatal("no request reached the server")
	}
}

func TestNoTrustedKeyNoClient(t *testing.T) {
	if _, err := New(Options{URL: "http://x"}); !errors.Is(err, ErrNoTrustedKey) {
		t.Fatalf("New without public keys: %v", err)
	}
}

// A signing key whose public key the config does not list would write entries nobody believes:
// refused, rather than filling the server with misses.
func TestSignerMustBeTrusted(t *testing.T) {
	pub, _ := keypair(t)
	_, priv := keypair(t)
	if _, err := New(Options{URL: "http://x", Trusted: []ed25519.PublicKey{pub}, Signer: priv}); !errors.Is(err, ErrUntrustedSigner) {
		t.Fatalf("New with a signer the config does not trust: %v", err)
	}
}

func TestKeysMustBeDigests(t *testing.T) {
	_, url := newDAV(t)
	if _, _, err := reader(t, url, mustPub(t)).Get(context.Background(), "../../etc/passwd"); err == nil {
		t.Fatal("a key that is no digest reached the URL")
	}
}

// A failing server is asked once: every later call of the run is a miss without a request.
func TestFailingServerIsAskedOnce(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		http.Error(w, "boom", http.StatusInternalServerError)
	}))
	defer srv.Close()
	_, priv := keypair(t)
	c := writer(t, srv.URL, priv)
	if _, _, err := c.Get(context.Background(), key); err == nil || !strings.Contains(err.Error(), "500") {
		t.Fatalf("first Get: %v", err)
	}
	for range 3 {
		if _, ok, err := c.Get(context.Background(), key); ok || !errors.Is(err, ErrDown) {
			t.Fatalf("later Get = %v, %v", ok, err)
		}
		if err := c.Put(context.Background(), key, Entry{}); !errors.Is(err, ErrDown) {
			t.Fatalf("later Put: %v", err)
		}
	}
	if n.Load() != 1 {
		t.Fatalf("the server was asked %d times", n.Load())
	}
}

// A server that never answers costs the budget once, then nothing.
func TestSlowServerCostsOnlyTheBudget(t *testing.T) {
	release := make(chan struct{})
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	c, _ := New(Options{URL: srv.URL, Trusted: []ed25519.PublicKey{mustPub(t)}, Budget: 50 * time.Millisecond})
	if _, ok, err := c.Get(context.Background(), key); ok || err == nil {
		t.Fatalf("Get from a hung server = %v, %v", ok, err)
	}
	if _, _, err := c.Get(context.Background(), key); !errors.Is(err, ErrDown) {
		t.Fatalf("second Get: %v", err)
	}
	if n.Load() != 1 {
		t.Fatalf("the hung server was asked %d times", n.Load())
	}
}

func TestOversizedEntryIsIgnored(t *testing.T) {
	dav, url := newDAV(t)
	dav.files["/cache/ac/"+key] = []byte(strings.Repeat("x", maxEntryBytes+10))
	if _, ok, _ := reader(t, url, mustPub(t)).Get(context.Background(), key); ok {
		t.Fatal("an oversized entry was believed")
	}
}

func mustPub(t *testing.T) ed25519.PublicKey {
	pub, _ := keypair(t)
	return pub
}

// The budget is the time spent talking to the server, not the time since the first call: CI's
// run reads at its start and stores its passes after gates that took minutes.
func TestBudgetCountsTimeInCallsOnly(t *testing.T) {
	dav, url := newDAV(t)
	ctx := context.Background()
	pub, priv := keypair(t)
	ci, err := New(Options{URL: url, Trusted: []ed25519.PublicKey{pub}, Signer: priv, Budget: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := ci.Get(ctx, key); err != nil {
		t.Fatal(err)
	}
	time.Sleep(400 * time.Millisecond) // the gates run
	if err := ci.Put(ctx, key, Entry{Gate: "test", Run: "r", At: time.Now()}); err != nil {
		t.Fatalf("Put after a long run: %v", err)
	}
	if _, ok := dav.files["/cache/ac/"+key]; !ok {
		t.Fatal("the pass was not stored")
	}
}
