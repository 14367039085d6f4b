package gates

// Integrity rule ids: each names one way a change can weaken the gates instead of fixing the
// code. They appear in reports, in the SARIF rules and as keys of the config's `integrity.rules`.
const (
	RuleTestFileRemoved   = "test-file-removed"   // a test file deleted or renamed out of the test pattern
	RuleTestRemoved       = "test-removed"        // a test function removed
	RuleTestSkipped       = "test-skipped"        // a skip added (t.Skip, it.skip, @pytest.mark.skip, #[ignore], ...)
	RuleTestFocused       = "test-focused"        // a focus added (.only, fit, fdescribe): the other tests stop running
	RuleAssertionsDropped = "assertions-dropped"  // fewer assertions in the test files than before
	RuleTestNeutered      = "test-neutered"       // a test made unable to fail: returns first, a check made constant false, TestMain hiding failures
	RuleSuppressionAdded  = "suppression-added"   // //nolint, # noqa, @ts-ignore, #[allow(...)], ...
	RuleGateRelaxed       = "gate-relaxed"        // a gate removed, disabled, narrowed or its command changed in .gauntlet.yml
	RuleIntegrityRelaxed  = "integrity-relaxed"   // the integrity settings themselves lowered
	RuleLintRelaxed       = "lint-relaxed"        // a linter or lint rule turned off, or exclusions added
	RuleTypecheckRelaxed  = "typecheck-relaxed"   // tsconfig strictness, mypy or pyright checks turned off
	RuleCoverageLowered   = "coverage-lowered"    // a coverage threshold lowered or removed
	RuleScriptNeutered    = "script-neutered"     // a test/lint script or make target replaced by one that cannot fail
	RuleTestsExcluded     = "tests-excluded"      // the tests a runner selects narrowed, in its config or in a command a check runs
	RuleCICheckRemoved    = "ci-check-removed"    // a CI step that runs checks removed or allowed to fail
	RuleHookWeakened      = "hook-weakened"       // the host's gauntlet hook entry removed, disabled or changed
	RuleGateAltered       = "gate-altered"        // a gate or setting of the config at the session's base changed (the stop runs the base's)
	RuleEnvChanged        = "environment-changed" // what steers the tools (PATH, GOFLAGS, go env -w, ...) differs from the session's start
	RuleTestsLost         = "tests-lost"          // measured: a test that passed at the base was skipped, did not run, or fails under a gate that passed
	RuleChangeHidden      = "change-hidden"       // a file git is told not to look at (assume-unchanged, skip-worktree) differs in the work tree
	RuleCoverageLost      = "coverage-lost"       // measured: lines the change did not touch, covered at the base, are not covered now
	// measured: a test that passed at the base fails when the base's test files run against the change's code
	RuleExpectationChanged = "expectation-changed"
	RuleSpecialCased       = "special-cased"    // code compares inputs with a test's literals and returns its expected value
	RuleTestsRead          = "tests-read"       // code reads a test file, the call stack, or whether tests are running
	RuleEqualityIgnored    = "equality-ignored" // an equality method that returns true whatever it compares
	RuleSubjectMocked      = "subject-mocked"   // the module or function under test mocked in its own test
	RuleChangeUncovered    = "change-uncovered" // measured: lines the change added or edited that no test runs (warn unless set)
)

// IntegrityRules lists every rule id, in the order reports and the docs present them.
var IntegrityRules = []string{
	RuleTestFileRemoved, RuleTestRemoved, RuleTestSkipped, RuleTestFocused, RuleAssertionsDropped,
	RuleTestNeutered, RuleSuppressionAdded,
	RuleGateRelaxed, RuleIntegrityRelaxed, RuleLintRelaxed, RuleTypecheckRelaxed, RuleCoverageLowered,
	RuleScriptNeutered, RuleTestsExcluded, RuleCICheckRemoved, RuleHookWeakened, RuleGateAltered,
	RuleEnvChanged, RuleTestsLost, RuleCoverageLost, RuleExpectationChanged, RuleChangeUncovered, RuleChangeHidden,
	RuleSpecialCased, RuleTestsRead, RuleEqualityIgnored, RuleSubjectMocked,
}

// IntegrityRuleSummary is one line per rule, for SARIF rule descriptions and `gauntlet explain`.
var IntegrityRuleSummary = map[string]string{
	RuleTestFileRemoved:    "A test file was deleted or renamed out of the test pattern.",
	RuleTestRemoved:        "A test function was removed.",
	RuleTestSkipped:        "A test was skipped or marked to be skipped.",
	RuleTestFocused:        "A test was focused, so the other tests no longer run.",
	RuleAssertionsDropped:  "The test files have fewer assertions than before.",
	RuleTestNeutered:       "A test was made unable to fail: it returns before its checks, a check's condition is constant false, TestMain hides the failures, or the test binary sets its own test flags or prints go test's framing.",
	RuleSuppressionAdded:   "A lint, type-check or coverage suppression was added.",
	RuleGateRelaxed:        "A gate was removed, disabled, narrowed or its command changed in the gauntlet config.",
	RuleIntegrityRelaxed:   "The integrity settings were lowered.",
	RuleLintRelaxed:        "A linter or lint rule was turned off, or exclusions were added.",
	RuleTypecheckRelaxed:   "A type-checking option was turned off.",
	RuleCoverageLowered:    "A coverage threshold was lowered or removed.",
	RuleScriptNeutered:     "A script or make target the checks run was replaced by one that cannot fail, or made to change what the checks run unseen (go env -w, a makefile included, an untracked or ignored file that shadows what a gate runs).",
	RuleTestsExcluded:      "The tests a runner selects were narrowed: in its configuration (ignores, deselections, test paths or patterns) or in the command a check runs (-run, -k, a path).",
	RuleCICheckRemoved:     "A CI step that runs checks was removed or allowed to fail.",
	RuleHookWeakened:       "The gauntlet hook entry was removed, disabled or changed.",
	RuleGateAltered:        "A gate or setting of the gauntlet config at the session's base was removed, renamed or changed; the stop runs the base's.",
	RuleEnvChanged:         "What steers the tools (PATH, GOFLAGS, a go env -w setting, NODE_OPTIONS, npm's script-shell, a Python usercustomize.py, ...) differs from the session's start.",
	RuleTestsLost:          "A test that passed at the base was skipped or did not run here, fewer tests pass, or a test fails under a gate that passed (the test census).",
	RuleChangeHidden:       "A file git is told not to look at (assume-unchanged, skip-worktree) was edited or deleted in the work tree, where no diff shows it.",
	RuleSpecialCased:       "Code compares its inputs with the literals of a test and returns the test's expected value (a special case for the test, not the problem).",
	RuleTestsRead:          "Code other than the tests reads a test file, reads the call stack to find the test calling it, or asks whether tests are running.",
	RuleEqualityIgnored:    "An equality method (Equal, __eq__, equals) returns true whatever it is given.",
	RuleSubjectMocked:      "A test mocks the module it tests (vi.mock of its own subject), or patches the function its assertions call.",
	RuleExpectationChanged: "A test that passed at the base fails when the base's version of the test files runs against the change's code: the change altered behaviour its own test edits hide.",
	RuleCoverageLost:       "Lines the change did not touch were covered by the gate's tests at the base and are not now (a test that stopped testing).",
	RuleChangeUncovered:    "Lines the change added or edited, in files the gate's tests exercise, are run by no test.",
}

// warnByDefault are the rules that warn unless the policy names them: code no test runs is a
// fact to show, and whether it blocks is the project's call (as diff-cover's --fail-under).
var warnByDefault = map[string]bool{RuleChangeUncovered: true}

// IntegrityLevel is what a rule's findings do: block (fail the run, block the stop), warn (shown,
// the verdict at most warn) or off (not reported).
type IntegrityLevel string

const (
	IntegrityBlock IntegrityLevel = "block"
	IntegrityWarn  IntegrityLevel = "warn"
	IntegrityOff   IntegrityLevel = "off"
)

// Strength orders levels: off < warn < block; "" (unset) is 0.
func (l IntegrityLevel) Strength() int {
	switch l {
	case IntegrityBlock:
		return 3
	case IntegrityWarn:
		return 2
	case IntegrityOff:
		return 1
	}
	return 0
}

// OnlyUncovered says whether every finding of fs is change-uncovered: lines the change wrote
// that no test runs, a measure of the change rather than a way it weakens the gates, which is
// then not what its wording says. false for none.
func OnlyUncovered(fs []IntegrityFinding) bool {
	for _, f := range fs {
		if f.Rule != RuleChangeUncovered {
			return false
		}
	}
	return len(fs) > 0
}

// IntegrityFinding is one way the change weakens the gates. File is relative to the project
// root; Line is 1-based in the file as it is now, 0 when the finding is about the whole file (a
// deleted one) or about a place that no longer exists.
type IntegrityFinding struct {
	Rule    string `json:"rule"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
	// Level is block or warn once the policy is applied; findings at off are dropped.
	Level IntegrityLevel `json:"level,omitempty"`
}

// Blocking reports whether any finding is at level block.
func Blocking(fs []IntegrityFinding) bool {
	for _, f := range fs {
		if f.Level == IntegrityBlock {
			return true
		}
	}
	return false
}

// IntegrityPolicy is the `integrity` setting: a default level and levels per rule. An unset
// level ("") falls back to the context's default: block in the stop hook, warn in `run`.
type IntegrityPolicy struct {
	Default IntegrityLevel
	Rules   map[string]IntegrityLevel
}

// Level is the level of rule in the stop hook (hook) or in `run`.
func (p IntegrityPolicy) Level(rule string, hook bool) IntegrityLevel {
	if l := p.Rules[rule]; l != "" {
		return l
	}
	if warnByDefault[rule] && p.Default != IntegrityOff {
		return IntegrityWarn
	}
	if p.Default != "" {
		return p.Default
	}
	if hook {
		return IntegrityBlock
	}
	return IntegrityWarn
}

// VerdictWithIntegrity is the verdict once the integrity findings count: a blocking finding
// fails the run (fail wins over error, as for gates), a warning turns a pass into a warn.
func VerdictWithIntegrity(v Verdict, fs []IntegrityFinding) Verdict {
	switch {
	case Blocking(fs):
		return VerdictFail
	case len(fs) > 0 && v == VerdictPass:
		return VerdictWarn
	}
	return v
}
