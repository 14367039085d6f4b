package census

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode"
)

// ChangeInfo is what Compare needs to know of the change, built by the caller from git. Paths
// are relative to the project root with forward slashes, as in a census.
type ChangeInfo struct {
	DeletedTests  []string          // test files the change deleted
	RenamedTests  map[string]string // test files the change moved: old path to new path
	ModifiedTests []string          // test files the change edited in place
	DeletedCode   []string          // files other than tests the change deleted
	DeletedDirs   []string          // directories the change removed entirely
	// RemovedNames are functions, types or classes whose definition the change removed from
	// files it kept (func ParseLegacy): a test named after one may go with it.
	RemovedNames []string
	// BaseDigests and NowDigests are the digests of the tests' bodies the caller read from the
	// test files the change touched, at the base and now, for tests the runner gives none.
	BaseDigests, NowDigests Digests
	// Digested says the digests hold every test of the test files the change touched: a test
	// with no digest on either side is then in a file the change did not touch, unchanged.
	Digested bool
}

// Kind is what a finding says of the tests.
type Kind string

const (
	KindFailing Kind = "failing" // passed at the base, fails here (or its package does)
	KindSkipped Kind = "skipped" // passed at the base, skipped here
	KindMissing Kind = "missing" // passed at the base, did not run here
	KindFewer   Kind = "fewer"   // fewer tests pass than at the base, beyond what is named
	KindEmpty   Kind = "empty"   // the runner reported no tests at all
)

// Finding is one thing the census says the change did to the tests.
type Finding struct {
	Kind    Kind
	Test    string // the test's ID at the base; empty for a finding on the count
	Now     string // the ID it is judged under here, when it changed name
	File    string // the test's file at the base, when known
	Message string
}

// Integrity is true for a finding on how the change weakened the tests, false for a test that
// fails (which its gate reports as a failure anyway).
func (f Finding) Integrity() bool { return f.Kind != KindFailing }

// maxNamed bounds the findings named test by test, per kind; the rest are counted in one more.
const maxNamed = 100

// Compare judges the tests of a change against those of its base: every test that passed at
// the base must still run and pass. Only base and now read the same way (the same gate, the
// same format) compare.
//
// A test that passed at the base is found here by its ID, or else by the first of these rules
// that finds it a successor among the tests that are new here:
//
//  1. the same body: a new test with the digest the caller gave the base test (renamed, moved);
//  2. its file renamed: a new test of the same name in the file it became;
//  3. its parent renamed: TestSum/empty follows TestSum when TestSum was found as TestTotal;
//  4. the same name in another suite: moved to another package, module or class;
//  5. the same name but for case and punctuation, in its suite: a table-driven rewrite that
//     keeps its cases (TestParseEmpty and TestParse/empty, test_add_small and
//     test_add[small]), either way;
//  6. the same last name in its suite and file: its describe block or module renamed;
//  7. a split: two or more new tests of its suite and file whose names start with its name
//     (TestParse into TestParseEmpty and TestParseLong), or whose last names start with its
//     last name;
//  8. a typo fixed: the one new whole test (no subtest) of its suite and file whose name is at
//     most two letters away, one in eight (TestHidesDeperecated and TestHidesDeprecated);
//  9. a case renamed by its data: a subtest of an unchanged test whose parent runs as many new
//     subtests as it lost (a map key of the code under test renamed);
//  10. a title shortened or lengthened at a word's end: the one new test of its suite, file and
//     parent (not a Go subtest) whose last name starts its own or extends it;
//  11. the one case of a table folded into its test, which runs here without subtests;
//  12. a describe block of one test made the test's title under another describe.
//
// Rule 7 also finds a split by last names, its describe renamed. Rules 1 to 6 and 8 to 10 give each new test to one base test at most; a split's tests may serve several,
// which is why the count of passing tests is compared too. The test is then judged by its
// successors: one that fails makes it failing, one skipped makes it skipped.
//
// A test found nowhere went with the code it tests, and stays quiet, when its file was deleted
// together with a code file of the same stem (lib_test.go and lib.go, test_parser.py and
// parser.py, lib.test.ts and lib.ts; for Go in the same directory), when its directory was
// removed entirely, or when its file was deleted or edited (or is not known) and its name
// starts with a removed name or a deleted file's stem (TestParseLegacy and ParseLegacy,
// parser::tests::parses and parser.rs). Otherwise it is failing when its package or the whole
// run failed here, and missing when not.
//
// Beyond the tests named one by one: a runner that reported no tests at all, where the base had
// passing ones, is one finding instead of one per test; and a fall in the count of passing tests
// (those without subtests: a parent is a container) that the named findings and the excused
// deletions do not account for is one more.
//
// What a census cannot see: a test that still passes but no longer checks anything (coverage
// judges that), a test renamed and weakened at once, and a test replaced by a split or a
// table whose new tests check less.
func Compare(base, now Census, change ChangeInfo) []Finding {
	base, now = withGoFiles(withDigests(base, change.BaseDigests), change.BaseDigests), withDigests(now, change.NowDigests)
	m := newMatcher(base, now, change)
	var named []Finding
	excused := 0
	for _, t := range passingParentsFirst(base) {
		if here := m.foundHere(t); len(here) > 0 {
			if f, bad := judge(t, here); bad {
				named = append(named, f)
			}
			continue
		}
		if m.wentWithCode(t) {
			excused++
			continue
		}
		named = append(named, m.absent(t))
	}
	slices.SortStableFunc(named, func(a, b Finding) int { return cmp.Compare(a.Test, b.Test) })
	out := nameFindings(now, named)
	if fewer, ok := fewerPassing(base, now, len(named)+excused); ok {
		out = append(out, fewer)
	}
	return out
}

// passingParentsFirst is the tests that passed at the base, parents before their subtests, so
// that a subtest can follow its parent's new name.
func passingParentsFirst(base Census) []*Test {
	var basePassing []*Test
	for i := range base.Tests {
		if base.Tests[i].Outcome == Pass {
			basePassing = append(basePassing, &base.Tests[i])
		}
	}
	slices.SortStableFunc(basePassing, func(a, b *Test) int {
		return cmp.Or(cmp.Compare(depth(a.Name), depth(b.Name)), cmp.Compare(a.ID, b.ID))
	})
	return basePassing
}

// foundHere is the tests a base test is found as here: itself by its ID, else its successors.
func (m *matcher) foundHere(t *Test) []*Test {
	if n, ok := m.now[t.ID]; ok {
		return []*Test{n}
	}
	return m.successors(t)
}

// nameFindings is the named findings as reported: one finding when no test ran at all, else
// each kind capped.
func nameFindings(now Census, named []Finding) []Finding {
	if len(now.Tests) == 0 && len(named) > 0 {
		return []Finding{nothingRan(now, named)}
	}
	return capPerKind(named)
}

// fewerPassing is the finding on a fall in the count of passing tests beyond the explained ones
// (named or excused); false when there is none.
func fewerPassing(base, now Census, explained int) (Finding, bool) {
	passedThen, passedNow := countPassing(base), countPassing(now)
	fall := passedThen - passedNow
	if fall <= explained {
		return Finding{}, false
	}
	return Finding{Kind: KindFewer, Message: fmt.Sprintf("%d fewer %s here than at the base (%d then, %d now)",
		fall, plural(fall, "test passes", "tests pass"), passedThen, passedNow)}, true
}

// judge is the finding on a base test that passed, from the tests it is found as here.
func judge(t *Test, now []*Test) (Finding, bool) {
	worst := worstOf(now)
	if worst == nil {
		return Finding{}, false
	}
	f := Finding{Test: t.ID, File: t.File}
	as := ""
	if worst.ID != t.ID {
		f.Now = worst.ID
		as = " as " + worst.Name
	}
	if worst.Outcome == Fail {
		f.Kind = KindFailing
		f.Message = fmt.Sprintf("%s passed at the base and fails here%s%s", t.Name, as, where(t))
	} else {
		f.Kind = KindSkipped
		f.Message = fmt.Sprintf("%s passed at the base and is skipped here%s%s", t.Name, as, where(t))
	}
	return f, true
}

// worstOf is the last of the tests that failed, else the last skipped; nil when all passed.
func worstOf(now []*Test) *Test {
	var worst *Test
	for _, n := range now {
		if n.Outcome == Fail || (n.Outcome == Skip && (worst == nil || worst.Outcome != Fail)) {
			worst = n
		}
	}
	return worst
}

// where is where a finding's test lives, after ": ": its file, else its suite; "" when the runner
// names neither.
func where(t *Test) string {
	switch {
	case t.File != "":
		return ": " + t.File
	case t.Suite != "":
		return ": " + t.Suite
	}
	return "" // node's reporters name neither
}

// absent is the finding on a base test that passed and is not here.
func (m *matcher) absent(t *Test) Finding {
	f := Finding{Kind: KindMissing, Test: t.ID, File: t.File}
	if m.unitFailed(t) != nil {
		f.Kind = KindFailing
	}
	f.Message = fmt.Sprintf("%s passed at the base and did not run here%s", t.Name, where(t))
	if why := m.whyAbsent(t); why != "" {
		f.Message += " (" + why + ")"
	}
	return f
}

// whyAbsent says why a base test may not have run here: its unit failed, its file was deleted
// or moved, the census is incomplete; "" when nothing says.
func (m *matcher) whyAbsent(t *Test) string {
	switch u := m.unitFailed(t); {
	case u != nil:
		return unitReason(*u)
	case t.File != "" && m.deletedTests[t.File]:
		return "deleted"
	case t.File != "" && m.change.RenamedTests[t.File] != "":
		return "moved to " + m.change.RenamedTests[t.File]
	case !m.nowCensus.Complete:
		return incomplete(m.nowCensus)
	}
	return ""
}

// unitReason is a failed unit's reason, after its suite when it names one.
func unitReason(u Unit) string {
	if u.Suite != "" {
		return u.Suite + ": " + u.Reason
	}
	return u.Reason
}

func (m *matcher) unitFailed(t *Test) *Unit {
	for i, u := range m.nowCensus.Failed {
		if u.Suite == "" || u.Suite == t.Suite {
			return &m.nowCensus.Failed[i]
		}
	}
	return nil
}

// nothingRan is the one finding for a run that reported no tests where the base had some.
func nothingRan(now Census, named []Finding) Finding {
	var names []string
	for _, f := range named {
		_, name, ok := strings.Cut(f.Test, "::")
		if !ok {
			name = f.Test
		}
		names = append(names, name)
	}
	slices.Sort(names)
	list := strings.Join(names[:min(len(names), 5)], ", ")
	if len(names) > 5 {
		list += fmt.Sprintf(" and %d more", len(names)-5)
	}
	passed := fmt.Sprintf("%d passed at the base (%s)", len(names), list)
	if len(now.Failed) > 0 {
		var reasons []string
		for _, u := range now.Failed[:min(len(now.Failed), 5)] {
			reasons = append(reasons, unitReason(u))
		}
		return Finding{Kind: KindFailing, Message: "no test ran: " + strings.Join(reasons, "; ") + "; " + passed}
	}
	f := Finding{Kind: KindEmpty, Message: "the runner reported no tests; " + passed}
	if !now.Complete {
		f.Message += " (" + incomplete(now) + ")"
	}
	return f
}

func incomplete(c Census) string {
	if len(c.Notes) == 0 {
		return "the census is incomplete"
	}
	return "the census is incomplete: " + strings.Join(c.Notes, "; ")
}

func capPerKind(named []Finding) []Finding {
	var out []Finding
	seen := map[Kind]int{}
	for _, f := range named {
		seen[f.Kind]++
		if seen[f.Kind] <= maxNamed {
			out = append(out, f)
		}
	}
	for _, k := range []Kind{KindFailing, KindSkipped, KindMissing} {
		if rest := seen[k] - maxNamed; rest > 0 {
			out = append(out, Finding{Kind: k, Message: fmt.Sprintf("and %d more %s that passed at the base and %s here",
				rest, plural(rest, "test", "tests"), map[Kind]string{KindFailing: "fail", KindSkipped: "are skipped", KindMissing: "did not run"}[k])})
		}
	}
	return out
}

// countPassing counts the passing tests that have no subtests: a parent is a container, and a
// table rewritten as separate tests (or back) keeps the count.
func countPassing(c Census) int {
	parents := map[string]bool{}
	for _, t := range c.Tests {
		for p, _, sep := splitLast(t.Name); sep != ""; p, _, sep = splitLast(p) {
			parents[joinID(t.Suite, p)] = true
		}
	}
	n := 0
	for _, t := range c.Tests {
		if t.Outcome == Pass && !parents[t.ID] {
			n++
		}
	}
	return n
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// matcher holds the indexes the rules look tests up in: each rule reads one list of new tests,
// so that a change that renames every test (a module renamed) costs no more than the tests.
type matcher struct {
	nowCensus    Census
	change       ChangeInfo
	now          map[string]*Test
	used         map[*Test]bool
	found        map[string][]*Test // base ID to its successors
	deletedTests map[string]bool
	touched      map[string]bool // test files deleted or edited
	subjects     []string        // normalized removed names and deleted files' stems
	typoChecks   int             // names compared for a typo, up to maxTypoChecks

	base     map[string]*Test   // the base's tests by ID
	baseKids map[string][]*Test // the base's tests by their parent's ID
	renames  map[string]int     // per parent: its base subtests gone less the new ones, once counted

	// The tests new here, by what each rule looks them up by.
	byDigest, byID, byName, byFileName, bySuiteNorm, bySuiteLeaf map[string][]*Test
	bySuite                                                      map[string][]*Test // sorted by name
	byParent                                                     map[string][]*Test
}

// maxTypoChecks bounds the pairs of names compared for a typo in one comparison (a rename of
// thousands of tests pairs each with each): past it, a test renamed with a typo is missing.
const maxTypoChecks = 1 << 20

func key(parts ...string) string { return strings.Join(parts, "\x00") }

func newMatcher(base, now Census, change ChangeInfo) *matcher {
	m := &matcher{nowCensus: now, change: change, now: map[string]*Test{}, used: map[*Test]bool{},
		found: map[string][]*Test{}, deletedTests: map[string]bool{}, touched: map[string]bool{},
		byDigest: map[string][]*Test{}, byID: map[string][]*Test{}, byName: map[string][]*Test{}, byFileName: map[string][]*Test{},
		bySuiteNorm: map[string][]*Test{}, bySuiteLeaf: map[string][]*Test{}, bySuite: map[string][]*Test{}, byParent: map[string][]*Test{}}
	inBase := map[string]bool{}
	m.base, m.baseKids, m.renames = map[string]*Test{}, map[string][]*Test{}, map[string]int{}
	for i := range base.Tests {
		t := &base.Tests[i]
		inBase[t.ID] = true
		m.base[t.ID] = t
		if parent, _, sep := splitLast(t.Name); sep != "" {
			m.baseKids[joinID(t.Suite, parent)] = append(m.baseKids[joinID(t.Suite, parent)], t)
		}
	}
	for i := range now.Tests {
		t := &now.Tests[i]
		m.now[t.ID] = t
		if !inBase[t.ID] {
			m.index(t)
		}
	}
	for _, ts := range m.bySuite {
		slices.SortFunc(ts, func(a, b *Test) int { return strings.Compare(a.Name, b.Name) })
	}
	m.noteChange(change)
	return m
}

// index files a test new here under each key a rule looks it up by.
func (m *matcher) index(t *Test) {
	if t.Digest != "" {
		m.byDigest[t.Digest] = append(m.byDigest[t.Digest], t)
	}
	m.byID[t.ID] = append(m.byID[t.ID], t)
	m.byName[t.Name] = append(m.byName[t.Name], t)
	m.byFileName[key(t.File, t.Name)] = append(m.byFileName[key(t.File, t.Name)], t)
	m.bySuiteNorm[key(t.Suite, normalize(t.Name))] = append(m.bySuiteNorm[key(t.Suite, normalize(t.Name))], t)
	if _, leaf, sep := splitLast(t.Name); sep != "" {
		m.bySuiteLeaf[key(t.Suite, leaf)] = append(m.bySuiteLeaf[key(t.Suite, leaf)], t)
	}
	m.bySuite[t.Suite] = append(m.bySuite[t.Suite], t)
	if parent, _, sep := splitLast(t.Name); sep != "" {
		m.byParent[joinID(t.Suite, parent)] = append(m.byParent[joinID(t.Suite, parent)], t)
	}
}

// noteChange files what the change deleted, edited and removed, for wentWithCode.
func (m *matcher) noteChange(change ChangeInfo) {
	for _, f := range change.DeletedTests {
		m.deletedTests[f] = true
		m.touched[f] = true
	}
	for _, f := range change.ModifiedTests {
		m.touched[f] = true
	}
	m.subjects = appendSubjects(m.subjects, change.RemovedNames, func(n string) string { return n })
	m.subjects = appendSubjects(m.subjects, change.DeletedCode, stem)
}

// appendSubjects appends the normalized subject of each name, as subjectOf reads it, when it is
// long enough to tell a test's subject (three letters or more).
func appendSubjects(subjects, names []string, subjectOf func(string) string) []string {
	for _, n := range names {
		if s := normalize(subjectOf(n)); len(s) >= 3 {
			subjects = append(subjects, s)
		}
	}
	return subjects
}

// successorRule is one of Compare's rules: the successors it finds for a base test, nil when
// it finds none and the next rule is asked.
type successorRule func(m *matcher, t *Test, name nameParts) []*Test

// nameParts is a base test's name cut at its last separator (see splitLast).
type nameParts struct{ parent, leaf, sep string }

// successorRules are the rules of Compare's doc, in order.
var successorRules = []successorRule{
	(*matcher).sameDigest,
	(*matcher).fileRenamed,
	(*matcher).parentRenamed,
	(*matcher).sameName,
	(*matcher).sameNormalizedName,
	(*matcher).sameLeaf,
	(*matcher).split,
	(*matcher).typoFixed,
	(*matcher).dataRenamed,
	(*matcher).titleResized,
	(*matcher).foldedIntoParent,
	(*matcher).describeMadeTitle,
}

// successors finds a base test under the rules of Compare's doc, in order.
func (m *matcher) successors(t *Test) []*Test {
	parent, leaf, sep := splitLast(t.Name)
	name := nameParts{parent: parent, leaf: leaf, sep: sep}
	for _, rule := range successorRules {
		if s := rule(m, t, name); s != nil {
			return s
		}
	}
	return nil
}

// one takes, among the unused candidates a rule found, the likeliest: one in the test's own
// suite, then in its own file.
func (m *matcher) one(t *Test, cands []*Test) []*Test {
	var pick *Test
	for _, n := range cands {
		if m.used[n] {
			continue
		}
		if pick == nil || likelier(t, n, pick) {
			pick = n
		}
	}
	if pick == nil {
		return nil
	}
	m.used[pick] = true
	m.found[t.ID] = []*Test{pick}
	return m.found[t.ID]
}

// likelier says whether candidate n is a likelier successor of t than pick: in t's suite where
// pick is not, or in t's file where pick is not.
func likelier(t, n, pick *Test) bool {
	inSuite := n.Suite == t.Suite && pick.Suite != t.Suite
	inFile := t.File != "" && n.File == t.File && pick.File != t.File
	return inSuite || inFile
}

// sameFile says whether n may live in t's file: the same file, or either file unknown.
func sameFile(t, n *Test) bool { return t.File == "" || n.File == "" || n.File == t.File }

// sameDigest is rule 1: the same body.
func (m *matcher) sameDigest(t *Test, _ nameParts) []*Test {
	if t.Digest == "" {
		return nil
	}
	return m.one(t, m.byDigest[t.Digest])
}

// fileRenamed is rule 2: the same name in the file the test's file became.
func (m *matcher) fileRenamed(t *Test, _ nameParts) []*Test {
	to := m.change.RenamedTests[t.File]
	if t.File == "" || to == "" {
		return nil
	}
	return m.one(t, m.byFileName[key(to, t.Name)])
}

// parentRenamed is rule 3: a subtest follows its parent's new name.
func (m *matcher) parentRenamed(t *Test, name nameParts) []*Test {
	if name.sep == "" {
		return nil
	}
	ps := m.found[joinID(t.Suite, name.parent)]
	if len(ps) != 1 {
		return nil
	}
	return m.one(t, m.byID[joinID(ps[0].Suite, ps[0].Name+name.sep+name.leaf)])
}

// sameName is rule 4: the same name in another suite.
func (m *matcher) sameName(t *Test, _ nameParts) []*Test {
	return m.one(t, m.byName[t.Name])
}

// sameNormalizedName is rule 5: the same name but for case and punctuation, in its suite.
func (m *matcher) sameNormalizedName(t *Test, _ nameParts) []*Test {
	return m.one(t, m.bySuiteNorm[key(t.Suite, normalize(t.Name))])
}

// sameLeaf is rule 6: the one unused test of the same last name in its suite and file.
func (m *matcher) sameLeaf(t *Test, name nameParts) []*Test {
	if name.sep == "" {
		return nil
	}
	var c []*Test
	for _, n := range m.bySuiteLeaf[key(t.Suite, name.leaf)] {
		if !m.used[n] && sameFile(t, n) {
			c = append(c, n)
		}
	}
	if len(c) != 1 {
		return nil
	}
	return m.one(t, c)
}

// split is rule 7: two or more new tests of its suite and file, at its depth, whose names
// start with its name.
func (m *matcher) split(t *Test, name nameParts) []*Test {
	suite := m.bySuite[t.Suite]
	var split []*Test
	start, _ := slices.BinarySearchFunc(suite, t.Name, func(n *Test, name string) int { return strings.Compare(n.Name, name) })
	for i := start; i < len(suite) && strings.HasPrefix(suite[i].Name, t.Name); i++ {
		if n := suite[i]; m.splitPart(t, n) {
			split = append(split, n)
		}
	}
	if len(split) < 2 {
		split = m.leafSplit(t, name)
	}
	if len(split) < 2 {
		return nil
	}
	m.found[t.ID] = split
	return split
}

// leafSplit is rule 7 by last names: two or more new tests of its suite and file, at its depth,
// whose last names start with its last name, whatever their describe blocks (a test split in
// two under a describe named after another import).
func (m *matcher) leafSplit(t *Test, name nameParts) []*Test {
	if name.sep == "" || t.File == "" {
		return nil
	}
	var split []*Test
	for _, n := range m.bySuite[t.Suite] {
		if m.typoChecks >= maxTypoChecks {
			return nil
		}
		m.typoChecks++
		_, leaf, sep := splitLast(n.Name)
		if sep != "" && !m.used[n] && n.File == t.File && depth(n.Name) == depth(t.Name) &&
			len(leaf) > len(name.leaf) && strings.HasPrefix(leaf, name.leaf) {
			split = append(split, n)
		}
	}
	return split
}

// splitPart says whether n, whose name starts with t's, may be a part of t split up.
func (m *matcher) splitPart(t, n *Test) bool {
	return !m.used[n] && sameFile(t, n) && len(n.Name) > len(t.Name) && depth(n.Name) == depth(t.Name)
}

// typoFixed is rule 8: a typo fixed in a test's name, one new whole test of its suite and file
// a letter or two away. Not a subtest: a table case's name is data, where one letter tells
// cases apart.
func (m *matcher) typoFixed(t *Test, name nameParts) []*Test {
	if name.sep != "" {
		return nil
	}
	normalized := normalize(t.Name)
	var c []*Test
	for _, n := range m.bySuite[t.Suite] {
		if !m.typoCandidate(t, n) {
			continue
		}
		m.typoChecks++
		if typo(normalized, normalize(n.Name)) {
			c = append(c, n)
		}
	}
	if len(c) != 1 {
		return nil
	}
	return m.one(t, c)
}

// typoCandidate says whether n is worth comparing with t for a typo: unused, a whole test in
// t's file, and the comparisons' budget not spent.
func (m *matcher) typoCandidate(t, n *Test) bool {
	return !m.used[n] && sameFile(t, n) && depth(n.Name) == 1 && m.typoChecks < maxTypoChecks
}

// typo says whether two normalized names are one name with a typo fixed: at most two letters
// inserted, deleted or replaced, and at most one in every eight letters of the shorter name.
func typo(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	if a == b {
		return false
	}
	if len(ra) > len(rb) {
		ra, rb = rb, ra
	}
	edits := min(2, len(ra)/8)
	if edits == 0 || len(rb)-len(ra) > edits {
		return false
	}
	return withinEdits(ra, rb, edits)
}

// withinEdits says whether the Levenshtein distance from ra to rb is at most edits, computed
// within the band of cells |i-j| <= edits (a path leaving it costs more), and abandoned once
// every cell of a row exceeds the edits allowed.
func withinEdits(ra, rb []rune, edits int) bool {
	far := edits + 1
	prev, cur := make([]int, len(rb)+1), make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = min(j, far)
	}
	for i := 1; i <= len(ra); i++ {
		if bandRow(ra, rb, i, edits, prev, cur) > edits {
			return false
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)] <= edits
}

// bandRow fills row i of the band in cur from the row before, prev, and returns its least cell.
func bandRow(ra, rb []rune, i, edits int, prev, cur []int) int {
	far := edits + 1
	lo, hi := max(1, i-edits), min(len(rb), i+edits)
	cur[lo-1] = far
	if lo == 1 {
		cur[0] = min(i, far)
	}
	best := far
	for j := lo; j <= hi; j++ {
		up := far
		if j <= i-1+edits {
			up = prev[j]
		}
		cost := 1
		if ra[i-1] == rb[j-1] {
			cost = 0
		}
		cur[j] = min(up+1, cur[j-1]+1, prev[j-1]+cost, far)
		best = min(best, cur[j])
	}
	return best
}

// wentWithCode says whether a base test that is not here was deleted with the code it tests.
func (m *matcher) wentWithCode(t *Test) bool {
	return m.deletedWithItsCode(t) || m.inDeletedDir(t) || m.namedAfterRemoved(t)
}

// deletedWithItsCode says whether the test's file was deleted together with a code file of the
// same stem (for Go, in the same directory).
func (m *matcher) deletedWithItsCode(t *Test) bool {
	if t.File == "" || !m.deletedTests[t.File] {
		return false
	}
	st, goTest := stem(t.File), strings.HasSuffix(t.File, ".go")
	for _, f := range m.change.DeletedCode {
		if strings.EqualFold(stem(f), st) && (!goTest || path.Dir(f) == path.Dir(t.File)) {
			return true
		}
	}
	return false
}

// inDeletedDir says whether the test lived in a directory the change removed entirely.
func (m *matcher) inDeletedDir(t *Test) bool {
	for _, d := range m.change.DeletedDirs {
		d = strings.TrimSuffix(d, "/")
		if d != "" && underDir(t, d) {
			return true
		}
	}
	return false
}

// underDir says whether the test lives under directory d: by its file, else by its suite, which
// may be a path (a test file, a Rust target) or a Go import path, which ends with the package's
// directory.
func underDir(t *Test, d string) bool {
	if t.File != "" {
		return strings.HasPrefix(t.File, d+"/")
	}
	return t.Suite == d || strings.HasPrefix(t.Suite, d+"/") || strings.HasSuffix(t.Suite, "/"+d)
}

// namedAfterRemoved says whether a test whose file was deleted or edited (or is not known) is
// named after a removed name or a deleted file's stem.
func (m *matcher) namedAfterRemoved(t *Test) bool {
	if t.File != "" && !m.touched[t.File] {
		return false
	}
	first, _, _ := strings.Cut(strings.ReplaceAll(strings.ReplaceAll(t.Name, " > ", "/"), "::", "/"), "/")
	name := normalize(first)
	name = strings.TrimPrefix(name, "test")
	for _, s := range m.subjects {
		if strings.HasPrefix(name, s) {
			return true
		}
	}
	return false
}

// Separators between a test and its subtests: Go's "/", the " > " of describe blocks (vitest,
// node, jest as read here), Rust's module path "::".
var separators = []string{" > ", "/", "::"}

// splitLast cuts a name at its last separator: parent, leaf and the separator, "" when none.
func splitLast(name string) (parent, leaf, sep string) {
	at := -1
	for _, s := range separators {
		if i := strings.LastIndex(name, s); i > at || (i == at && i >= 0 && len(s) > len(sep)) {
			at, sep = i, s
		}
	}
	if at < 0 {
		return name, "", ""
	}
	return name[:at], name[at+len(sep):], sep
}

func depth(name string) int {
	d := 1
	for _, s := range separators {
		d += strings.Count(name, s)
	}
	return d
}

// normalize keeps the letters and digits of a name, lower case: what survives a rewrite from
// TestParseEmpty to TestParse/empty or from test_add_small to test_add[small].
func normalize(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// stem is a file's name without its extensions and its test affixes: lib_test.go, lib.test.ts,
// test_lib.py, LibTest.java and lib.go all have the stem lib.
func stem(p string) string {
	s := path.Base(p)
	if i := strings.IndexByte(s, '.'); i > 0 {
		s = s[:i]
	}
	for _, suffix := range []string{"_test", "_tests", "_spec", "Tests", "Test", "Spec"} {
		if t, ok := strings.CutSuffix(s, suffix); ok && t != "" {
			return t
		}
	}
	for _, prefix := range []string{"test_", "Test"} {
		if t, ok := strings.CutPrefix(s, prefix); ok && t != "" {
			return t
		}
	}
	return s
}

// dataRenamed is rule 9: a case renamed by the data it is named from (a map of the code under
// test whose key changed): its parent still runs, its test is unchanged (the same digest at the
// base and now, or none on either side where the caller read every file the change touched: its
// file untouched), and the parent lost as many
// subtests as it gained. The new sibling is then the same case.
func (m *matcher) dataRenamed(t *Test, name nameParts) []*Test {
	if name.sep == "" || !m.testUnchanged(t) {
		return nil
	}
	parent := joinID(t.Suite, name.parent)
	if _, ok := m.now[parent]; !ok {
		return nil
	}
	if m.renameBalance(parent) != 0 {
		return nil
	}
	return m.one(t, m.byParent[parent])
}

// renameBalance is how many of a parent's base subtests are not here, less how many subtests
// it has that are new; counted once per parent.
func (m *matcher) renameBalance(parent string) int {
	if n, ok := m.renames[parent]; ok {
		return n
	}
	n := len(m.byParent[parent])
	if n == 0 {
		n = -1 // nothing new: no rename to find
	}
	for _, k := range m.baseKids[parent] {
		if _, ok := m.now[k.ID]; !ok {
			n--
		}
	}
	m.renames[parent] = n
	return n
}

// testUnchanged says whether the whole test a subtest belongs to has the same source at the
// base and now, as far as the digests tell: the same digest, or none on either side when the
// digests hold every touched file's tests.
func (m *matcher) testUnchanged(t *Test) bool {
	root := t.Name
	for p, _, sep := splitLast(root); sep != ""; p, _, sep = splitLast(p) {
		root = p
	}
	id := joinID(t.Suite, root)
	b, n := m.base[id], m.now[id]
	return b != nil && n != nil && b.Digest == n.Digest && (b.Digest != "" || m.change.Digested)
}

// titleResized is rule 10: a title shortened or lengthened in place, the one new test of its
// suite, file and parent whose last name starts its own, or extends it, at a word's end
// ("delimiter should equal :" and "delimiter"). Not a Go subtest: a table case's name is data.
func (m *matcher) titleResized(t *Test, name nameParts) []*Test {
	if name.sep == "/" {
		return nil
	}
	var c []*Test
	for _, n := range m.bySuite[t.Suite] {
		if m.typoChecks >= maxTypoChecks {
			return nil
		}
		m.typoChecks++
		parent, leaf, sep := splitLast(n.Name)
		if !m.used[n] && sameFile(t, n) && parent == name.parent && sep == name.sep && resized(name.leaf, leaf) {
			c = append(c, n)
		}
	}
	if len(c) != 1 {
		return nil
	}
	return m.one(t, c)
}

// resized says whether one title is the other cut at a word's end.
func resized(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(a) < 3 || len(a) == len(b) || !strings.HasPrefix(b, a) {
		return false
	}
	r := rune(b[len(a)])
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// foldedIntoParent is rule 11: the one case of a table folded into its test, which runs here
// without subtests: the test is its successor. A table of more cases emptied is not: its cases
// are named.
func (m *matcher) foldedIntoParent(t *Test, name nameParts) []*Test {
	if name.sep == "" {
		return nil
	}
	parent := joinID(t.Suite, name.parent)
	p, ok := m.now[parent]
	if !ok || len(m.baseKids[parent]) != 1 || len(m.byParent[parent]) > 0 || m.hasKidsNow(p) {
		return nil
	}
	m.found[t.ID] = []*Test{p}
	return m.found[t.ID]
}

// hasKidsNow says whether a test has subtests here, new or not.
func (m *matcher) hasKidsNow(p *Test) bool {
	for _, k := range m.baseKids[p.ID] {
		if _, ok := m.now[k.ID]; ok {
			return true
		}
	}
	return false
}

// describeMadeTitle is rule 12: a describe block of one test made that test's title under
// another describe ("normalizeAliases > should work" and "alias > normalizeAliases"): the one
// new test of its suite and file, at its depth, whose last name is its describe's.
func (m *matcher) describeMadeTitle(t *Test, name nameParts) []*Test {
	if name.sep != " > " || len(m.baseKids[joinID(t.Suite, name.parent)]) != 1 {
		return nil
	}
	_, describe, _ := splitLast(name.parent)
	if describe == "" {
		describe = name.parent
	}
	var c []*Test
	for _, n := range m.bySuiteLeaf[key(t.Suite, describe)] {
		if !m.used[n] && sameFile(t, n) && depth(n.Name) == depth(t.Name) {
			c = append(c, n)
		}
	}
	if len(c) != 1 {
		return nil
	}
	return m.one(t, c)
}
