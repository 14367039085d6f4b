// Package shard splits gates over CI machines so that the slowest machine finishes as early as
// the known gate durations allow, and finds out which shard this machine is.
package shard

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// MaxShards bounds N everywhere: beyond it a split only multiplies machine start-up costs.
const MaxShards = 256

// Spec is shard K of N, 1 <= K <= N.
type Spec struct{ K, N int }

func (s Spec) String() string { return fmt.Sprintf("%d/%d", s.K, s.N) }

// Parse reads "K/N".
func Parse(s string) (Spec, error) {
	k, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	ki, errK := strconv.Atoi(k)
	ni, errN := strconv.Atoi(n)
	if !ok || errK != nil || errN != nil || ni < 1 || ki < 1 || ki > ni {
		return Spec{}, fmt.Errorf("shard takes K/N with 1 <= K <= N, got %q", s)
	}
	if ni > MaxShards {
		return Spec{}, fmt.Errorf("shard %q: at most %d shards", s, MaxShards)
	}
	return Spec{K: ki, N: ni}, nil
}

// Gate is what the split needs to know about a gate.
type Gate struct {
	Name string
	// Idle gates will be reported as skipped whatever the change (disabled, or `when` rules
	// them out here): they cost nothing, so they must not count against a shard.
	Idle bool
	// Group keeps gates together: gates with the same non-empty group land in one shard (gates
	// that need one another, which a shard could not run apart without running some twice).
	Group string
}

// Plan is a split of gates into N shards.
type Plan struct {
	Shards [][]string      // gate names per shard (index K-1), each in config order
	Loads  []time.Duration // estimated time of each shard
	// Estimate is the duration each gate was planned with; Unknown names the gates that had
	// no recorded duration and were given the median of the known ones.
	Estimate map[string]time.Duration
	Unknown  []string
}

// Longest is the estimated time of the slowest shard: the wall time of the whole CI run.
func (p Plan) Longest() time.Duration {
	if len(p.Loads) == 0 {
		return 0
	}
	return slices.Max(p.Loads)
}

// Total is the estimated time of every gate together.
func (p Plan) Total() time.Duration {
	var t time.Duration
	for _, l := range p.Loads {
		t += l
	}
	return t
}

// minWeight keeps gates whose recorded duration rounds to zero from all piling onto one shard.
const minWeight = time.Millisecond

// Split assigns gates (in config order) to n shards, longest first, each to the shard with the
// least work so far (the LPT rule: within 4/3 of the best split). Ties go to the earlier gate in
// config order and to the lower shard, so the same config and timings give the same split on
// every machine. A gate without a recorded duration counts as the median of the known ones;
// when none is known every gate counts the same, which makes the split round-robin in config
// order.
func Split(gs []Gate, t Timings, n int) Plan {
	if n < 1 {
		n = 1
	}
	p := Plan{
		Shards:   make([][]string, n),
		Loads:    make([]time.Duration, n),
		Estimate: make(map[string]time.Duration, len(gs)),
	}
	weights := p.estimate(gs, t)
	units := placementUnits(gs)
	unitWeight := make([]time.Duration, len(units))
	for u, members := range units {
		for _, i := range members {
			unitWeight[u] += weights[i]
		}
	}
	order := make([]int, len(units))
	for u := range order {
		order[u] = u
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(unitWeight[b], unitWeight[a]) })
	assigned := make([]int, len(gs))
	for _, u := range order {
		best := leastLoaded(p.Loads)
		for _, i := range units[u] {
			assigned[i] = best
		}
		p.Loads[best] += unitWeight[u]
	}
	for i, g := range gs {
		p.Shards[assigned[i]] = append(p.Shards[assigned[i]], g.Name)
	}
	return p
}

// estimate weighs each gate by its recorded duration, the median of the known ones when it has
// none (noting it in Unknown), and nothing when it is idle; the weights are in gs's order.
func (p *Plan) estimate(gs []Gate, t Timings) []time.Duration {
	weights := make([]time.Duration, len(gs))
	fallback := median(knownDurations(gs, t))
	for i, g := range gs {
		d, ok := t[g.Name]
		switch {
		case g.Idle:
			d = 0
		case ok:
			d = max(d, minWeight)
		default:
			d = fallback
			p.Unknown = append(p.Unknown, g.Name)
		}
		weights[i] = d
		p.Estimate[g.Name] = d
	}
	return weights
}

// knownDurations are the recorded durations of the gates that are not idle.
func knownDurations(gs []Gate, t Timings) []time.Duration {
	var known []time.Duration
	for _, g := range gs {
		if d, ok := t[g.Name]; ok && !g.Idle {
			known = append(known, max(d, minWeight))
		}
	}
	return known
}

// placementUnits are what is placed on a shard as one: a group is one item weighing what its
// gates weigh together, at its first gate's place in config order; every other gate is its own.
// Each unit lists its gates' indexes in gs.
func placementUnits(gs []Gate) [][]int {
	units := make([][]int, 0, len(gs))
	unitOf := map[string]int{}
	for i, g := range gs {
		if u, ok := unitOf[g.Group]; ok && g.Group != "" {
			units[u] = append(units[u], i)
			continue
		}
		if g.Group != "" {
			unitOf[g.Group] = len(units)
		}
		units = append(units, []int{i})
	}
	return units
}

// leastLoaded is the shard with the least work so far, the lower one on a tie.
func leastLoaded(loads []time.Duration) int {
	best := 0
	for s := 1; s < len(loads); s++ {
		if loads[s] < loads[best] {
			best = s
		}
	}
	return best
}

// median of the known durations; minWeight when nothing is known, so that every gate weighs
// the same.
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return minWeight
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}
