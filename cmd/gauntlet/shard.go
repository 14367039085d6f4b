package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/engine"
	"github.com/gauntlet-dev/gauntlet/internal/shard"
	"github.com/gauntlet-dev/gauntlet/internal/state"
)

// parseShard reads --shard: K/N, or auto for the CI's own variables.
func parseShard(s string, getenv func(string) string) (engine.Shard, error) {
	if s == "auto" {
		spec, _, err := shard.FromEnv(getenv)
		return spec, err
	}
	spec, err := shard.Parse(s)
	if err != nil {
		return engine.Shard{}, fmt.Errorf("--%w (or auto)", err)
	}
	return spec, nil
}

// loadTimings reads the durations that balance the shards. An explicit --timings file that is
// missing is only a warning: on CI it comes from a cache or an artifact that the first run of a
// pipeline does not have yet, and every shard then falls back to the same config-order split.
// A file that is there but is not timings is a usage error.
//
// Without --timings: the durations every unsharded run keeps (.gauntlet/state/timings.json), else
// the last run's report unless that run was itself a shard. A shard's report must not steer the
// next shard of the same split: the two would split differently, and gates would run twice or
// never.
func loadTimings(stderr io.Writer, path, root string) (shard.Timings, error) {
	if path == "" {
		return defaultTimings(stderr, root), nil
	}
	t, err := shard.ReadTimings(path)
	switch {
	case err == nil:
		return t, nil
	case errors.Is(err, fs.ErrNotExist):
		fmt.Fprintf(stderr, "gauntlet: --timings %s does not exist; shards split in config order\n", path)
		return nil, nil
	default:
		return nil, &usageError{fmt.Errorf("--timings: %w", err)}
	}
}

func defaultTimings(stderr io.Writer, root string) shard.Timings {
	for _, path := range []string{engine.TimingsPath(root), filepath.Join(root, state.Name, engine.LastRunFile)} {
		data, err := shard.ReadFile(path, shard.MaxTimingsBytes)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err == nil && isShardReport(data) {
			continue
		}
		var t shard.Timings
		if err == nil {
			t, err = shard.ParseTimings(data)
		}
		if err != nil {
			fmt.Fprintf(stderr, "gauntlet: timings %s: %v; shards split in config order\n", config.DisplayPath(path), err)
			return nil
		}
		return t
	}
	return nil
}

// isShardReport says whether data is the JSON report of a sharded run.
func isShardReport(data []byte) bool {
	var r struct {
		Shard string `json:"shard"`
	}
	return json.Unmarshal(data, &r) == nil && r.Shard != ""
}
