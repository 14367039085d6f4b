package engine

import (
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/census"
	"github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/oscmd"
)

// nodeVersionTimeout bounds `node --version`: it answers at once or not at all.
const nodeVersionTimeout = 5 * time.Second

// nodeDefaultReporter is the reporter node --test uses off a terminal, by node's major version:
// naming the junit reporter drops the default, so gauntlet names the default as well. The last
// row whose version is not above node's applies.
var nodeDefaultReporter = []struct {
	from     int
	reporter string
}{
	{0, "tap"},   // node 20 and 22
	{23, "spec"}, // node 23 changed the default to spec everywhere
}

var nodeVersionPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^v(\d+)\.`) })

// adjustNode names node's own default reporter in the requests that keep it (census.Display
// NodeTAP), from the version of the node the gate runs; it says why the census cannot be asked
// for when that version cannot be read.
func (s *censusStage) adjustNode(gc *gateCensus, reqs []census.Request) string {
	for i, r := range reqs {
		if r.Display != census.DisplayNodeTAP {
			continue
		}
		major, err := s.nodeMajor(gc)
		if err != nil {
			return "node's version, which decides the reporter it shows, could not be read: " + err.Error()
		}
		reporter := nodeDefaultReporter[0].reporter
		for _, row := range nodeDefaultReporter {
			if major >= row.from {
				reporter = row.reporter
			}
		}
		reqs[i].Args = slices.Clone(r.Args)
		for k, a := range reqs[i].Args {
			if a == "--test-reporter=tap" {
				reqs[i].Args[k] = "--test-reporter=" + reporter
			}
		}
		reqs[i].Env = slices.Clone(r.Env)
		for k, e := range reqs[i].Env {
			// NODE_OPTIONS, for a node --test a script runs (census.ViaScript).
			reqs[i].Env[k] = strings.Replace(e, "--test-reporter=tap", "--test-reporter="+reporter, 1)
		}
	}
	return ""
}

// nodeMajor runs the gate's node (found on the gate's PATH, with its environment) for its
// version, once per node per run.
func (s *censusStage) nodeMajor(gc *gateCensus) (int, error) {
	env := slices.Concat(s.env, gc.gate.Env, s.extraEnv)
	path, ok := oscmd.Local().LookPathIn("node", gc.dir, lastValue(env, "PATH"))
	if !ok {
		return 0, fmt.Errorf("node is not on the gate's PATH")
	}
	s.nodeMu.Lock()
	defer s.nodeMu.Unlock()
	if v, ok := s.nodeVersions[path]; ok {
		return v.major, v.err
	}
	major, err := runNodeVersion(path, gc.dir, env)
	if s.nodeVersions == nil {
		s.nodeVersions = map[string]nodeVersion{}
	}
	s.nodeVersions[path] = nodeVersion{major, err}
	return major, err
}

type nodeVersion struct {
	major int
	err   error
}

// nodeProbe is the memo of node versions a stage read.
type nodeProbe struct {
	nodeMu       sync.Mutex
	nodeVersions map[string]nodeVersion
}

func runNodeVersion(path, dir string, env []string) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), nodeVersionTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--version")
	out := &git.CappedBuffer{Limit: 256, Truncate: true}
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.WaitDelay = dir, env, out, time.Second
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%s --version: %w", path, err)
	}
	m := nodeVersionPattern().FindStringSubmatch(strings.TrimSpace(out.String()))
	if m == nil {
		return 0, fmt.Errorf("%s --version said %q", path, strings.TrimSpace(out.String()))
	}
	return strconv.Atoi(m[1])
}

// lastValue is the value of key in an environment list, where the last entry wins.
func lastValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return ""
}
