package integrity

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// A test runner's configuration says which tests it collects: pytest's addopts, testpaths,
// norecursedirs and python_* patterns and conftest.py's collect_ignore; jest's and vitest's
// ignore patterns and test patterns. Narrowed, the tests left out stop running while every test
// file stays.

// pytestSection is where each config file keeps pytest's settings.
var pytestSection = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"pyproject.toml": {"tool", "pytest", "ini_options"},
		"pytest.ini":     {"pytest"},
		".pytest.ini":    {"pytest"},
		"tox.ini":        {"pytest"},
		"setup.cfg":      {"tool:pytest"},
	}
})

// pytestDefaults are the collection patterns pytest uses when none is set; the first of each is
// the one a narrower setting must keep.
var pytestDefaults = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"python_files":     {"test_*.py", "*_test.py"},
		"python_classes":   {"Test"},
		"python_functions": {"test"},
	}
})

// pytestSettings are the pytest settings of a parsed config file; ok is false when it has none.
// pytest 9's native [tool.pytest] table counts when there is no ini_options table.
func pytestSettings(file string, tree map[string]any) (map[string]any, bool) {
	keys, known := pytestSection()[path.Base(file)]
	if !known {
		return nil, false
	}
	if m := getMap(tree, keys...); m != nil {
		return m, true
	}
	if path.Base(file) == "pyproject.toml" {
		m := getMap(tree, "tool", "pytest")
		return m, m != nil
	}
	return nil, false
}

// pytestConfig reports pytest's settings narrowed in a config file that configured pytest at the
// base too: a section that appears or goes may be a move between files, which is not judged.
func (j *judge) pytestConfig(c configPair) {
	old, hadOld := pytestSettings(c.file.Path, c.old)
	new, hasNew := pytestSettings(c.file.Path, c.new)
	if !hadOld || !hasNew || c.file.Deleted {
		return
	}
	var found []relaxation
	for _, check := range pytestChecks {
		found = append(found, check(old, new)...)
	}
	for _, r := range found {
		j.add(gates.RuleTestsExcluded, c.file.Path, lineOf(c.newData, r.key), "%s", r.message)
	}
}

// pytestChecks compare the pytest settings that select tests, in report order.
var pytestChecks = []settingCheck{pytestAddopts, pytestTestpaths, pytestNorecursedirs, pytestPatterns}

func pytestAddopts(old, new map[string]any) []relaxation {
	oldOpts := parseRunnerArgs(pytestRunner, pytestWords(old["addopts"]))
	if why := narrowedBy(oldOpts, parseRunnerArgs(pytestRunner, pytestWords(new["addopts"]))); why != "" {
		return relaxed("addopts", "pytest addopts select fewer tests: %s", why)
	}
	return nil
}

// pytestTestpaths judges testpaths: set where it was not (from the whole project) to name files,
// or losing paths.
func pytestTestpaths(old, new map[string]any) []relaxation {
	op, np := items(old["testpaths"]), items(new["testpaths"])
	switch {
	case len(op) == 0 && slices.ContainsFunc(np, namesFile):
		return relaxed("testpaths", "pytest testpaths set to %s: it no longer collects from the whole project", list(np, 3))
	case len(op) == 0 || len(np) == 0:
		return nil
	}
	if lost := uncovered(op, np); len(lost) > 0 {
		return relaxed("testpaths", "pytest testpaths no longer include %s", list(lost, 3))
	}
	return nil
}

func pytestNorecursedirs(old, new map[string]any) []relaxation {
	if skipped := mayHoldTestsOf(grown(old["norecursedirs"], new["norecursedirs"])); len(skipped) > 0 {
		return relaxed("norecursedirs", "pytest no longer recurses into %s", list(skipped, 3))
	}
	return nil
}

// pytestPatterns judges the python_* collection patterns.
func pytestPatterns(old, new map[string]any) []relaxation {
	var found []relaxation
	for _, k := range sortedKeys(anyMap(pytestDefaults())) {
		if lost := lostPatterns(old[k], new[k], pytestDefaults()[k]); len(lost) > 0 {
			found = append(found, relaxed(k, "pytest %s no longer matches %s", k, list(lost, 3))...)
		}
	}
	return found
}

// pytestWords are addopts as words: a TOML list as it is, a string split as a shell would.
func pytestWords(v any) []string {
	if l, ok := v.([]any); ok {
		return items(l)
	}
	var out []string
	for _, cmd := range shellCommands(str(v)) {
		out = append(out, cmd...)
	}
	return out
}

// uncovered are the paths of old that no path of new selects.
func uncovered(old, new []string) []string {
	var out []string
	for _, o := range old {
		if !slices.ContainsFunc(new, func(n string) bool { return pathCovers(n, o) }) {
			out = append(out, o)
		}
	}
	return out
}

// lostPatterns are a collection setting's patterns the new one no longer has. Against pytest's
// default, only the main pattern counts: python_files = test_*.py keeps every test_ module.
func lostPatterns(old, new any, defaults []string) []string {
	if new == nil {
		return nil // back to the default
	}
	was := items(old)
	if old == nil {
		was = defaults[:1]
	}
	return grown(new, anySlice(was))
}

// collectIgnoreStart opens a statement of conftest.py that adds to collect_ignore(_glob).
var (
	collectIgnoreStart = lazy(`^\s*collect_ignore(?:_glob)?\s*(?:=|\+=|\.append\s*\(|\.extend\s*\(|\.insert\s*\()`)
	pyStringLiteral    = lazy(`"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'`)
)

// collectIgnores are the entries conftest.py adds to collect_ignore and collect_ignore_glob, each
// with the line it is written on; a statement may span lines until its brackets close.
func collectIgnores(data []byte) map[string]int {
	out := map[string]int{}
	depth := -1 // not in a statement
	for i, line := range splitLines(data) {
		if depth < 0 && !collectIgnoreStart.MatchString(line) {
			continue
		}
		if depth < 0 {
			depth = 0
		}
		code, _, _ := strings.Cut(line, "#")
		for _, m := range pyStringLiteral.FindAllStringSubmatch(code, -1) {
			if _, seen := out[m[1]+m[2]]; !seen {
				out[m[1]+m[2]] = i + 1
			}
		}
		code = pyStringLiteral.get().ReplaceAllString(code, `""`)
		depth += strings.Count(code, "(") + strings.Count(code, "[") - strings.Count(code, ")") - strings.Count(code, "]")
		if depth <= 0 {
			depth = -1
		}
	}
	return out
}

// conftest reports entries conftest.py adds to collect_ignore that can hold tests: not build
// output or a source file that is no test (setup.py, docs/conf.py), and not a test file the change
// adds (ignored where it cannot run, a guard on a new test).
func (j *judge) conftest(f File) {
	if f.Deleted || notOurs(f.Path) {
		return
	}
	ignored := j.ignoredBefore()
	data, _ := j.read(f, false)
	dir := path.Dir(f.Path)
	entries := collectIgnores(data)
	for _, e := range sortedKeys(anyMap(entries)) {
		p := path.Join(dir, e)
		if ignored[p] || !mayHoldTests(e) || j.createdHere(p) {
			continue
		}
		j.add(gates.RuleTestsExcluded, f.Path, entries[e], "conftest.py collect_ignore keeps pytest from collecting %s", e)
	}
}

// ignoredBefore are the paths (from the project root) the base's conftest.py files the change
// touches kept pytest from collecting: a conftest.py moved keeps what it ignored.
func (j *judge) ignoredBefore() map[string]bool {
	out := map[string]bool{}
	for _, f := range j.files {
		old := cmpOr(f.OldPath, f.Path)
		if f.Created || path.Base(old) != "conftest.py" {
			continue
		}
		data, _ := j.read(f, true)
		for e := range collectIgnores(data) {
			out[path.Join(path.Dir(old), e)] = true
		}
	}
	return out
}

// createdHere says whether the change creates the file at p.
func (j *judge) createdHere(p string) bool {
	return slices.ContainsFunc(j.files, func(f File) bool { return f.Path == p && f.Created })
}

// runnerSelection is one list of a jest or vitest config that selects tests: ignore lists leave
// tests out; select lists say where the tests are, and narrow when they lose an entry or appear.
type runnerSelection struct {
	ignore  bool
	entries []string
	keys    []string // where it is written, for pointing at it
}

// jestSelectKeys select tests at any depth of a jest config (projects too).
var jestSelectKeys = sync.OnceValue(func() map[string]bool {
	return map[string]bool{ // key -> an ignore list
		"testPathIgnorePatterns": true, "modulePathIgnorePatterns": true, "testMatch": false, "testRegex": false, "roots": false,
	}
})

// vitestSelectKeys select tests under vitest's `test` key.
var vitestSelectKeys = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"exclude": true, "include": false, "dir": false}
})

// notSelecting are keys whose lists choose files for something other than running tests.
var notSelecting = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"coverage": true, "coverageThreshold": true, "typecheck": true, "benchmark": true, "server": true, "optimizeDeps": true, "build": true}
})

// runnerSelections finds the selecting lists of a jest or vitest config tree, by where they are.
func runnerSelections(tree map[string]any) map[string]runnerSelection {
	out := map[string]runnerSelection{}
	collectSelections(tree, nil, out)
	return out
}

// collectSelections adds the selecting lists of v, found at keys, to out: in objects at any
// depth, and in the objects of lists (projects).
func collectSelections(v any, keys []string, out map[string]runnerSelection) {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(v) {
			if notSelecting()[k] {
				continue
			}
			at := append(slices.Clone(keys), k)
			if ignore, selects := selectingKey(k, keys); selects {
				out[strings.Join(at, ".")] = runnerSelection{ignore: ignore, entries: selectionEntries(v[k]), keys: at}
			} else {
				collectSelections(v[k], at, out)
			}
		}
	case []any:
		for _, e := range v {
			collectSelections(e, keys, out)
		}
	}
}

// selectingKey says whether a key, under keys, names a list that selects tests, and whether that
// list is an ignore list: jest's keys anywhere, vitest's under `test`.
func selectingKey(k string, keys []string) (ignore, selects bool) {
	ignore, selects = jestSelectKeys()[k]
	if !selects && len(keys) > 0 && keys[len(keys)-1] == "test" {
		ignore, selects = vitestSelectKeys()[k]
	}
	return ignore, selects
}

// selectionEntries are a selecting list's entries: a single string is one entry, whatever it
// holds.
func selectionEntries(v any) []string {
	if s, ok := v.(string); ok {
		return []string{s}
	}
	return items(v)
}

// jsRunnerConfig compares the test selection of two jest or vitest configs (a file, or
// package.json's "jest"); a config that did not exist at the base is not judged.
func (j *judge) jsRunnerConfig(c configPair, old, new map[string]any) {
	if len(old) == 0 || c.file.Deleted {
		return
	}
	before, after := runnerSelections(old), runnerSelections(new)
	for _, k := range sortedKeys(anyMap(after)) {
		n := after[k]
		o, had := before[k]
		if msg := selectionNarrowed(k, o, had, n); msg != "" {
			line := cmpOr0(lineOf(c.newData, n.keys...), lineOf(c.newData, n.keys[len(n.keys)-1]))
			j.add(gates.RuleTestsExcluded, c.file.Path, line, "%s", msg)
		}
	}
}

// selectionNarrowed says how the selecting list at k now selects fewer tests than it did (had
// says whether it was there); "" when it does not.
func selectionNarrowed(k string, o runnerSelection, had bool, n runnerSelection) string {
	switch {
	case n.ignore:
		if added := mayHoldTestsOf(grown(anySlice(o.entries), anySlice(n.entries))); len(added) > 0 {
			return fmt.Sprintf("%s now leaves out %s", k, list(added, 3))
		}
	case !had:
		if slices.ContainsFunc(n.entries, namesFile) {
			return fmt.Sprintf("%s set to %s: only the tests it names run", k, list(n.entries, 3))
		}
	default:
		if lost := narrowedSelection(o.entries, n.entries); len(lost) > 0 {
			return fmt.Sprintf("%s no longer selects %s", k, list(lost, 3))
		}
	}
	return ""
}

// mayHoldTestsOf are the ignore entries that can name tests.
func mayHoldTestsOf(entries []string) []string {
	var out []string
	for _, e := range entries {
		if mayHoldTests(e) {
			out = append(out, e)
		}
	}
	return out
}

// isJSRunnerConfig says whether a file is a jest or vitest config written in JavaScript.
func isJSRunnerConfig(base string) bool {
	if langOf(base) != langJS {
		return false
	}
	for _, prefix := range []string{"jest.config.", "vitest.config.", "vite.config."} {
		if strings.HasPrefix(base, prefix) {
			return true
		}
	}
	return false
}

// jsRunnerFile reads a JavaScript jest or vitest config's literals and compares them.
func (j *judge) jsRunnerFile(f File) {
	if f.Created || f.Deleted {
		return
	}
	oldData, _ := j.read(f, true)
	newData, _ := j.read(f, false)
	c := configPair{file: f, oldData: oldData, newData: newData, old: jsLiteralTree(oldData), new: jsLiteralTree(newData)}
	j.jsRunnerConfig(c, c.old, c.new)
}

// narrowedSelection are the entries of a select list that the new list loses. An entry replaced
// by one for the same files in another place (the same last segment, somewhere the old entry does
// not reach: tests moved and the pattern following them) is not lost; one replaced by a pattern
// within it (packages/*/ narrowed to packages/a/) is.
func narrowedSelection(old, new []string) []string {
	var lost []string
	for _, o := range old {
		if slices.Contains(new, o) {
			continue
		}
		followed := slices.ContainsFunc(new, func(n string) bool {
			return !slices.Contains(old, n) && path.Base(n) == path.Base(o) && !globMatches(o, globSample(n))
		})
		if !followed {
			lost = append(lost, o)
		}
	}
	return lost
}

// globSample is a path a glob matches: each wildcard stood in for by a name.
func globSample(pattern string) string {
	r := strings.NewReplacer("<rootDir>", "root", "**", "x/y", "*", "x", "?", "x")
	s := r.Replace(pattern)
	for {
		open := strings.IndexAny(s, "{[")
		if open < 0 {
			return s
		}
		end := strings.IndexAny(s[open:], "}]")
		if end < 0 {
			return s
		}
		first := strings.FieldsFunc(s[open+1:open+end], func(r rune) bool { return r == ',' })
		choice := "x"
		if len(first) > 0 {
			choice = first[0]
			if s[open] == '[' {
				choice = first[0][:1]
			}
		}
		s = s[:open] + choice + s[open+end+1:]
	}
}

// globMatches says whether a glob (a jest or vitest pattern) matches a path; a pattern it cannot
// read matches nothing.
func globMatches(pattern, p string) bool {
	ok, err := doublestar.Match(strings.ReplaceAll(pattern, "<rootDir>", "root"), p)
	return ok && err == nil
}
