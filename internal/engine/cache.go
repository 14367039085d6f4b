package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/cache"
	"github.com/gauntlet-dev/gauntlet/internal/changes"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/internal/treestate"
)

// cached is what the cache said about one run's gates: the passes it answered, and the keys under
// which the gates it did not answer will be remembered if they pass.
type cached struct {
	store   *cache.Store
	results []gates.Result
	keys    map[string]string // gate name -> key
}

// consultCache answers the gates it can from the cache and returns the others, to run. Any
// problem with the cache (no git, an unreadable file) only means the gates run.
func consultCache(ctx context.Context, req Request, sd *state.Dir, toRun []gates.Gate) ([]gates.Gate, *cached, error) {
	c := &cached{keys: map[string]string{}}
	wanted := false
	for _, g := range toRun {
		wanted = wanted || g.Cache
	}
	if !wanted {
		return toRun, c, nil
	}
	tree := req.Tree
	if tree == nil {
		t, err := treestate.Read(ctx, req.Config.Root)
		if errors.Is(err, treestate.ErrNotGit) {
			return toRun, c, nil
		}
		if err != nil {
			return toRun, c, fmt.Errorf("gate cache: %w", err)
		}
		tree = t
	}
	store, err := cache.Open(sd)
	c.store = store
	kc := cache.Context{
		Tree:          tree,
		Session:       req.Session,
		SessionInputs: req.SessionInputs,
		Base:          cmp.Or(req.Scope.Base, req.Config.Base),
		MergeBase: sync.OnceValue(func() string {
			return changes.MergeBase(ctx, req.Config.Root, cmp.Or(req.Scope.Base, req.Config.Base))
		}),
	}
	var rest []gates.Gate
	for _, g := range toRun {
		key, ok, kerr := cache.Key(ctx, g, kc)
		err = errors.Join(err, kerr)
		if !ok || kerr != nil {
			rest = append(rest, g)
			continue
		}
		// --no-cache runs the gate anyway; its outcome still updates the cache.
		if e, hit := store.Lookup(key); hit && !req.NoCache {
			c.results = append(c.results, hitResult(g, e))
			continue
		}
		c.keys[g.Name] = key
		rest = append(rest, g)
	}
	return rest, c, err
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

// remember stores the passes of gates that had a key. Failures are never stored, and a gate
// that did not pass (run with --no-cache, or reading something its key does not name) loses the
// pass stored under the same key: the cache must not hide a failure it has seen.
func (c *cached) remember(runID string, ran []gates.Result) error {
	if c.store == nil || len(c.keys) == 0 {
		return nil
	}
	now := time.Now()
	for _, r := range ran {
		key, ok := c.keys[r.Name]
		switch {
		case !ok:
		case r.Status == gates.StatusPass:
			c.store.Put(key, cache.Entry{Gate: r.Name, Run: runID, At: now})
		case r.Status == gates.StatusFail || r.Status == gates.StatusWarn:
			c.store.Delete(key)
		}
	}
	return c.store.Save()
}
