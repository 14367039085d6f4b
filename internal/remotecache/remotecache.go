// Package remotecache shares gate passes between machines through a server that speaks the HTTP
// protocol of the Bazel remote cache (GET and PUT of BASE/ac/KEY), as bazel-remote, nginx with
// WebDAV and S3-compatible gateways do. Every entry is signed with Ed25519: the private key is
// held only where passes are written (CI), every reader holds public keys only, so a reader
// believes what the writer signed and can sign nothing itself; the server needs no key. The whole
// conversation of a run is bounded by one budget, so a slow or failing server costs at most that,
// never the verdict.
package remotecache

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Entry is one remembered pass, as the local cache keeps it.
type Entry struct {
	Gate string    `json:"gate"`
	Run  string    `json:"run"`
	At   time.Time `json:"at"`
}

// Options configure a Client.
type Options struct {
	URL string
	// Trusted are the public keys an entry's signature is checked against: an entry is believed
	// when one of them verifies it. A Client is never made without one.
	Trusted []ed25519.PublicKey
	// Signer signs the entries Put stores; nil makes a client that never writes. Its public key
	// must be one of Trusted.
	Signer ed25519.PrivateKey
	// Token, when set, is sent as a bearer token.
	Token string
	// Budget is the most all of a Client's calls may take together.
	Budget time.Duration
	// HTTP is the client to use; nil means a plain one.
	HTTP *http.Client
}

// ErrNoTrustedKey means there is no public key to check entries with.
var ErrNoTrustedKey = errors.New("no public key to check entries with")

// ErrUntrustedSigner means the signing key is not the private key of any trusted public key:
// what it signed, nobody would believe.
var ErrUntrustedSigner = errors.New("the signing key is not the private key of any of the public keys")

// maxEntryBytes bounds what a GET may read: an entry is a few hundred bytes.
const maxEntryBytes = 64 << 10

// format names the wire format and is part of what is signed, so that an entry of another format
// can never be read as this one.
const format = "gauntlet-remote-cache-2"

// hmacFormat is the format of entries signed with a secret every reader held (an HMAC), before
// public keys: never believed, and counted apart so that the run can say how to replace them.
const hmacFormat = "gauntlet-remote-cache-1"

// keyPattern is what a key must look like to become part of a URL: the local cache's keys are
// SHA-256 hex digests, which is also what Bazel's action cache expects.
var keyPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{64}$`) })

// Client talks to one remote cache for one run. It is safe for concurrent use.
type Client struct {
	opts Options
	http *http.Client

	mu sync.Mutex
	// spent is the time the calls took so far: the budget bounds the time spent talking to the
	// server, not the time since the first call (the gates run in between, for minutes).
	spent   time.Duration
	down    error   // once the server failed, no more calls this run
	ignored Ignored // entries the server returned that were not believed
}

// Ignored counts the entries a Client did not believe, by why.
type Ignored struct {
	// Unverified entries have no signature of a trusted key over what they say (forged, edited,
	// another key's entry copied over, signed by a key the config does not list).
	Unverified int
	// HMAC entries were written before entries were signed with Ed25519.
	HMAC int
}

// New returns a Client, ErrNoTrustedKey when there is no public key to check entries with, or
// ErrUntrustedSigner when the signing key is not one of them.
func New(opts Options) (*Client, error) {
	if len(opts.Trusted) == 0 {
		return nil, ErrNoTrustedKey
	}
	for _, pub := range opts.Trusted {
		if len(pub) != ed25519.PublicKeySize {
			return nil, fmt.Errorf("remote cache: a public key of %d bytes, not %d", len(pub), ed25519.PublicKeySize)
		}
	}
	if opts.Signer != nil && !trusts(opts.Trusted, opts.Signer) {
		return nil, ErrUntrustedSigner
	}
	if opts.Budget <= 0 {
		opts.Budget = 2 * time.Second
	}
	hc := opts.HTTP
	if hc == nil {
		hc = &http.Client{}
	}
	opts.URL = strings.TrimRight(opts.URL, "/")
	return &Client{opts: opts, http: hc}, nil
}

// Writes says whether passes are stored on the server: only with a signing key.
func (c *Client) Writes() bool { return c.opts.Signer != nil }

// trusts says whether the signing key is the private key of one of the public keys.
func trusts(trusted []ed25519.PublicKey, signer ed25519.PrivateKey) bool {
	for _, pub := range trusted {
		if pub.Equal(signer.Public()) {
			return true
		}
	}
	return false
}

// Get returns the entry stored under key, if the server has one and its signature holds. A
// server that fails or is slow makes this and every later call a miss; the error says why once.
func (c *Client) Get(ctx context.Context, key string) (Entry, bool, error) {
	body, found, err := c.get(ctx, key, maxEntryBytes)
	if !found || err != nil {
		return Entry{}, false, err
	}
	e, why := c.open(key, body)
	if why != believed {
		c.ignore(why)
		return Entry{}, false, nil
	}
	return e, true, nil
}

// Put stores a pass under key when the client writes; otherwise it does nothing.
func (c *Client) Put(ctx context.Context, key string, e Entry) error {
	if !c.Writes() {
		return nil
	}
	body, err := c.seal(key, e)
	if err != nil {
		return err
	}
	return c.put(ctx, key, body)
}

// get reads what the server holds under key, at most limit bytes (one more tells a body that is
// too long, which is then not believed); found is false for a miss.
func (c *Client) get(ctx context.Context, key string, limit int64) (body []byte, found bool, err error) {
	ctx, cancel, err := c.call(ctx, key)
	if err != nil {
		return nil, false, err
	}
	defer cancel()
	req, err := c.request(ctx, http.MethodGet, key, nil)
	if err != nil {
		return nil, false, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, false, c.fail(err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return nil, false, nil
	case resp.StatusCode != http.StatusOK:
		return nil, false, c.fail(fmt.Errorf("GET %s: %s", c.path(key), resp.Status))
	}
	body, err = io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, false, c.fail(err)
	}
	return body, true, nil
}

// put stores body under key.
func (c *Client) put(ctx context.Context, key string, body []byte) error {
	ctx, cancel, err := c.call(ctx, key)
	if err != nil {
		return err
	}
	defer cancel()
	req, err := c.request(ctx, http.MethodPut, key, body)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return c.fail(err)
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, maxEntryBytes))
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return c.fail(fmt.Errorf("PUT %s: %s", c.path(key), resp.Status))
	}
	return nil
}

// ignore counts an entry the server returned that was not believed.
func (c *Client) ignore(why verdict) {
	c.mu.Lock()
	c.ignored.count(why)
	c.mu.Unlock()
}

// Ignored is how many entries the server returned that were not believed, by why.
func (c *Client) Ignored() Ignored {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ignored
}

// call checks the key and the server's state, and bounds the call by what is left of the budget.
func (c *Client) call(ctx context.Context, key string) (context.Context, context.CancelFunc, error) {
	if !keyPattern().MatchString(key) {
		return nil, nil, fmt.Errorf("remote cache: key %q is not a SHA-256 hex digest", key)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.down != nil {
		return nil, nil, ErrDown
	}
	left := c.opts.Budget - c.spent
	if left <= 0 {
		c.down = errors.New("its time budget is spent")
		return nil, nil, fmt.Errorf("remote cache not used further: %w", c.down)
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, left)
	// Calls at the same time each count whole: the sum bounds the wall time from above.
	return ctx, func() {
		cancel()
		c.mu.Lock()
		c.spent += time.Since(start)
		c.mu.Unlock()
	}, nil
}

// ErrDown is returned by every call after the one that reported the server's failure: the
// failure was said once, and need not be said again.
var ErrDown = errors.New("remote cache: not used after an earlier failure")

// fail marks the server down for the rest of the run and reports why, once.
func (c *Client) fail(err error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.down != nil {
		return ErrDown
	}
	c.down = err
	return fmt.Errorf("remote cache %s not used further: %w", c.opts.URL, err)
}

func (c *Client) path(key string) string { return c.opts.URL + "/ac/" + key }

func (c *Client) request(ctx context.Context, method, key string, body []byte) (*http.Request, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.path(key), r)
	if err != nil {
		return nil, fmt.Errorf("remote cache: %w", err)
	}
	if c.opts.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.opts.Token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// wire is an entry as stored on the server.
type wire struct {
	Format string    `json:"format"`
	Key    string    `json:"key"`
	Gate   string    `json:"gate"`
	Run    string    `json:"run"`
	At     time.Time `json:"at"`
	// Sig is the Ed25519 signature of signed(), in standard base64.
	Sig string `json:"sig"`
}

// signed is what the signature covers: the format and every field, each with its length, so
// that no two entries give the same bytes.
func (w wire) signed() []byte {
	var b bytes.Buffer
	for _, field := range []string{w.Format, w.Key, w.Gate, w.Run, w.At.UTC().Format(time.RFC3339Nano)} {
		fmt.Fprintf(&b, "%d:%s;", len(field), field)
	}
	return b.Bytes()
}

func (c *Client) seal(key string, e Entry) ([]byte, error) {
	w := wire{Format: format, Key: key, Gate: e.Gate, Run: e.Run, At: e.At.UTC()}
	w.Sig = base64.StdEncoding.EncodeToString(ed25519.Sign(c.opts.Signer, w.signed()))
	data, err := json.Marshal(w)
	if err != nil {
		return nil, fmt.Errorf("remote cache: %w", err)
	}
	return data, nil
}

// verdict is what open makes of an entry.
type verdict int

const (
	believed verdict = iota
	unverified
	hmacEntry
)

func (i *Ignored) count(why verdict) {
	switch why {
	case hmacEntry:
		i.HMAC++
	case unverified:
		i.Unverified++
	}
}

// open checks an entry read from the server: its format, that it is the entry of this key (not
// another key's copied over), and that one of the trusted keys signed it.
func (c *Client) open(key string, body []byte) (Entry, verdict) {
	if len(body) > maxEntryBytes {
		return Entry{}, unverified
	}
	var w wire
	if json.Unmarshal(body, &w) != nil {
		return Entry{}, unverified
	}
	if w.Format == hmacFormat {
		return Entry{}, hmacEntry
	}
	if w.Format != format || w.Key != key {
		return Entry{}, unverified
	}
	sig, err := base64.StdEncoding.Strict().DecodeString(w.Sig)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return Entry{}, unverified
	}
	msg := w.signed()
	for _, pub := range c.opts.Trusted {
		if ed25519.Verify(pub, msg, sig) {
			return Entry{Gate: w.Gate, Run: w.Run, At: w.At}, believed
		}
	}
	return Entry{}, unverified
}
