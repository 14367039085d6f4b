package engine

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/shard"
	"github.com/gauntlet-dev/gauntlet/internal/state"
)

// TimingsFile keeps the latest known duration of each gate (relative to the state dir), the
// default timings of --shard. Only runs that are not shards update it: the shards of one split,
// run one after another in the same checkout, must all read the same durations, and each one's
// last-run.json would otherwise change them under the next.
const TimingsFile = "state/timings.json"

// TimingsPath is where TimingsFile is for a project root.
func TimingsPath(root string) string {
	return filepath.Join(root, state.Name, filepath.FromSlash(TimingsFile))
}

// recordTimings updates the durations of the gates that ran, keeps the others' earlier ones, and
// drops gates the config no longer has.
func recordTimings(sd *state.Dir, cfg *config.Config, results []gates.Result) error {
	known := shard.Timings{}
	if data, err := sd.ReadFile(TimingsFile); err == nil {
		if t, err := shard.ParseTimings(data); err == nil {
			known = t
		}
	}
	for _, r := range results {
		switch r.Status {
		case gates.StatusPass, gates.StatusFail, gates.StatusWarn, gates.StatusError:
			if !r.Cached {
				known[r.Name] = r.Duration
			}
		}
	}
	ms := make(map[string]int64, len(known))
	for name, d := range known {
		if slices.ContainsFunc(cfg.Gates, func(g gates.Gate) bool { return g.Name == name }) {
			ms[name] = d.Milliseconds()
		}
	}
	data, err := json.Marshal(ms) // keys sorted: the file only changes when a duration does
	if err != nil {
		return fmt.Errorf("encode %s: %w", TimingsFile, err)
	}
	return sd.WriteFileAtomic(TimingsFile, append(data, '\n'))
}
