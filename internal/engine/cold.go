package engine

import (
	"regexp"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/policy"
)

// ColdBuildID is the cause given to a cold build's timeout.
const ColdBuildID = policy.ColdBuildID

// buildingPatterns are the lines a build prints while it fetches or compiles dependencies: the
// evidence that a check stopped at its timeout was still building from cold caches, not hanging
// or slow at its own work. A line of the tool's own that only looks like one ("Compiling the
// report...") has no version or address, and is none.
var buildingPatterns = []*regexp.Regexp{
	regexp.MustCompile(`^go: downloading \S+ v\S+`),
	regexp.MustCompile(`^(Compiling|Downloaded|Checking) \S+ v\d\S*`),                                                                       // cargo
	regexp.MustCompile(`^(Downloading crates|Updating crates\.io index|Blocking waiting for file lock on (package cache|build directory))`), // cargo
	regexp.MustCompile(`^Downloading from \S+: https?://`),                                                                                  // Maven
	regexp.MustCompile(`^Download(ing)? https?://\S+`),                                                                                      // Gradle
}

// buildingLine is the last line of tail that shows a build fetching or compiling dependencies,
// trimmed; "" when none does.
func buildingLine(tail string) string {
	lines := strings.Split(tail, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		line := strings.TrimSpace(lines[i])
		for _, p := range buildingPatterns {
			if p.MatchString(line) {
				return line
			}
		}
	}
	return ""
}

// coldJudge asks the verdict policy whether a check that timed out before reporting any result is
// a cold build's error: the policy decides, from the gate's result and what its output shows. It
// needs nothing but the gate's result, so it judges each gate as it ends, for the live view, and
// the run's results after, and both agree.
type coldJudge struct {
	byName map[string]gates.Gate
}

func newColdJudge(byName map[string]gates.Gate) *coldJudge {
	return &coldJudge{byName: byName}
}

// judge returns r, turned into an error with the cold-build cause when the verdict policy says
// it is one (policy.JudgeTimeout). Safe for concurrent use: the gates end on their own
// goroutines.
func (c *coldJudge) judge(r gates.Result) gates.Result {
	if !r.TimedOut {
		return r
	}
	g, ok := c.byName[r.Name]
	return policy.JudgeTimeout(policy.TimeoutEvidence{Result: r, Check: ok && isCheck(g), Timeout: g.Timeout,
		OwnTimeout: g.TimeoutFrom == gates.TimeoutFromGate, Building: buildingLine(r.Tail)})
}

// all judges every result of the run.
func (c *coldJudge) all(results []gates.Result) []gates.Result {
	for i, r := range results {
		results[i] = c.judge(r)
	}
	return results
}
