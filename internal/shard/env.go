package shard

import (
	"fmt"
	"strconv"
	"strings"
)

// A ciVars names the pair of variables one CI system sets on each of its parallel jobs.
type ciVars struct {
	system       string
	index, total string
	zeroBased    bool
}

// ciSystems are looked at in this order; the first whose index variable is set wins.
// GAUNTLET_SHARD ("K/N") comes before all of them, so a workflow can always say it explicitly;
// it is also the convention for GitHub Actions, whose matrix has no built-in index.
var ciSystems = []ciVars{
	{"GitLab CI", "CI_NODE_INDEX", "CI_NODE_TOTAL", false},
	{"Buildkite", "BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", true},
	{"CircleCI", "CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", true},
	{"Semaphore", "SEMAPHORE_JOB_INDEX", "SEMAPHORE_JOB_COUNT", false},
}

// EnvVariables lists every variable FromEnv looks at, for messages.
func EnvVariables() []string {
	vars := []string{"GAUNTLET_SHARD"}
	for _, c := range ciSystems {
		vars = append(vars, c.index+"/"+c.total)
	}
	return vars
}

// FromEnv finds this machine's shard in the CI's variables (`--shard auto`). It returns the
// spec and where it came from.
func FromEnv(getenv func(string) string) (Spec, string, error) {
	if v := strings.TrimSpace(getenv("GAUNTLET_SHARD")); v != "" {
		s, err := Parse(v)
		if err != nil {
			return Spec{}, "", fmt.Errorf("GAUNTLET_SHARD: %w", err)
		}
		return s, "GAUNTLET_SHARD", nil
	}
	for _, c := range ciSystems {
		idx, tot := strings.TrimSpace(getenv(c.index)), strings.TrimSpace(getenv(c.total))
		if idx == "" && tot == "" {
			continue
		}
		s, err := c.spec(idx, tot)
		if err != nil {
			return Spec{}, "", err
		}
		return s, c.system + " (" + c.index + ", " + c.total + ")", nil
	}
	return Spec{}, "", fmt.Errorf("--shard auto: no CI shard variables set (looked for %s)", strings.Join(EnvVariables(), ", "))
}

// spec reads the CI's index and total variables' values as a shard.
func (c ciVars) spec(idx, tot string) (Spec, error) {
	k, errK := strconv.Atoi(idx)
	n, errN := strconv.Atoi(tot)
	if errK != nil || errN != nil {
		return Spec{}, fmt.Errorf("%s: %s=%q and %s=%q are not both numbers", c.system, c.index, idx, c.total, tot)
	}
	if c.zeroBased {
		k++
	}
	s, err := Parse(fmt.Sprintf("%d/%d", k, n))
	if err != nil {
		return Spec{}, fmt.Errorf("%s: %s=%q, %s=%q: %w", c.system, c.index, idx, c.total, tot, err)
	}
	return s, nil
}
