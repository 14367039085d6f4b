package engine

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/state"
)

// PassedFile lists the gates that have passed at least once in this checkout, relative to the
// state dir: a gate that never has, timing out before it reports anything, is most likely
// building from cold caches (an empty Go build cache, a first cargo build), which the agent
// cannot fix and a longer first run can.
const PassedFile = "state/passed.json"

// ColdBuildID is the cause given to such a timeout.
const ColdBuildID = "cold-build-timeout"

// maxPassedBytes bounds the read of PassedFile; a config's gate names fit many times over.
const maxPassedBytes = 1 << 20

func readPassed(sd *state.Dir) map[string]bool {
	passed := map[string]bool{}
	data, err := sd.ReadFileLimit(PassedFile, maxPassedBytes)
	if err != nil {
		return passed
	}
	var names []string
	if json.Unmarshal(data, &names) == nil {
		for _, n := range names {
			passed[n] = true
		}
	}
	return passed
}

// coldBuilds turns into errors the check gates that timed out before reporting any result
// (no finding, no error line, no cause) and have never passed here: their failure says nothing
// about the agent's work yet. A gate that passed once is judged as usual: a timeout then is the
// change's.
func coldBuilds(sd *state.Dir, results []gates.Result, byName map[string]gates.Gate) []gates.Result {
	var passed map[string]bool
	for i, r := range results {
		g, ok := byName[r.Name]
		if !ok || r.Status != gates.StatusFail || !r.TimedOut || len(r.Findings) > 0 || r.Excerpt != nil || r.Cause != nil ||
			(g.Kind != gates.KindCheck && g.Kind != "") {
			continue
		}
		if passed == nil {
			passed = readPassed(sd)
		}
		if passed[r.Name] {
			continue
		}
		c := gates.Cause{ID: ColdBuildID,
			Summary: fmt.Sprintf("%s timed out after %s before reporting any result and has never passed in this checkout: most likely a cold first build (empty build or module caches)", r.Name, g.Timeout),
			Fix:     fmt.Sprintf("run it once with more time (gauntlet run %s, after raising its timeout if needed) so that the caches fill; later runs are judged as usual", r.Name)}
		results[i].Status, results[i].Cause, results[i].Reason = gates.StatusError, &c, gates.CauseReason(c)
	}
	return results
}

// recordPasses adds the gates that passed (cached passes included) to PassedFile, keeping the
// names the config still has; it writes only when the list changes.
func recordPasses(sd *state.Dir, names []string, results []gates.Result) error {
	passed := readPassed(sd)
	changed := false
	for _, r := range results {
		if r.Status == gates.StatusPass && !passed[r.Name] {
			passed[r.Name], changed = true, true
		}
	}
	if !changed {
		return nil
	}
	var keep []string
	for n := range passed {
		if slices.Contains(names, n) {
			keep = append(keep, n)
		}
	}
	slices.Sort(keep)
	data, err := json.Marshal(keep)
	if err != nil {
		return fmt.Errorf("encode %s: %w", PassedFile, err)
	}
	return sd.WriteFileAtomic(PassedFile, append(data, '\n'))
}
