package config

import (
	"time"

	"go.yaml.in/yaml/v3"
)

// DefaultFirstFailureGrace is how long the stop hook waits, after the first required gate fails,
// for other gates about to finish before it replies: the agent's fix will change the code, so the
// results of gates still running would be stale anyway.
const DefaultFirstFailureGrace = 5 * time.Second

// FirstFailure is stop_hook.first_failure: a grace after the first failure, or wait for every gate.
type FirstFailure struct {
	// Wait keeps every gate running to its end, as `run` does.
	Wait bool
	// Grace is how long the other gates get after the first failure; 0 replies at once.
	Grace time.Duration
}

// firstFailure is the raw key as written, checked when decoded: "wait" or a duration (0s allowed:
// reply at the first failure).
type firstFailure string

// resolve turns the checked key into its meaning.
func (x firstFailure) resolve() FirstFailure {
	if x == "wait" {
		return FirstFailure{Wait: true}
	}
	v, _ := time.ParseDuration(string(x))
	return FirstFailure{Grace: v}
}

func (x *firstFailure) decodeNode(d *decoder, n *yaml.Node, s subject) bool {
	const want = `"wait" or a duration such as 5s (0s replies at once)`
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		d.report(n, "%s must be %s, got %s", s, want, describe(n))
		return false
	}
	if n.Value != "wait" {
		if v, err := time.ParseDuration(n.Value); err != nil || v < 0 {
			d.report(n, "%s must be %s, got %s", s, want, describe(n))
			return false
		}
	}
	*x = firstFailure(n.Value)
	return true
}
