package engine

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/shard"
)

// The shards of Select cover every gate once, split by the timings, and a gate that is skipped
// whatever changes (when: ci outside CI) weighs nothing, while in CI it weighs its duration.
func TestSelectShardsByTimings(t *testing.T) {
	const yml = `version: 1
gates:
  a:
    run: "true"
  b:
    run: "true"
  c:
    run: "true"
  slow-ci:
    run: "true"
    when: ci
`
	dir := t.TempDir()
	cfg, err := config.Parse(filepath.Join(dir, config.FileName), []byte(yml), dir)
	if err != nil {
		t.Fatal(err)
	}
	timings := shard.Timings{"a": 30 * time.Second, "b": 20 * time.Second, "c": 10 * time.Second, "slow-ci": time.Minute}
	shardsOf := func(ci bool) [][]string {
		var out [][]string
		for k := 1; k <= 2; k++ {
			sel, err := Select(context.Background(), cfg, Scope{Shard: Shard{K: k, N: 2}, Timings: timings, CI: ci})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, sel.Order)
		}
		return out
	}
	// Outside CI: a 30s -> 1, b 20s -> 2, c 10s -> 2 (30s), slow-ci (idle, 0) -> 1 (a tie: the lower shard).
	if got, want := shardsOf(false), [][]string{{"a", "slow-ci"}, {"b", "c"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("outside CI: shards %v, want %v", got, want)
	}
	// In CI slow-ci is the longest: slow-ci 60s -> 1, a -> 2, b -> 2 (50s), c -> 2 (60s).
	if got, want := shardsOf(true), [][]string{{"slow-ci"}, {"a", "b", "c"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("in CI: shards %v, want %v", got, want)
	}
	for _, ci := range []bool{false, true} {
		all := slices.Concat(shardsOf(ci)...)
		slices.Sort(all)
		if !slices.Equal(all, []string{"a", "b", "c", "slow-ci"}) {
			t.Errorf("ci=%v: shards together hold %v, want every gate once", ci, all)
		}
	}
}
