package engine

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/cache"
	"github.com/gauntlet-dev/gauntlet/internal/envid"
	"github.com/gauntlet-dev/gauntlet/internal/remotecache"
	"github.com/gauntlet-dev/gauntlet/internal/seal"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/internal/toolid"
)

// cached is what the cache said about one run's gates: the passes it answered, and the keys under
// which the gates it did not answer will be remembered if they pass.
type cached struct {
	store   *cache.Store
	release func()              // what the store holds, released once the run is remembered
	remote  *remotecache.Client // nil without a usable remote cache
	local   map[string]bool     // setup steps: never asked of, nor stored on, the remote cache
	results []gates.Result
	keys    map[string]string // gate name -> key, as every machine computes it (the remote cache's)
	gates   map[string]gates.Gate
	kc      cache.Context
	// localEnv is the identity of this machine's environment, PATH included: a pass kept on this
	// machine answers only in the environment that reached it (see envid).
	localEnv string
}

// localKey is the key a pass is kept under on this machine: key in this environment.
func (c *cached) localKey(key string) string { return cache.LocalKey(key, c.localEnv) }

// consultCache answers the gates it can from the cache and returns the others, to run. Any
// problem with the cache (no git, an unreadable file) only means the gates run.
func consultCache(ctx context.Context, req Request, snap *snapshot.Snapshot, sd *state.Dir, toRun []gates.Gate) ([]gates.Gate, *cached, error) {
	c := &cached{keys: map[string]string{}, local: map[string]bool{}, gates: map[string]gates.Gate{}}
	if !slices.ContainsFunc(toRun, func(g gates.Gate) bool { return g.Cache }) {
		return toRun, c, nil
	}
	tree, err := snap.Tree(ctx)
	if errors.Is(err, snapshot.ErrNotGit) {
		return toRun, c, nil
	}
	if err != nil {
		return toRun, c, fmt.Errorf("gate cache: %w", err)
	}
	err = c.open(ctx, req, snap, sd)
	c.kc, c.localEnv = keyContext(ctx, req, snap, tree)
	hits := map[string]hit{}
	for _, g := range toRun {
		h, found, lerr := c.lookup(ctx, g, req.NoCache)
		err = errors.Join(err, lerr)
		if found {
			hits[g.Name] = h
		}
	}
	rerunAfterNeeds(toRun, hits, c.keys)
	return c.answer(toRun, hits), c, err
}

// open opens the project's store and the remote cache; the error says what of them cannot be
// used, and that no pass is answered without the user's key.
func (c *cached) open(ctx context.Context, req Request, snap *snapshot.Snapshot, sd *state.Dir) error {
	store, release, err := cache.OpenForProject(req.Config.Root, sd)
	c.store, c.release = store, release
	if _, kerr := seal.Load(); kerr != nil {
		// Said, or the cache would look broken: without the key no pass can be trusted.
		err = errors.Join(err, fmt.Errorf("gate cache: no pass is answered: %w", kerr))
	}
	remote, rerr := openRemote(ctx, req, snap)
	c.remote = remote
	return errors.Join(err, rerr)
}

// keyContext is what the gates' keys are computed from, and the identity of this machine's
// environment that local keys add.
func keyContext(ctx context.Context, req Request, snap *snapshot.Snapshot, tree *snapshot.Tree) (kc cache.Context, localEnv string) {
	kc = cache.Context{
		Tree:          tree,
		Session:       req.Session,
		SessionInputs: req.SessionInputs,
		Base:          snap.BaseRef(),
		MergeBase:     mergeBaseOf(ctx, snap),
		Worktree:      req.Config.Root,
		Env:           req.Env,
		Tools:         req.Tools,
	}
	if kc.Tools == nil {
		kc.Tools = toolid.New()
	}
	if kc.Env == nil {
		kc.Env = os.Environ()
	}
	steering := envid.Steering(kc.Env, req.Config.Root)
	kc.Environment = envid.Portable(steering)
	return kc, envid.Local(steering)
}

// mergeBaseOf reads the change's merge base when a key first needs it; "" when there is none.
func mergeBaseOf(ctx context.Context, snap *snapshot.Snapshot) func() string {
	return func() string {
		if base, err := snap.Base(ctx); err == nil {
			return base.MergeBase
		}
		return ""
	}
}

// lookup keys g and finds its pass: on this machine, else (not for a setup step) on the remote
// cache, keeping it locally too. --no-cache finds none; the gate's outcome still updates the cache.
func (c *cached) lookup(ctx context.Context, g gates.Gate, noCache bool) (hit, bool, error) {
	key, ok, err := cache.Key(ctx, g, c.kc)
	if !ok || err != nil {
		return hit{}, false, err
	}
	c.keys[g.Name] = key
	c.gates[g.Name] = g
	if e, found := c.store.Lookup(c.localKey(key)); found && !noCache {
		return hit{entry: e}, true, nil
	}
	if g.Setup {
		// What a setup step leaves behind is on this machine: another's pass says nothing.
		c.local[g.Name] = true
		return hit{}, false, nil
	}
	e, found, rerr := c.lookupRemote(ctx, key, noCache)
	if found {
		// Kept locally too: the next run on this machine needs no server.
		entry := cache.Entry{Gate: e.Gate, Run: e.Run, At: e.At}
		c.store.Put(c.localKey(key), entry)
		return hit{entry: entry, remote: true}, true, nil
	}
	if rerr != nil && !errors.Is(rerr, remotecache.ErrDown) {
		return hit{}, false, rerr
	}
	return hit{}, false, nil
}

// answer keeps the hits' passes as the run's results and returns the gates left to run.
func (c *cached) answer(toRun []gates.Gate, hits map[string]hit) []gates.Gate {
	var rest []gates.Gate
	for _, g := range toRun {
		h, found := hits[g.Name]
		if !found {
			rest = append(rest, g)
			continue
		}
		res := hitResult(g, h.entry)
		if h.remote {
			res.Reason += " (remote cache)"
		}
		c.results = append(c.results, res)
	}
	return rest
}

// hit is a pass the cache holds for a gate of this run.
type hit struct {
	entry  cache.Entry
	remote bool // found on the remote cache
}

// rerunAfterNeeds drops the hits of gates that need a gate which runs this time: a need that
// runs again may leave behind something else than what the cached pass was judged on (a new
// build, other generated code), and when it fails the gate must be skipped, not passed. A setup
// step counts only when its inputs changed since it last passed (it has a key and no hit): one
// the cache does not keep runs only for the gates that run anyway.
func rerunAfterNeeds(toRun []gates.Gate, hits map[string]hit, keys map[string]string) {
	runs := map[string]bool{}
	for _, g := range toRun {
		_, hit := hits[g.Name]
		_, keyed := keys[g.Name]
		if !hit && (!g.Setup || keyed) {
			runs[g.Name] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, g := range toRun {
			if runs[g.Name] || g.Setup || !slices.ContainsFunc(g.Needs, func(n string) bool { return runs[n] }) {
				continue
			}
			delete(hits, g.Name)
			runs[g.Name], changed = true, true
		}
	}
}

func hitResult(g gates.Gate, e cache.Entry) gates.Result {
	return gates.Result{
		Name:     g.Name,
		Kind:     g.Kind,
		Status:   gates.StatusPass,
		ExitCode: 0,
		Reason:   fmt.Sprintf("cached: passed in run %s with the same inputs", e.Run),
		Hint:     g.Hint,
		Command:  g.Command(),
		Started:  time.Now(),
		Cached:   true,
	}
}

// remember stores the passes of gates that had a key, but only those judged on the state their
// key names: the tree is read again after the gates ran, and a gate whose key differs now (the
// tree or its tools changed while it ran, by the gate itself or by anybody else) has no state its
// pass is known to be about, so nothing is stored for it. Failures are never stored, and a gate
// that did not pass (run with --no-cache, or reading something its key does not name) loses the
// pass stored under the same key: the cache must not hide a failure it has seen. The tree read
// after the run is the run's one reading after its gates (readAfter).
func (c *cached) remember(ctx context.Context, runID string, ran []gates.Result, readAfter func() (*snapshot.Tree, error)) error {
	if c.release != nil {
		defer c.release()
	}
	if c.store == nil || len(c.keys) == 0 {
		return nil
	}
	m := &remembering{c: c, runID: runID, now: time.Now(), readAfter: readAfter}
	for _, r := range ran {
		if !m.keep(ctx, r) {
			return errors.Join(m.keyErr, c.store.Save(), m.remoteErr, c.ignoredRemoteNote())
		}
	}
	if errors.Is(m.remoteErr, remotecache.ErrDown) {
		m.remoteErr = nil // said once already
	}
	return errors.Join(m.keyErr, c.store.Save(), m.remoteErr, c.ignoredRemoteNote())
}

// remembering is one run's results being remembered.
type remembering struct {
	c         *cached
	runID     string
	now       time.Time
	readAfter func() (*snapshot.Tree, error)
	after     *snapshot.Tree
	keyErr    error
	remoteErr error
}

// keep stores a pass, drops the pass of a gate that failed or warned; false when the tree after
// the run cannot be read, and nothing more can be stored.
func (m *remembering) keep(ctx context.Context, r gates.Result) bool {
	key, ok := m.c.keys[r.Name]
	switch {
	case !ok:
	case r.Status == gates.StatusPass:
		return m.keepPass(ctx, r.Name, key)
	case r.Status == gates.StatusFail || r.Status == gates.StatusWarn:
		m.c.store.Delete(m.c.localKey(key))
	}
	return true
}

// keepPass stores the pass of gate when its key is still key on the tree after the run.
func (m *remembering) keepPass(ctx context.Context, gate, key string) bool {
	if !m.readTree(ctx) {
		return false
	}
	again, ok, err := cache.Key(ctx, m.c.gates[gate], m.c.kc)
	m.keyErr = errors.Join(m.keyErr, err)
	if !ok || err != nil || again != key {
		return true
	}
	m.c.store.Put(m.c.localKey(key), cache.Entry{Gate: gate, Run: m.runID, At: m.now})
	if m.c.remote != nil && m.remoteErr == nil && !m.c.local[gate] {
		m.remoteErr = m.c.remote.Put(ctx, key, remotecache.Entry{Gate: gate, Run: m.runID, At: m.now})
	}
	return true
}

// readTree reads the tree after the run once, for the keys; false when it cannot be read.
func (m *remembering) readTree(ctx context.Context) bool {
	if m.after != nil {
		return true
	}
	t, err := m.readAfter()
	if err != nil {
		if ctx.Err() == nil { // stopped: nothing is stored, and nothing is wrong
			m.keyErr = fmt.Errorf("gate cache: read the tree after the run: %w", err)
		}
		return false
	}
	m.after = t
	m.c.kc.Tree = t
	return true
}

// openRemote makes the run's remote cache client, or nil when there is none to use. Beside it,
// a note: why the remote cache is not used, or why it only reads although the config says write.
func openRemote(ctx context.Context, req Request, snap *snapshot.Snapshot) (*remotecache.Client, error) {
	rc := req.Config.RemoteCache
	if rc == nil {
		return nil, nil
	}
	env := req.Env
	if env == nil {
		env = os.Environ()
	}
	texts, keysNote, err := trustedKeys(ctx, req.Config, snap)
	if err != nil {
		return nil, err
	}
	trusted, err := publicKeys(texts)
	if err != nil {
		return nil, fmt.Errorf("remote cache not used: %w", err)
	}
	signer, note := signerFor(req, lookupEnv(env, remotecache.SigningKeyEnv))
	opts := remotecache.Options{URL: rc.URL, Trusted: trusted, Signer: signer, Token: lookupEnv(env, rc.TokenEnv), Budget: rc.Timeout}
	c, err := remotecache.New(opts)
	if errors.Is(err, remotecache.ErrUntrustedSigner) {
		note = fmt.Errorf("remote cache: read only: $%s is not the private key of any public key trusted in this run: nobody would believe what it signed", remotecache.SigningKeyEnv)
		opts.Signer = nil
		c, err = remotecache.New(opts)
	}
	if err != nil {
		return nil, fmt.Errorf("remote cache not used: %w", err)
	}
	return c, errors.Join(keysNote, note)
}

// signerFor is the key this run signs entries with, nil when it only reads; the note says why it
// only reads although the config says write. The stop hook never writes: it judges the agent's
// work, and a pass it stored would answer for every machine. The key's value is never quoted.
func signerFor(req Request, key string) (ed25519.PrivateKey, error) {
	switch {
	case !req.Config.RemoteCache.Write:
		return nil, nil
	case req.StopHook:
		return nil, errors.New("remote cache: cache.remote.write set aside: the stop hook never stores passes on the server, only CI's runs do")
	case key == "":
		return nil, fmt.Errorf("remote cache: read only: cache.remote.write is true, but $%s, the private key that signs entries, is not set", remotecache.SigningKeyEnv)
	}
	signer, err := remotecache.ParsePrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("remote cache: read only: $%s %w", remotecache.SigningKeyEnv, err)
	}
	return signer, nil
}

// publicKeys reads the config's public keys; the loader has checked them already.
func publicKeys(texts []string) ([]ed25519.PublicKey, error) {
	keys := make([]ed25519.PublicKey, 0, len(texts))
	for _, text := range texts {
		pub, err := remotecache.ParsePublicKey(text)
		if err != nil {
			return nil, fmt.Errorf("public key %q %w", text, err)
		}
		keys = append(keys, pub)
	}
	return keys, nil
}

// lookupRemote asks the remote cache after a local miss; --no-cache asks nothing.
func (c *cached) lookupRemote(ctx context.Context, key string, noCache bool) (remotecache.Entry, bool, error) {
	if c.remote == nil || noCache {
		return remotecache.Entry{}, false, nil
	}
	return c.remote.Get(ctx, key)
}

// ignoredRemoteNote says, once per run, how many remote entries were not believed, and why.
func (c *cached) ignoredRemoteNote() error {
	if c.remote == nil {
		return nil
	}
	return ignoredNote(c.remote.Ignored())
}

// ignoredNote says how many entries were not believed, for each reason; nil when none was.
func ignoredNote(ig remotecache.Ignored) error {
	var parts []string
	if ig.Unverified > 0 {
		parts = append(parts, entries(ig.Unverified)+" whose signature did not hold (forged, edited, or signed by a key cache.remote.public_keys does not list)")
	}
	if ig.HMAC > 0 {
		parts = append(parts, entries(ig.HMAC)+" signed with the retired shared secret (HMAC); the next run that writes with $"+remotecache.SigningKeyEnv+" replaces it")
	}
	if len(parts) == 0 {
		return nil
	}
	return errors.New("remote cache: ignored " + strings.Join(parts, "; "))
}

func entries(n int) string {
	if n == 1 {
		return "1 entry"
	}
	return fmt.Sprintf("%d entries", n)
}

// lookupEnv is the last value of name in env, as exec does; "" for an empty name.
func lookupEnv(env []string, name string) string {
	if name == "" {
		return ""
	}
	value := ""
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			value = v
		}
	}
	return value
}
