package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/gauntlet-dev/gauntlet/engine"
	"github.com/gauntlet-dev/gauntlet/shard"
	"github.com/gauntlet-dev/gauntlet/statedir"
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
// A file that is there but is not timings is a usage error. Without --timings the last run's
// report is used when there is a readable one.
func loadTimings(stderr io.Writer, path, root string) (shard.Timings, error) {
	explicit := path != ""
	if !explicit {
		path = filepath.Join(root, statedir.Name, engine.LastRunFile)
	}
	t, err := shard.ReadTimings(path)
	switch {
	case err == nil:
		return t, nil
	case errors.Is(err, fs.ErrNotExist) && explicit:
		fmt.Fprintf(stderr, "gauntlet: --timings %s does not exist; shards split in config order\n", path)
		return nil, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case explicit:
		return nil, &usageError{fmt.Errorf("--timings: %w", err)}
	default:
		fmt.Fprintf(stderr, "gauntlet: %v; shards split in config order\n", err)
		return nil, nil
	}
}
