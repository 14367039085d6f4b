package remotecache

import (
	"context"
	"errors"
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

func client(t *testing.T, url string, write bool, secret string) *Client {
	t.Helper()
	c, err := New(Options{URL: url, Write: write, Secret: []byte(secret), Token: "tok", Budget: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestWrittenPassIsReadBackByAnotherReader(t *testing.T) {
	dav, url := newDAV(t)
	ctx := context.Background()
	at := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	if err := client(t, url, true, "s3cret").Put(ctx, key, Entry{Gate: "test", Run: "r1", At: at}); err != nil {
		t.Fatal(err)
	}
	if _, ok := dav.files["/cache/ac/"+key]; !ok {
		t.Fatalf("nothing stored under /cache/ac/KEY: %v", dav.files)
	}
	if got := dav.auth.Load(); got != "Bearer tok" {
		t.Errorf("Authorization = %q", got)
	}
	e, ok, err := client(t, url, false, "s3cret").Get(ctx, key)
	if err != nil || !ok || e.Gate != "test" || e.Run != "r1" || !e.At.Equal(at) {
		t.Fatalf("Get = %+v, %v, %v", e, ok, err)
	}
}

func TestReadOnlyClientNeverWrites(t *testing.T) {
	dav, url := newDAV(t)
	if err := client(t, url, false, "s").Put(context.Background(), key, Entry{Gate: "g"}); err != nil {
		t.Fatal(err)
	}
	if n := dav.requests.Load(); n != 0 {
		t.Fatalf("a read-only client made %d requests", n)
	}
}

func TestMissIsNotAFailure(t *testing.T) {
	_, url := newDAV(t)
	c := client(t, url, false, "s")
	for range 2 {
		if _, ok, err := c.Get(context.Background(), key); ok || err != nil {
			t.Fatalf("Get on an empty server = %v, %v", ok, err)
		}
	}
}

// An entry signed with another secret, edited after signing, or copied from another key is
// ignored: never a pass.
func TestForgedEntriesAreIgnored(t *testing.T) {
	dav, url := newDAV(t)
	ctx := context.Background()
	other := "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"
	client(t, url, true, "attacker").Put(ctx, key, Entry{Gate: "test", Run: "r1"})
	client(t, url, true, "s3cret").Put(ctx, other, Entry{Gate: "test", Run: "r2"})
	reader := client(t, url, false, "s3cret")
	if _, ok, _ := reader.Get(ctx, key); ok {
		t.Fatal("an entry signed with another secret was believed")
	}
	// The genuine entry of another key, copied under this key.
	dav.files["/cache/ac/"+key] = dav.files["/cache/ac/"+other]
	if _, ok, _ := reader.Get(ctx, key); ok {
		t.Fatal("another key's entry was believed")
	}
	// A genuine entry with its gate edited.
	client(t, url, true, "s3cret").Put(ctx, key, Entry{Gate: "test", Run: "r3"})
	dav.files["/cache/ac/"+key] = []byte(strings.Replace(string(dav.files["/cache/ac/"+key]), `"r3"`, `"r4"`, 1))
	if _, ok, _ := reader.Get(ctx, key); ok {
		t.Fatal("an edited entry was believed")
	}
	if reader.Forged() != 3 {
		t.Errorf("Forged() = %d, want 3", reader.Forged())
	}
}

func TestNoSecretNoClient(t *testing.T) {
	if _, err := New(Options{URL: "http://x"}); !errors.Is(err, ErrNoSecret) {
		t.Fatalf("New without a secret: %v", err)
	}
}

func TestKeysMustBeDigests(t *testing.T) {
	_, url := newDAV(t)
	if _, _, err := client(t, url, false, "s").Get(context.Background(), "../../etc/passwd"); err == nil {
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
	c := client(t, srv.URL, true, "s")
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
	c, _ := New(Options{URL: srv.URL, Secret: []byte("s"), Budget: 50 * time.Millisecond})
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
	if _, ok, _ := client(t, url, false, "s").Get(context.Background(), key); ok {
		t.Fatal("an oversized entry was believed")
	}
}
