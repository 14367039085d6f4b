// Package remotecache shares gate passes between machines through a server that speaks the HTTP
// protocol of the Bazel remote cache (GET and PUT of BASE/ac/KEY), as bazel-remote, nginx with
// WebDAV and S3-compatible gateways do. Every entry is signed with a secret the server never
// needs, so a reader believes only what a holder of the secret wrote; and the whole conversation
// of a run is bounded by one budget, so a slow or failing server costs at most that, never the
// verdict.
package remotecache

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
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
	URL   string
	Write bool
	// Secret signs and checks entries; a Client is never made without one.
	Secret []byte
	// Token, when set, is sent as a bearer token.
	Token string
	// Budget is the most all of a Client's calls may take together.
	Budget time.Duration
	// HTTP is the client to use; nil means a plain one.
	HTTP *http.Client
}

// ErrNoSecret means the variable that holds the signing secret is empty.
var ErrNoSecret = errors.New("no signing secret")

// maxEntryBytes bounds what a GET may read: an entry is a few hundred bytes.
const maxEntryBytes = 64 << 10

// format names the wire format and is part of what is signed, so that an entry of another format
// can never be read as this one.
const format = "gauntlet-remote-cache-1"

// keyPattern is what a key must look like to become part of a URL: the local cache's keys are
// SHA-256 hex digests, which is also what Bazel's action cache expects.
var keyPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

// Client talks to one remote cache for one run. It is safe for concurrent use.
type Client struct {
	opts Options
	http *http.Client

	mu       sync.Mutex
	deadline time.Time // set at the first call: the budget runs from there
	down     error     // once the server failed, no more calls this run
	forged   []string  // gates whose entry failed its signature check
}

// New returns a Client, or ErrNoSecret when there is no secret to check entries with.
func New(opts Options) (*Client, error) {
	if len(opts.Secret) == 0 {
		return nil, ErrNoSecret
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

// Writes says whether passes are stored on the server.
func (c *Client) Writes() bool { return c.opts.Write }

// Get returns the entry stored under key, if the server has one and its signature holds. A
// server that fails or is slow makes this and every later call a miss; the error says why once.
func (c *Client) Get(ctx context.Context, key string) (Entry, bool, error) {
	ctx, cancel, err := c.call(ctx, key)
	if err != nil {
		return Entry{}, false, err
	}
	defer cancel()
	req, err := c.request(ctx, http.MethodGet, key, nil)
	if err != nil {
		return Entry{}, false, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return Entry{}, false, c.fail(err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return Entry{}, false, nil
	case resp.StatusCode != http.StatusOK:
		return Entry{}, false, c.fail(fmt.Errorf("GET %s: %s", c.path(key), resp.Status))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxEntryBytes+1))
	if err != nil {
		return Entry{}, false, c.fail(err)
	}
	e, ok := c.open(key, body)
	if !ok {
		c.mu.Lock()
		c.forged = append(c.forged, key)
		c.mu.Unlock()
		return Entry{}, false, nil
	}
	return e, true, nil
}

// Put stores a pass under key when the client writes; otherwise it does nothing.
func (c *Client) Put(ctx context.Context, key string, e Entry) error {
	if !c.opts.Write {
		return nil
	}
	ctx, cancel, err := c.call(ctx, key)
	if err != nil {
		return err
	}
	defer cancel()
	body, err := c.seal(key, e)
	if err != nil {
		return err
	}
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

// Forged is how many entries the server returned whose signature did not hold.
func (c *Client) Forged() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.forged)
}

// call checks the key and the server's state, and bounds the call by what is left of the budget.
func (c *Client) call(ctx context.Context, key string) (context.Context, context.CancelFunc, error) {
	if !keyPattern.MatchString(key) {
		return nil, nil, fmt.Errorf("remote cache: key %q is not a SHA-256 hex digest", key)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.down != nil {
		return nil, nil, ErrDown
	}
	if c.deadline.IsZero() {
		c.deadline = time.Now().Add(c.opts.Budget)
	}
	if !time.Now().Before(c.deadline) {
		c.down = errors.New("its time budget is spent")
		return nil, nil, fmt.Errorf("remote cache not used further: %w", c.down)
	}
	ctx, cancel := context.WithDeadline(ctx, c.deadline)
	return ctx, cancel, nil
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
	MAC    string    `json:"mac"`
}

func (c *Client) mac(w wire) string {
	m := hmac.New(sha256.New, c.opts.Secret)
	for _, field := range []string{w.Format, w.Key, w.Gate, w.Run, w.At.UTC().Format(time.RFC3339Nano)} {
		fmt.Fprintf(m, "%d:%s;", len(field), field)
	}
	return hex.EncodeToString(m.Sum(nil))
}

func (c *Client) seal(key string, e Entry) ([]byte, error) {
	w := wire{Format: format, Key: key, Gate: e.Gate, Run: e.Run, At: e.At.UTC()}
	w.MAC = c.mac(w)
	data, err := json.Marshal(w)
	if err != nil {
		return nil, fmt.Errorf("remote cache: %w", err)
	}
	return data, nil
}

// open checks an entry read from the server: its format, that it is the entry of this key (not
// another key's copied over), and its signature.
func (c *Client) open(key string, body []byte) (Entry, bool) {
	if len(body) > maxEntryBytes {
		return Entry{}, false
	}
	var w wire
	if json.Unmarshal(body, &w) != nil || w.Format != format || w.Key != key {
		return Entry{}, false
	}
	if !hmac.Equal([]byte(c.mac(w)), []byte(w.MAC)) {
		return Entry{}, false
	}
	return Entry{Gate: w.Gate, Run: w.Run, At: w.At}, true
}
