package integrity

import (
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// A test that branches on the variables gauntlet gives every gate (GAUNTLET=1, GAUNTLET_GATE,
// GAUNTLET_RUN_ID, ...) behaves one way where gauntlet judges it and another everywhere else:
// `if os.Getenv("GAUNTLET") != "" { return }` passes only under the judge. Only test files are
// read: code that is not a test reads these variables for good reasons (gauntlet's own recursion
// guard, a tool that wraps gauntlet), and a project's own GAUNTLET_TEST_* names are not
// gauntlet's. Setting one (t.Setenv, process.env.X = ...) is no condition.

// gauntletVar is a read of one of the variables gauntlet gives a gate, by exact name: quoted
// ("GAUNTLET", 'GAUNTLET_GATE', `GAUNTLET`) or as process.env's field.
var gauntletVar = lazy("(?:[\"'`]|\\benv\\.)(GAUNTLET(?:_(?:GATE|RUN_ID|BATCH|SHARD|SESSION_ID|HOOK_EVENT|HOST))?)(?:[\"'`]|\\b)")

// conditionWord is what makes a line a condition (or a skip decided by one).
var conditionWord = lazy(`\bif\b|\?|&&|\|\||==|!=|\bskip|Skip|\bunless\b|\bwhen\b|\bnot\s+in\b`)

// setsVariable is a line that sets or clears a variable rather than reading it.
var setsVariable = lazy(`(?i)setenv|unsetenv|\benv\.\w+\s*=[^=]|environ\[[^\]]*\]\s*=[^=]|\bdelete\s+process\.env|monkeypatch`)

// checkJudged reports the conditions on gauntlet's own variables the change adds to test files.
func (j *judge) checkJudged() {
	for _, f := range j.files {
		if f.Deleted || !isTestFile(f.Path) || notOurs(f.Path) {
			continue
		}
		for _, l := range f.Added {
			m := gauntletVar.FindStringSubmatch(l.Text)
			if m == nil || setsVariable.MatchString(l.Text) || !conditionWord.MatchString(l.Text) {
				continue
			}
			j.add(gates.RuleTestNeutered, f.Path, l.N, "a condition on gauntlet's own variable %s: the test behaves differently only where gauntlet judges it (%s)",
				m[1], excerpt(strings.TrimSpace(l.Text)))
		}
	}
}
