package integrity

import (
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// The test harness made unable to fail: an assertion's failure caught and dropped, a runner's
// report rewritten to passed, a built-in matcher or assertion replaced. Read in test and harness
// files (conftest.py, setup files, helpers), where these lines have no honest use.
var (
	harnessNeuters = map[lang]*lazyRegexp{
		langPython: lazy(`\.outcome\s*=\s*["']passed["']|\b(?:unittest\.)?TestCase\.assert\w*\s*=|\bself\.assert\w+\s*=|\btime\.(?:perf_counter|monotonic|time)\s*=\s*lambda`),
		langJS:     lazy(`\bexpect\s*\(.*\}\s*catch\s*(?:\(\s*\w*\s*\))?\s*\{\s*\}|\bexpect\.extend\s*\(\s*\{[^}]*\b(?:toBe|toEqual|toStrictEqual|toMatch|toContain|toThrow|toBeTruthy|toBeFalsy|toHaveLength|toMatchObject)\b\s*[:(]`),
	}
	assertionSwallowed = lazy(`^\s*except\s*(?:\(?[\w., ]*\b)?AssertionError\b[^:]*:\s*(pass|\.\.\.)?\s*$`)
)

// harnessNeutered reports the lines of a test or harness file f that stop its checks failing.
func (j *judge) harnessNeutered(f File, l lang) {
	re := harnessNeuters[l]
	for i, a := range f.Added {
		switch {
		case re != nil && re.MatchString(a.Text):
			j.add(gates.RuleTestNeutered, f.Path, a.N, "the tests' checks made unable to fail: %s", excerpt(a.Text))
		case l == langPython && swallowsAssertion(f, i):
			j.add(gates.RuleTestNeutered, f.Path, a.N, "an assertion's failure caught and dropped: %s", excerpt(a.Text))
		}
	}
}

// swallowsAssertion says whether the i-th added line catches AssertionError and does nothing.
func swallowsAssertion(f File, i int) bool {
	m := assertionSwallowed.FindStringSubmatch(f.Added[i].Text)
	if m == nil {
		return false
	}
	if m[1] != "" {
		return true
	}
	next := nextAdded(f, i)
	return next == "pass" || next == "..." || strings.HasPrefix(next, "return")
}
