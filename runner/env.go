package runner

import (
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// gateEnv layers a gate's environment: the base, the gate's own entries, gauntlet's markers,
// then the caller's extras; for a key set twice the later entry wins.
// gateMarks are the entries of gateEnv that tell the gate's processes from everybody else's.
func gateMarks(g gates.Gate, runID string) []string {
	return []string{"GAUNTLET_RUN_ID=" + runID, "GAUNTLET_GATE=" + g.Name}
}

func gateEnv(base []string, g gates.Gate, runID string, extra []string) []string {
	env := make([]string, 0, len(base)+len(g.Env)+3+len(extra))
	env = append(env, base...)
	env = append(env, g.Env...)
	env = append(env, "GAUNTLET=1", "GAUNTLET_RUN_ID="+runID, "GAUNTLET_GATE="+g.Name)
	env = append(env, extra...)
	return dedupEnv(env)
}

// dedupEnv keeps the last entry of each key, in the order of those last entries, so that the
// child and lookPath see the same single value.
func dedupEnv(env []string) []string {
	seen := make(map[string]bool, len(env))
	out := make([]string, 0, len(env))
	for _, kv := range slices.Backward(env) {
		key, _, _ := strings.Cut(kv, "=")
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, kv)
	}
	slices.Reverse(out)
	return out
}

// envValue returns the value of key in env, the last entry winning as in a process environment.
func envValue(env []string, key string) (string, bool) {
	for _, kv := range slices.Backward(env) {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}
