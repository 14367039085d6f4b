package runner

import (
	"runtime"
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
		key := envKey(kv)
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
		k, v, ok := splitEnv(kv)
		if ok && sameEnvKey(k, key) {
			return v, true
		}
	}
	return "", false
}

// envFoldCase is set where variable names are case-insensitive: on Windows "Path" and "PATH"
// are one variable, and a gate's `env: {PATH: ...}` replaces the inherited "Path".
var envFoldCase = runtime.GOOS == "windows"

// splitEnv cuts a "KEY=VALUE" entry. A leading '=' belongs to the name: Windows keeps each
// drive's working directory in variables such as "=C:".
func splitEnv(kv string) (key, value string, ok bool) {
	skip := min(1, len(kv))
	i := strings.IndexByte(kv[skip:], '=')
	if i < 0 {
		return kv, "", false
	}
	i += skip
	return kv[:i], kv[i+1:], true
}

// envKey is the name of an entry as the system compares names.
func envKey(kv string) string {
	k, _, _ := splitEnv(kv)
	if envFoldCase {
		return strings.ToUpper(k)
	}
	return k
}

func sameEnvKey(a, b string) bool {
	if envFoldCase {
		return strings.EqualFold(a, b)
	}
	return a == b
}
