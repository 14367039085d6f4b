package engine

import (
	"path/filepath"
	"slices"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/causes"
	"github.com/gauntlet-dev/gauntlet/runner"
)

// causeReaders gives a gate the catalogue of environment causes as a reader of its output,
// unless the config turned it off for the gate (config resolves causes: for check gates only).
// The probes look where the gate ran, with the environment it had.
func causeReaders(root string, env []string) runner.ReadersFunc {
	memory := causes.RunMemory()
	return func(g gates.Gate) []runner.OutputReader {
		if !g.Causes {
			return nil
		}
		return []runner.OutputReader{causes.NewReader(causes.Options{
			Root:         root,
			Dir:          filepath.Join(root, filepath.FromSlash(g.Dir)),
			Env:          slices.Concat(env, g.Env),
			MemoryBefore: memory,
		})}
	}
}

// joinReaders gives each gate the readers of every fn, in order, so that separate concerns
// (findings, causes) each keep their own reader of the same output.
func joinReaders(fns ...runner.ReadersFunc) runner.ReadersFunc {
	return func(g gates.Gate) []runner.OutputReader {
		var out []runner.OutputReader
		for _, fn := range fns {
			if fn != nil {
				out = append(out, fn(g)...)
			}
		}
		return out
	}
}
