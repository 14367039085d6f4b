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
// tools' own. A file outside the change that an added gate rewrites with the bytes it had (a
// generator run again before `git diff --exit-code`, `npm install` writing the same lockfile)
// changed nothing the base's gates judged, and git says so: it is not named.

// addedWatch reads the tree's identities once the base's gates are done, and again once the
// added gates are, from the run's one reading of the tree after its gates (after); it is nil when
// no added gate runs.
type addedWatch struct {
	base   func() (*snapshot.Tree, error)
	after  func() (*snapshot.Tree, error)
	before snapshot.Identities
	// judged is the tree the base's gates found, when the run read it before its gates (nil:
	// every changed identity is named).
	judged *snapshot.Tree
	ok     bool
}

func newAddedWatch(ctx context.Context, e *execution) *addedWatch {
	if !slices.ContainsFunc(e.toRun, func(g gates.Gate) bool { return g.AfterBase }) {
		return nil
	}
	w := &addedWatch{after: e.treeAfterRun(ctx), base: func() (*snapshot.Tree, error) {
		return NewSnapshot(e.cfg, e.req.Scope).Tree(ctx)
	}}
	if e.before != nil {
		w.judged = e.before.tree
	}
	return w
}

// baseDoneFunc is the runner's BaseDone: it reads the tree the base's gates judged (nil when no
// added gate runs).
func (w *addedWatch) baseDoneFunc(ctx context.Context) func() {
	if w == nil {
		return nil
	}
	return func() {
		_, ids, err := identities(ctx, w.base)
		w.before, w.ok = ids, err == nil
	}
}

// identities reads the tree with read, and its files' identities now.
func identities(ctx context.Context, read func() (*snapshot.Tree, error)) (*snapshot.Tree, snapshot.Identities, error) {
	t, err := read()
	if err != nil {
		return nil, snapshot.Identities{}, err
	}
	ids, err := t.Identities(ctx)
	return t, ids, err
}

// finding is the attempt the added gates made on the tree (ok false: none was seen), naming the
// added gates that ran and the files whose identity changed while they did.
func (w *addedWatch) finding(ctx context.Context, ran []gates.Result, byName map[string]gates.Gate, configFile string) (gates.IntegrityFinding, bool) {
	if w == nil || !w.ok {
		return gates.IntegrityFinding{}, false
	}
	names := addedRan(ran, byName)
	tree, after, err := identities(ctx, w.after)
	switch {
	case err != nil && ctx.Err() != nil:
		return gates.IntegrityFinding{}, false // the run was stopped: nothing is judged
	case err != nil:
		// The tree was read before the added gates ran: one that leaves it unreadable (a
		// corrupt index) would hide whatever else it did to it.
		return gates.IntegrityFinding{Rule: gates.RuleGateAltered, File: configFile, Level: gates.IntegrityBlock,
			Message: fmt.Sprintf("the tree could not be read after the gate %s the change added ran (%s), though it could before: "+
				"what it did to the files the base's gates judged cannot be checked", strings.Join(names, ", "), termtext.Short(err.Error(), 300))}, true
	}
	changed := slices.DeleteFunc(w.before.Changed(after), func(p string) bool { return w.rewrittenAlike(ctx, tree, p) })
	if len(changed) == 0 {
		return gates.IntegrityFinding{}, false
	}
	return gates.IntegrityFinding{Rule: gates.RuleGateAltered, File: configFile, Level: gates.IntegrityBlock,
		Message: fmt.Sprintf("the gate %s the change added changed the files the base's gates judged while it ran (%s), even if it put them back: "+
			"a gate the change adds must leave the tracked and untracked files as it found them (it may write ignored build output)",
			strings.Join(names, ", "), termtext.Short(strings.Join(changed, ", "), 300))}, true
}

// addedRan names the gates the change added that started.
func addedRan(ran []gates.Result, byName map[string]gates.Gate) []string {
	var names []string
	for _, r := range ran {
		if byName[r.Name].AfterBase && !r.Started.IsZero() {
			names = append(names, r.Name)
		}
	}
	return names
}

// rewrittenAlike says whether path, whose identity changed, is a file outside the change that
// holds what it held: git found it no different from the index and HEAD both before the gates ran
// and now (HEAD unchanged is checked apart), and git is not told to look away from it. The
// change's own files are named however they were put back: stashing them and popping them back
// is how a gate hides the change, and nothing honest needs it.
func (w *addedWatch) rewrittenAlike(ctx context.Context, after *snapshot.Tree, path string) bool {
	if w.judged == nil || path == "HEAD" {
		return false
	}
	if _, inChange := w.judged.Lookup(path); inChange {
		return false
	}
	if _, changedNow := after.Lookup(path); changedNow {
		return false
	}
	index, err := after.Index(ctx)
	if err != nil {
		return false
	}
	// The index is in git's order, the paths' bytes: one search per changed file, not a scan.
	i, found := slices.BinarySearchFunc(index, path, func(e snapshot.IndexEntry, p string) int { return strings.Compare(e.Path, p) })
	return found && !index[i].Hidden
}
