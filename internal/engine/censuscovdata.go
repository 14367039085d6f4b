package engine

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/census"
	"github.com/gauntlet-dev/gauntlet/internal/covshim"
	"github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/oscmd"
)

// covdataTimeout bounds `go tool -n covdata`: it prints a path, building covdata into go's
// cache the first time (seconds).
const covdataTimeout = 2 * time.Minute

// covdataKey is what decides the covdata a gate's go test starts: its go, and the directory whose
// go.mod may select another toolchain.
type covdataKey struct{ goPath, dir string }

// toolexecFlag is the -toolexec that has the gate's go test r start `go tool covdata` as covdata
// itself (internal/covshim); "" when the command or GOFLAGS names its own -toolexec, or covdata
// cannot be found, and go test then runs covdata its own, slower way.
func (s *censusStage) toolexecFlag(gc *gateCensus, r census.Request) string {
	env := slices.Concat(s.env, gc.gate.Env, s.extraEnv)
	if r.Toolexec || (census.GoShow{}).WithGOFLAGS(lastValue(env, "GOFLAGS")).Toolexec {
		return ""
	}
	goPath, ok := oscmd.Local().LookPathIn(r.Program, gc.dir, lastValue(env, "PATH"))
	if !ok {
		return ""
	}
	s.covdataMu.Lock()
	defer s.covdataMu.Unlock()
	key := covdataKey{goPath, gc.dir}
	covdata, ok := s.covdata[key]
	if !ok {
		covdata = covshim.Covdata(goPath, gc.dir, env, func() string { return resolveCovdata(goPath, gc.dir, env) })
		if s.covdata == nil {
			s.covdata = map[covdataKey]string{}
		}
		s.covdata[key] = covdata
	}
	return covshim.Flag(covdata)
}

// resolveCovdata is the covdata executable `go tool covdata` runs for the gate's go, in its
// directory and environment; "" when go does not say.
func resolveCovdata(goPath, dir string, env []string) string {
	ctx, cancel := context.WithTimeout(context.Background(), covdataTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, goPath, "tool", "-n", "covdata")
	out := &git.CappedBuffer{Limit: 4096, Truncate: true}
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.WaitDelay = dir, env, out, time.Second
	if err := cmd.Run(); err != nil {
		return ""
	}
	path := strings.TrimSpace(out.String())
	if strings.ContainsAny(path, "\n\r") || !filepath.IsAbs(path) {
		return ""
	}
	return path
}
