package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// A check that rewrites the agent's code (a formatter without --check, `biome lint --write`
// hidden in a package script) would pass while changing what it judged. So the worktree is read
// before and after the gates run, and a gate that changed a file git sees (tracked, or untracked
// and not ignored) fails naming the files, unless it says writes: true. Ignored files (build
// output, caches, node_modules) are the tools' own.
//
// Gates run in parallel, so a change is attributed by the file's modification time to the gates
// that were running then; a change with no usable time (a deleted file, a tool that keeps the old
// time) goes to every gate that ran. Attribution is conservative in the agent's favour of
// safety: an innocent gate running beside a writer can be named with it, a writer is never
// missed. Setup steps and gates with writes: true may write.

// treeBefore is the worktree as the gates will find it: its status, and the digest of every file
// that differs from the index, taken now, before any gate can change it.
type treeBefore struct {
	tree    *snapshot.Tree
	digests map[string][]byte
}

// maxWatchedFiles bounds the files hashed before the run: a tree with more changed files than
// this is not watched (the cost would grow with the agent's change, for a rare failure).
const maxWatchedFiles = 2000

func readTreeBefore(ctx context.Context, snap *snapshot.Snapshot) *treeBefore {
	if snap == nil {
		return nil
	}
	t, err := snap.Tree(ctx)
	if err != nil || len(t.Entries) > maxWatchedFiles {
		return nil
	}
	b := &treeBefore{tree: t, digests: map[string][]byte{}}
	for _, e := range t.Entries {
		if !e.Worktree {
			continue
		}
		d, err := t.FileDigest(ctx, e.Path)
		if err != nil {
			return nil
		}
		b.digests[e.Path] = d
	}
	return b
}

// changedSince lists the paths whose status or content differs from before, sorted. The second
// look is the run's one reading of the tree after its gates (read, the first time, by after),
// which the cache shares; an untracked directory there is listed file by file, as before, and a
// directory listed whole (a nested repository) has the files known in it before compared by
// content.
func (b *treeBefore) changedSince(ctx context.Context, readAfter func() (*snapshot.Tree, error)) []string {
	after, err := readAfter()
	if err != nil {
		return nil
	}
	var changed []string
	seen := map[string]bool{}
	for _, e := range after.Entries {
		if e.Untracked && strings.HasSuffix(e.Path, "/") {
			changed = append(changed, b.changedIn(ctx, after, e.Path, seen)...)
			continue
		}
		seen[e.Path] = true
		if b.entryChanged(ctx, after, e) {
			changed = append(changed, e.Path)
		}
	}
	for _, e := range b.tree.Entries {
		if !seen[e.Path] { // restored to the index's content, or deleted while untracked
			changed = append(changed, e.Path)
		}
	}
	slices.Sort(changed)
	return slices.Compact(changed)
}

// changedIn lists what changed in a directory listed whole after the gates: the files known in
// it before whose content differs (marked seen), or the directory itself when none was known.
func (b *treeBefore) changedIn(ctx context.Context, after *snapshot.Tree, dir string, seen map[string]bool) []string {
	var changed []string
	known := false
	for _, old := range b.tree.Entries {
		if !strings.HasPrefix(old.Path, dir) {
			continue
		}
		known, seen[old.Path] = true, true
		if b.contentChanged(ctx, after, old.Path) {
			changed = append(changed, old.Path)
		}
	}
	if !known {
		changed = append(changed, dir)
	}
	return changed
}

// entryChanged says whether e differs from before: new, another status, or, in the worktree,
// another content.
func (b *treeBefore) entryChanged(ctx context.Context, after *snapshot.Tree, e snapshot.Entry) bool {
	old, ok := b.tree.Lookup(e.Path)
	switch {
	case !ok || old.Meta != e.Meta || old.Untracked != e.Untracked:
		return true
	case e.Worktree:
		return b.contentChanged(ctx, after, e.Path)
	}
	return false
}

// contentChanged says whether path's content after the gates differs from before; a file that
// cannot be read is not blamed.
func (b *treeBefore) contentChanged(ctx context.Context, after *snapshot.Tree, path string) bool {
	d, err := after.FileDigest(ctx, path)
	return err == nil && !bytes.Equal(d, b.digests[path])
}

// mtimeSlack widens a gate's window for a file's modification time: clocks of filesystems and
// the process differ by their granularity.
const mtimeSlack = 50 * time.Millisecond

// blameWrites fails the gates that changed the worktree, naming the files in each result.
func blameWrites(root string, changed []string, results []gates.Result, byName map[string]gates.Gate) []gates.Result {
	if len(changed) == 0 {
		return results
	}
	blamed := map[string][]string{}
	for _, path := range changed {
		for _, s := range suspectsOf(root, path, results, byName) {
			blamed[s] = append(blamed[s], path)
		}
	}
	for i, r := range results {
		if files := blamed[r.Name]; len(files) > 0 {
			results[i] = blamedFor(r, files)
		}
	}
	return results
}

// suspectsOf names the gates that may have written path: those running when it was modified, or,
// when none was and no gate that may write was either, every gate the check judges.
func suspectsOf(root, path string, results []gates.Result, byName map[string]gates.Gate) []string {
	var suspects []string
	if info, err := os.Lstat(filepath.Join(root, filepath.FromSlash(path))); err == nil {
		at := info.ModTime()
		for _, r := range results {
			if blameable(r, byName) && ranAt(r, at) {
				suspects = append(suspects, r.Name)
			}
		}
		if len(suspects) == 0 && writerRan(results, byName, at) {
			return nil // written while a gate that may write was running
		}
	}
	if len(suspects) == 0 {
		for _, r := range results {
			if blameable(r, byName) {
				suspects = append(suspects, r.Name)
			}
		}
	}
	return suspects
}

// ranAt says whether r was running at t, give or take the clocks' granularity.
func ranAt(r gates.Result, t time.Time) bool {
	return !t.Before(r.Started.Add(-mtimeSlack)) && !t.After(r.Started.Add(r.Duration+mtimeSlack))
}

// blamedFor is r failed for writing files.
func blamedFor(r gates.Result, files []string) gates.Result {
	r.Changed = files
	note := fmt.Sprintf("changed the worktree (%s): a check must not write files; give it writes: true if it is meant to", termtext.Short(strings.Join(files, ", "), 300))
	switch r.Status {
	case gates.StatusPass, gates.StatusWarn:
		r.Status, r.Reason = gates.StatusFail, note
	default:
		r.Reason = strings.TrimSuffix(r.Reason+"; "+note, "; ")
		if r.Status == gates.StatusError {
			r.Status = gates.StatusFail // the writing is the gate's own doing
		}
	}
	return r
}

// blameable says whether the check for writes judges r: a check gate that ran, and may not write
// (no writes: true, no setup step; a cached pass ran nothing).
func blameable(r gates.Result, byName map[string]gates.Gate) bool {
	g, ok := byName[r.Name]
	return ok && !r.Cached && !r.Setup && !g.Setup && !g.Writes && (g.Kind == gates.KindCheck || g.Kind == "") &&
		r.Status != gates.StatusSkipped && !r.Started.IsZero()
}

// mayBecomeFailure says whether the check for writes can still change r's status: it turns a
// pass, a warning or an error of a gate it judges into a failure, and only adds to a reason
// otherwise.
func mayBecomeFailure(r gates.Result, byName map[string]gates.Gate) bool {
	switch r.Status {
	case gates.StatusPass, gates.StatusWarn, gates.StatusError:
		return blameable(r, byName)
	}
	return false
}

// writerRan reports whether a setup step or a writes: true gate was running at t.
func writerRan(results []gates.Result, byName map[string]gates.Gate, t time.Time) bool {
	for _, r := range results {
		g := byName[r.Name]
		if (r.Setup || g.Setup || g.Writes) && !r.Started.IsZero() && ranAt(r, t) {
			return true
		}
	}
	return false
}
