package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// A gate the change added starts once the base's gates are done (Gate.AfterBase), so it cannot
// change what they read while they run. What it does to the tree is checked too: a gate that
// stashes the change, resets it or rewrites it changes what the stop judged, and one that puts
// it all back before it ends still leaves each file it touched another identity (inode, change
// time), which no one can set back. The change's gates are the change's: `writes: true` on one
// is the change's word, so it excuses nothing here. Ignored files (build output, caches) are the
// tools' own.

// addedWatch reads the tree's identities once the base's gates are done, and again once the
// added gates are; it is nil when no added gate runs.
type addedWatch struct {
	read   func() (snapshot.Identities, error)
	before snapshot.Identities
	ok     bool
}

func newAddedWatch(ctx context.Context, e *execution) *addedWatch {
	if !slices.ContainsFunc(e.toRun, func(g gates.Gate) bool { return g.AfterBase }) {
		return nil
	}
	return &addedWatch{read: func() (snapshot.Identities, error) {
		t, err := NewSnapshot(e.cfg, e.req.Scope).Tree(ctx)
		if err != nil {
			return snapshot.Identities{}, err
		}
		return t.Identities(ctx)
	}}
}

// baseDoneFunc is the runner's BaseDone: it reads the tree the base's gates judged (nil when no
// added gate runs).
func (w *addedWatch) baseDoneFunc() func() {
	if w == nil {
		return nil
	}
	return func() { w.before, w.ok = w.readOK() }
}

func (w *addedWatch) readOK() (snapshot.Identities, bool) {
	ids, err := w.read()
	return ids, err == nil
}

// finding is the attempt the added gates made on the tree (ok false: none was seen), naming the
// added gates that ran and the files whose identity changed while they did.
func (w *addedWatch) finding(ran []gates.Result, byName map[string]gates.Gate, configFile string) (gates.IntegrityFinding, bool) {
	if w == nil || !w.ok {
		return gates.IntegrityFinding{}, false
	}
	after, ok := w.readOK()
	if !ok {
		return gates.IntegrityFinding{}, false
	}
	changed := w.before.Changed(after)
	if len(changed) == 0 {
		return gates.IntegrityFinding{}, false
	}
	var names []string
	for _, r := range ran {
		if byName[r.Name].AfterBase && !r.Started.IsZero() {
			names = append(names, r.Name)
		}
	}
	return gates.IntegrityFinding{Rule: gates.RuleGateAltered, File: configFile, Level: gates.IntegrityBlock,
		Message: fmt.Sprintf("the gate %s the change added changed the files the base's gates judged while it ran (%s), even if it put them back: "+
			"a gate the change adds must leave the tracked and untracked files as it found them (it may write ignored build output)",
			strings.Join(names, ", "), termtext.Short(strings.Join(changed, ", "), 300))}, true
}
