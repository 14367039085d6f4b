package census

import (
	"regexp"
	"slices"
	"strings"
)

// Running some tests alone: to tell a flaky test from a broken one (run again, once, by itself),
// and to learn how a test that fails now ended at the base without running the base's whole
// suite. Each runner selects tests its own way; the arguments go after the runner's word, as a
// Request's do, so that everything else the gate's command says (build tags, flags, the
// packages, a pipe) still holds.

// maxSelected bounds how many tests one selection names (its pattern grows with them): past it,
// the caller runs none alone.
const maxSelected = 500

// selectors are the runners whose tests can be selected by name, by Request.Runner.
var selectors = map[string]func(tests []Test) []string{
	"go test": selectGo,
	"pytest":  selectPytest,
	// node --test matches its name pattern against each test's own name, vitest and jest
	// against the names of its describe blocks and its own joined by a space: the leaf name,
	// unanchored, selects the test in each.
	"node --test": func(tests []Test) []string { return []string{"--test-name-pattern", leafPattern(tests)} },
	"vitest":      func(tests []Test) []string { return []string{"-t", leafPattern(tests)} },
	"jest":        func(tests []Test) []string { return []string{"-t", leafPattern(tests)} },
}

// Select is req with the arguments that make its runner run only tests (of its census), and
// false when the runner cannot select tests by name or there are too many. The caller applies
// it to the gate's command with Apply, and reads the census of that run as of the gate's.
func Select(req Request, tests []Test) (Request, bool) {
	sel, ok := selectors[req.Runner]
	if !ok || len(tests) == 0 || len(tests) > maxSelected || req.Problem != "" {
		return Request{}, false
	}
	return Request{Runner: req.Runner, At: req.At, Offset: req.Offset, Args: sel(tests)}, true
}

// selectGo runs the tests' top-level functions (a subtest runs with its parent, whose census
// says how the subtest ended) in whatever packages the command names, each run counted afresh.
func selectGo(tests []Test) []string {
	return []string{"-count=1", "-run", "^(" + strings.Join(alternatives(tests, func(t Test) string {
		top, _, _ := strings.Cut(t.Name, "/")
		return top
	}), "|") + ")$"}
}

// selectPytest runs the tests by the keyword expression of their function names (a
// parametrised case by its function's).
func selectPytest(tests []Test) []string {
	names := alternatives(tests, func(t Test) string {
		name := t.Name
		if i := strings.LastIndexAny(name, ":."); i >= 0 {
			name = name[i+1:]
		}
		name, _, _ = strings.Cut(name, "[")
		return name
	})
	for i, n := range names {
		names[i] = strings.ReplaceAll(n, `\`, "") // -k takes names, not expressions
	}
	return []string{"-p", "no:randomly", "-k", strings.Join(names, " or ")}
}

// leafPattern matches any of the tests' own names (the part after the last " > ").
func leafPattern(tests []Test) string {
	return strings.Join(alternatives(tests, func(t Test) string {
		name := t.Name
		if i := strings.LastIndex(name, " > "); i >= 0 {
			name = name[i+len(" > "):]
		}
		return name
	}), "|")
}

// alternatives is each test's name as part picks it, regexp-quoted, once, in order.
func alternatives(tests []Test, part func(Test) string) []string {
	var out []string
	for _, t := range tests {
		p := regexp.QuoteMeta(part(t))
		if p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// Failing are the tests of c that failed, in order.
func (c Census) Failing() []Test {
	var out []Test
	for _, t := range c.Tests {
		if t.Outcome == Fail {
			out = append(out, t)
		}
	}
	return out
}

// Outcomes are the outcomes of c's tests by ID.
func (c Census) Outcomes() map[string]Outcome {
	out := make(map[string]Outcome, len(c.Tests))
	for _, t := range c.Tests {
		out[t.ID] = t.Outcome
	}
	return out
}

// UnitFailed says whether c has the part suite failing as a whole.
func (c Census) UnitFailed(suite string) bool {
	return slices.ContainsFunc(c.Failed, func(u Unit) bool { return u.Suite == suite })
}

// Sole says whether c is one simple command that runs one test runner Detect knows: only then does
// its census say everything that failed it (`go test ./... && go vet ./...` can fail for vet with
// every test passing, or failing as at the base).
func Sole(c Command) bool {
	return len(commandWords(c)) == 1 && len(Detect(c)) == 1
}
