package engine

import (
	"slices"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/shard"
)

// shardOf keeps the gates of this machine's shard. The split depends only on the config, the
// timings and whether this is CI, never on what changed: change scoping can differ between two
// checkouts of the same commit (a shallow clone, a missing base), and then the shards would no
// longer add up to every gate once.
func shardOf(gs, all []gates.Gate, scope Scope) []gates.Gate {
	mine := split(gs, all, scope.CI, scope.Timings, scope.Shard.N).Shards[scope.Shard.K-1]
	return slices.DeleteFunc(slices.Clone(gs), func(g gates.Gate) bool { return !slices.Contains(mine, g.Name) })
}

// staticSkip says why a gate is skipped whatever the change, or "" when it is a candidate.
func staticSkip(g gates.Gate, ci bool) string {
	switch {
	case !g.Enabled:
		return "disabled (enabled: false)"
	case g.When == gates.WhenCI && !ci:
		return "runs only in CI (when: ci)"
	case g.When == gates.WhenLocal && ci:
		return "runs only outside CI (when: local)"
	}
	return ""
}

// ShardPlan is the split `gauntlet run --shard K/N` makes of the whole config, for `gauntlet ci
// matrix` to show and size.
func ShardPlan(cfg *config.Config, ci bool, t shard.Timings, n int) shard.Plan {
	return split(cfg.Gates, cfg.Gates, ci, t, n)
}

// split shards gs; all is every gate of the config, whose needs decide which gates stay together.
func split(gs, all []gates.Gate, ci bool, t shard.Timings, n int) shard.Plan {
	group := needGroups(all)
	items := make([]shard.Gate, len(gs))
	for i, g := range gs {
		items[i] = shard.Gate{Name: g.Name, Idle: staticSkip(g, ci) != "", Group: group[g.Name]}
	}
	return shard.Split(items, t, n)
}

// needGroups names, for each gate, the group of gates linked to it by needs either way, by the
// first of them in config order. Linked gates share a shard, so that a shard pulls in what its
// gates need without running a gate another shard runs too (their reports could not be merged).
// Setup steps are no gates: every shard runs the ones its gates need.
func needGroups(all []gates.Gate) map[string]string {
	u := unionFind{parent: make(map[string]string, len(all)), first: make(map[string]int, len(all))}
	for i, g := range all {
		u.parent[g.Name] = g.Name
		u.first[g.Name] = i
	}
	for _, g := range all {
		for _, n := range g.Needs {
			if _, isGate := u.parent[n]; isGate {
				u.join(g.Name, n)
			}
		}
	}
	groups := make(map[string]string, len(all))
	for _, g := range all {
		groups[g.Name] = u.find(g.Name)
	}
	return groups
}

// unionFind groups gates; each group's root is its first gate in config order, so names are
// stable.
type unionFind struct {
	parent map[string]string
	first  map[string]int
}

func (u unionFind) find(n string) string {
	for u.parent[n] != n {
		u.parent[n] = u.parent[u.parent[n]]
		n = u.parent[n]
	}
	return n
}

func (u unionFind) join(x, y string) {
	a, b := u.find(x), u.find(y)
	switch {
	case a == b:
	case u.first[a] < u.first[b]:
		u.parent[b] = a
	default:
		u.parent[a] = b
	}
}
