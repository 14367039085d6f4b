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
func shardOf(gs []gates.Gate, scope Scope) []gates.Gate {
	mine := split(gs, scope.CI, scope.Timings, scope.Shard.N).Shards[scope.Shard.K-1]
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
	return split(cfg.Gates, ci, t, n)
}

func split(gs []gates.Gate, ci bool, t shard.Timings, n int) shard.Plan {
	items := make([]shard.Gate, len(gs))
	for i, g := range gs {
		items[i] = shard.Gate{Name: g.Name, Idle: staticSkip(g, ci) != ""}
	}
	return shard.Split(items, t, n)
}
