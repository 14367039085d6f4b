// Package engine is the one pipeline behind every entry point: select the gates for this change,
// take the lock, run them, record the result. `run` and `stop-hook` differ only around it.
package engine

import (
	"cmp"
	"context"
	"fmt"
	"github.com/gauntlet-dev/gauntlet/internal/suggest"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/filesarg"
	"github.com/gauntlet-dev/gauntlet/internal/shard"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

// Selection says which gates run and why the others do not.
type Selection struct {
	Run     []gates.Gate
	Skipped map[string]string      // gate name -> why it is skipped
	Reasons map[string]string      // gate name -> why it runs, for `gauntlet list`
	Order   []string               // every reported gate, in config order
	Changes *snapshot.ChangedFiles // nil when no gate needed change scoping
	// Setup are the setup steps the gates of Run need, in config order; NeededBy names those
	// gates for each.
	Setup    []gates.Gate
	NeededBy map[string][]string
	// WithPaths and WithoutPaths count the gates that may run here (enabled, their when: met) by
	// whether change scoping applies to them: only gates with paths are scoped, the others run
	// on every call.
	WithPaths, WithoutPaths int
	// All says the run took every file, not the change's, for its {files} gates: --all, gates
	// named on the command line, or AllBecause.
	All bool
	// AllBecause says why the run took every gate and every file although neither --all nor a
	// gate name asked for it: nothing changed against the base, or a CI push that has nothing to
	// compare with. "" otherwise.
	AllBecause string
	// ScopedTo says what a CI build's change was measured from when the CI named it and the run
	// scoped to it ("the pushed range since 1a2b3c4d5e6f"); "" otherwise.
	ScopedTo string
}

// Scope is what narrows a run down from the whole config.
type Scope struct {
	Names []string // run only these gates; change scoping does not apply to them
	All   bool     // ignore `paths`
	Base  string   // overrides the config's base ref
	// Pinned is the commit an agent session is measured from (internal/session): it wins over
	// Base and the config's base, and no ref is read to find it.
	Pinned string
	CI     bool // the run counts as CI for `when`
	Shard  Shard
	Sticky []string // gates kept in scope whatever the change says (the stop hook's unfixed failures)
	// Timings are the gates' durations from earlier runs, which balance the shards.
	Timings shard.Timings
	// AllWhenUnchanged makes a run with nothing changed against its base take every gate and
	// every file, as --all does: there is no change to scope to, and a pass of nothing would hide
	// a failing test (`run`, `list`). The stop hook leaves it off: a session's scoping has its
	// own rules.
	AllWhenUnchanged bool
	// Pushed is the commit a CI push started from (internal/cipush): without Base and Pinned, the
	// change is the pushed range, whatever the config's base. A commit this clone does not hold
	// leaves nothing to compare with: every gate runs, saying why.
	Pushed string
	// PullRequest is the base branch when Pushed is a pull request's base ("main"): the change
	// is measured from its merge-base with HEAD.
	PullRequest string
	// Unscoped, when set, says why the run takes every gate and every file although nothing asked
	// for --all: a CI push with no range to compare with.
	Unscoped string
}

// Shard is K of N; the zero value means no sharding.
type Shard = shard.Spec

// UnknownGateError names gates asked for on the command line that the config does not have.
type UnknownGateError struct {
	Unknown []string
	Known   []string
	// Setup maps the unknown names that are setup steps to the gates that need them: a step
	// runs for those, never on its own.
	Setup map[string][]string
}

func (e *UnknownGateError) Error() string {
	known := "none"
	if len(e.Known) > 0 {
		known = strings.Join(e.Known, ", ")
	}
	var steps []string
	for _, n := range e.Unknown {
		if by, ok := e.Setup[n]; ok {
			name := "a gate that needs it"
			if len(by) > 0 {
				name = strings.Join(by, ", ")
			}
			steps = append(steps, fmt.Sprintf("%q is a setup step, which runs for the gates that need it: name one of them (%s)", n, name))
		}
	}
	if len(steps) == len(e.Unknown) {
		return strings.Join(steps, "; ")
	}
	if meant := e.meant(); meant != nil {
		return fmt.Sprintf("unknown gate %s; did you mean %s?", quoteAll(e.Unknown), quoteAll(meant))
	}
	return fmt.Sprintf("unknown gate %s (gates in the config: %s)", quoteAll(e.Unknown), known)
}

// meant is the gate each unknown name looks like a typo of, or nil when one looks like none: the
// list of every gate then says more than a guess.
func (e *UnknownGateError) meant() []string {
	var meant []string
	for _, n := range e.Unknown {
		m := suggest.Closest(n, e.Known)
		if m == "" {
			return nil
		}
		meant = append(meant, m)
	}
	return meant
}

// Select applies names and shard (which gates this run is about), then `enabled`, `when` and
// change scoping (which of those are skipped, with the most fundamental reason first). It reads
// the repository only when a gate is scoped by paths.
func Select(ctx context.Context, cfg *config.Config, scope Scope) (*Selection, error) {
	scope = resolvePushed(ctx, cfg.Root, scope)
	return selectGates(ctx, cfg, scope, NewSnapshot(cfg, scope))
}

// selectGates is Select with the run's reading of the repository.
func selectGates(ctx context.Context, cfg *config.Config, scope Scope, snap *snapshot.Snapshot) (*Selection, error) {
	if err := checkNames(cfg, scope.Names); err != nil {
		return nil, err
	}
	sel := &Selection{AllBecause: scope.Unscoped, Skipped: map[string]string{}, Reasons: map[string]string{}}
	candidates := sel.candidates(namedGates(cfg, scope), scope.CI)
	if needsChanges(scope, candidates) {
		set, err := changedFiles(ctx, snap)
		if err != nil {
			return nil, fmt.Errorf("change scoping: %w", err)
		}
		sel.Changes = set
		if scope.AllWhenUnchanged {
			sel.AllBecause = nothingToScope(set)
		}
	}
	sel.All = scope.All || len(scope.Names) > 0 || sel.AllBecause != ""
	if !sel.All && sel.Changes != nil && !sel.Changes.All {
		sel.ScopedTo = scopedTo(scope)
	}
	for _, g := range candidates {
		why, runs := sel.scoped(g, scope)
		if !runs {
			sel.Skipped[g.Name] = why
			continue
		}
		sel.Reasons[g.Name] = why
		sel.Run = append(sel.Run, g)
	}
	sel.pullInNeeds(cfg.Gates, scope.CI)
	sel.giveFiles(ctx, cfg.Root, &fileLister{snap: snap, all: sel.All, changes: sel.Changes})
	sel.setupFor(cfg.Setup)
	return sel, nil
}

// checkNames refuses names that are no gate of the config.
func checkNames(cfg *config.Config, names []string) error {
	byName := make(map[string]bool, len(cfg.Gates))
	var known []string
	for _, g := range cfg.Gates {
		byName[g.Name] = true
		known = append(known, g.Name)
	}
	var unknown []string
	for _, n := range names {
		if !byName[n] {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		return &UnknownGateError{Unknown: unknown, Known: known, Setup: setupNamed(cfg, unknown)}
	}
	return nil
}

// namedGates are the gates the run is about: the named ones (all without names), of its shard.
func namedGates(cfg *config.Config, scope Scope) []gates.Gate {
	named := cfg.Gates
	if len(scope.Names) > 0 {
		named = slices.DeleteFunc(slices.Clone(cfg.Gates), func(g gates.Gate) bool { return !slices.Contains(scope.Names, g.Name) })
	}
	if scope.Shard.N > 1 {
		named = shardOf(named, cfg.Gates, scope)
	}
	return named
}

// candidates orders the named gates in the report and returns those neither disabled nor ruled
// out by `when`, counting those scoped by paths.
func (sel *Selection) candidates(named []gates.Gate, ci bool) []gates.Gate {
	var candidates []gates.Gate
	for _, g := range named {
		sel.Order = append(sel.Order, g.Name)
		if why := staticSkip(g, ci); why != "" {
			sel.Skipped[g.Name] = why
			continue
		}
		candidates = append(candidates, g)
		if len(g.Paths) > 0 {
			sel.WithPaths++
		} else {
			sel.WithoutPaths++
		}
	}
	return candidates
}

// needsChanges says whether the change must be read to scope the candidates by their paths, or,
// with AllWhenUnchanged, to find that there is none to give a {files} gate.
func needsChanges(scope Scope, candidates []gates.Gate) bool {
	if scope.All || len(scope.Names) > 0 || scope.Unscoped != "" {
		return false
	}
	return slices.ContainsFunc(candidates, func(g gates.Gate) bool {
		return len(g.Paths) > 0 || scope.AllWhenUnchanged && filesarg.Uses(g) && isCheck(g)
	})
}

// nothingToScope says why a run in git has no change to scope by: nothing changed against the
// base, or no base to compare with and a clean tree; "" when it has one. Outside git every
// gate's own reason says so already.
func nothingToScope(set *snapshot.ChangedFiles) string {
	switch {
	case !set.InGit:
		return ""
	case set.Base != "" && len(set.Files) == 0:
		return "nothing changed against " + set.Base
	case set.All:
		return "no change scoping: " + cmp.Or(set.BaseErr, "nothing to compare against")
	}
	return ""
}

// scoped says why g runs, or, when runs is false, why its paths skip it.
func (sel *Selection) scoped(g gates.Gate, scope Scope) (why string, runs bool) {
	switch {
	case len(scope.Names) > 0:
		return "named on the command line", true
	case len(g.Paths) == 0:
		return "no paths: always runs", true
	case scope.All:
		return "--all: paths ignored", true
	case sel.AllBecause != "":
		return sel.AllBecause + ": paths ignored", true
	case slices.Contains(scope.Sticky, g.Name):
		return "failed earlier in this session", true
	case sel.Changes.All:
		return "no change scoping: " + cmp.Or(sel.Changes.BaseErr, "nothing to compare against"), true
	}
	ok, matched := matchPaths(g.Paths, g.Exclude, sel.Changes.Files)
	return matched, ok
}

// giveFiles gives the gates that name {files} theirs; a gate left with none is skipped.
func (sel *Selection) giveFiles(ctx context.Context, root string, l *fileLister) {
	run, skipped := withFiles(ctx, root, sel.Run, l)
	for name, why := range skipped {
		sel.Skipped[name] = why
		delete(sel.Reasons, name)
	}
	for _, g := range run {
		if g.Files != nil {
			sel.Reasons[g.Name] += "; " + filesReason(g, sel.All)
		}
	}
	sel.Run = run
}

// setupNamed maps the names among names that are setup steps to the gates that need them.
func setupNamed(cfg *config.Config, names []string) map[string][]string {
	out := map[string][]string{}
	for _, s := range cfg.Setup {
		if !slices.Contains(names, s.Name) {
			continue
		}
		out[s.Name] = []string{}
		for _, g := range cfg.Gates {
			if slices.Contains(g.Needs, s.Name) {
				out[s.Name] = append(out[s.Name], g.Name)
			}
		}
	}
	return out
}

// setupFor picks the setup steps the gates to run need.
func (sel *Selection) setupFor(steps []gates.Gate) {
	sel.NeededBy = map[string][]string{}
	for _, g := range sel.Run {
		for _, n := range g.Needs {
			sel.NeededBy[n] = append(sel.NeededBy[n], g.Name)
		}
	}
	for _, s := range steps {
		if len(sel.NeededBy[s.Name]) > 0 {
			sel.Setup = append(sel.Setup, s)
		}
	}
	for n := range sel.NeededBy {
		if !slices.ContainsFunc(sel.Setup, func(s gates.Gate) bool { return s.Name == n }) {
			delete(sel.NeededBy, n)
		}
	}
}

// pullInNeeds adds to the run the gates that the selected gates need, and the gates those need,
// whatever their paths, names or shard said: a gate selected to run is judged after what it
// needs, never without it. A need that is disabled or ruled out here by `when` stays out and does
// not hold its dependents back: switching one gate off must not switch off the gates after it.
// The run and the reported order stay in config order.
func (sel *Selection) pullInNeeds(all []gates.Gate, ci bool) {
	byName := make(map[string]gates.Gate, len(all))
	for _, g := range all {
		byName[g.Name] = g
	}
	inRun := make(map[string]bool, len(sel.Run))
	queue := make([]string, 0, len(sel.Run))
	for _, g := range sel.Run {
		inRun[g.Name] = true
		queue = append(queue, g.Name)
	}
	pulled := false
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		added := sel.pullNeedsOf(byName, name, inRun, ci)
		pulled = pulled || len(added) > 0
		queue = append(queue, added...)
	}
	if pulled {
		sel.reorder(all, inRun)
	}
}

// pullNeedsOf adds to the run the needs of the gate name that are not in it yet, and returns them.
func (sel *Selection) pullNeedsOf(byName map[string]gates.Gate, name string, inRun map[string]bool, ci bool) []string {
	var added []string
	for _, n := range byName[name].Needs {
		need, isGate := byName[n]
		if !isGate || inRun[n] || staticSkip(need, ci) != "" {
			continue
		}
		inRun[n] = true
		delete(sel.Skipped, n)
		sel.Reasons[n] = "needed by " + name
		added = append(added, n)
	}
	return added
}

// reorder puts the run and the reported order back in config order, with the gates pulled in.
func (sel *Selection) reorder(all []gates.Gate, inRun map[string]bool) {
	reported := make(map[string]bool, len(sel.Order))
	for _, n := range sel.Order {
		reported[n] = true
	}
	sel.Run, sel.Order = sel.Run[:0], sel.Order[:0]
	for _, g := range all {
		if inRun[g.Name] {
			sel.Run = append(sel.Run, g)
		}
		if inRun[g.Name] || reported[g.Name] {
			sel.Order = append(sel.Order, g.Name)
		}
	}
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
