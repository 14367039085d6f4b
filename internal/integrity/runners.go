package integrity

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
)

// A test runner's command line selects which tests run: a name filter (-run, -k, -t), a skip
// flag (-short, --lib), fewer packages or paths. The same command with fewer tests selected
// passes where the full one failed, so a command a check runs narrowed is read for it.

// runnerSpec is what gauntlet knows of one test runner's command line.
type runnerSpec struct {
	name string
	// valued are the flags that take the next word as their value (when not written flag=value).
	valued []string
	// narrowing are the flags that select fewer tests, each with the value that does ("" for any).
	narrowing map[string]string
	// allByDefault says that no path argument means every test; otherwise the default is the
	// current directory (go test's package).
	allByDefault bool
}

var (
	goTestRunner = &runnerSpec{name: "go test",
		valued: []string{"-run", "-skip", "-count", "-timeout", "-tags", "-p", "-parallel", "-cpu", "-bench", "-benchtime",
			"-coverprofile", "-covermode", "-coverpkg", "-cpuprofile", "-memprofile", "-blockprofile", "-mutexprofile", "-trace",
			"-o", "-exec", "-outputdir", "-shuffle", "-fuzz", "-fuzztime", "-fuzzminimizetime", "-list", "-vet", "-ldflags", "-gcflags",
			"-asmflags", "-mod", "-modfile", "-overlay", "-pkgdir", "-toolexec", "-C"},
		narrowing: map[string]string{"-run": "", "-skip": "", "-short": "", "-list": "", "-exec": "", "-c": "", "-n": "", "-vet": "off"},
	}
	pytestRunner = &runnerSpec{name: "pytest", allByDefault: true,
		valued: []string{"-k", "-m", "-p", "-c", "-o", "-n", "-W", "--deselect", "--ignore", "--ignore-glob", "--rootdir", "--confcutdir",
			"--basetemp", "--junitxml", "--junit-xml", "--cov", "--cov-report", "--cov-config", "--cov-fail-under", "--durations",
			"--durations-min", "--maxfail", "--tb", "--log-level", "--log-cli-level", "--log-file", "--log-format", "--timeout",
			"--import-mode", "--dist", "--reruns", "--reruns-delay", "--capture", "--color", "--override-ini", "--numprocesses"},
		narrowing: map[string]string{"-k": "", "-m": "", "--deselect": "", "--ignore": "", "--ignore-glob": "", "--lf": "", "--last-failed": "",
			"--co": "", "--collect-only": "", "--setup-plan": "", "--setup-only": "", "--fixtures": "", "--markers": ""},
	}
	jestRunner = &runnerSpec{name: "jest", allByDefault: true,
		valued: []string{"-c", "--config", "-t", "--testNamePattern", "--testPathPattern", "--testPathPatterns", "--testPathIgnorePatterns",
			"-w", "--maxWorkers", "--reporters", "--coverageReporters", "--selectProjects", "--ignoreProjects", "--shard", "--changedSince",
			"--testTimeout", "--env", "--testEnvironment", "--rootDir", "--roots", "--outputFile", "--seed", "--coverageDirectory",
			"--collectCoverageFrom", "--testMatch", "--testRegex"},
		narrowing: map[string]string{"-t": "", "--testNamePattern": "", "--testPathPattern": "", "--testPathPatterns": "", "--testPathIgnorePatterns": "",
			"-o": "", "--onlyChanged": "", "--changedSince": "", "--findRelatedTests": "", "--lastCommit": "", "--listTests": "",
			"--passWithNoTests": "", "--selectProjects": "", "--ignoreProjects": "", "--testMatch": "", "--testRegex": "", "--roots": "",
			"-f": "", "--onlyFailures": ""},
	}
	vitestRunner = &runnerSpec{name: "vitest", allByDefault: true,
		valued: []string{"-c", "--config", "-t", "--testNamePattern", "--exclude", "--project", "--dir", "-r", "--root", "--reporter",
			"--outputFile", "--pool", "--shard", "--environment", "--mode"},
		narrowing: map[string]string{"-t": "", "--testNamePattern": "", "--exclude": "", "--project": "", "--changed": "", "--related": "",
			"--passWithNoTests": "", "--dir": ""},
	}
	mochaRunner = &runnerSpec{name: "mocha", allByDefault: true,
		valued: []string{"-g", "--grep", "-f", "--fgrep", "--exclude", "--ignore", "-r", "--require", "-R", "--reporter", "-t", "--timeout",
			"-s", "--slow", "--config", "--extension", "-u", "--ui", "--file", "-O", "--reporter-option", "--package"},
		narrowing: map[string]string{"-g": "", "--grep": "", "-f": "", "--fgrep": "", "--exclude": "", "--ignore": "", "--dry-run": ""},
	}
	nodeTestRunner = &runnerSpec{name: "node --test", allByDefault: true,
		valued: []string{"--test-reporter", "--test-reporter-destination", "--test-concurrency", "--test-timeout", "--import", "--require",
			"-r", "--loader", "--experimental-loader", "--test-name-pattern", "--test-skip-pattern", "--test-shard", "--env-file", "-C",
			"--conditions", "--test-coverage-include", "--test-coverage-exclude", "--test-isolation", "--watch-path"},
		narrowing: map[string]string{"--test-name-pattern": "", "--test-skip-pattern": "", "--test-only": ""},
	}
	cargoTestRunner = &runnerSpec{name: "cargo test", allByDefault: true,
		valued: []string{"-p", "--package", "--exclude", "--test", "--bench", "--bin", "--example", "-F", "--features", "--target",
			"--manifest-path", "-j", "--jobs", "--profile", "--target-dir", "--color", "--message-format", "--config", "-Z", "--skip",
			"--test-threads", "--format", "--logfile", "-E", "--filterset", "--partition"},
		narrowing: map[string]string{"-p": "", "--package": "", "--exclude": "", "--lib": "", "--bins": "", "--bin": "", "--test": "",
			"--tests": "", "--doc": "", "--example": "", "--examples": "", "--bench": "", "--benches": "", "--skip": "", "--exact": "",
			"--ignored": "", "--no-run": "", "-E": "", "--filterset": ""},
	}
)

// goCommandAliases are the make variables that name the go tool in recipes.
var goCommandAliases = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"go": true, "$(GO)": true, "${GO}": true, "$(GOCMD)": true, "${GOCMD}": true}
})

// runnerWrappers are the words that run the next ones as a command: a package manager's exec, a
// virtual environment's run, python -m.
var runnerWrappers = [][]string{
	{"npx"}, {"bunx"}, {"pnpx"}, {"pnpm", "exec"}, {"pnpm"}, {"yarn"}, {"bun", "x"}, {"uv", "run"}, {"poetry", "run"},
	{"pipenv", "run"}, {"hatch", "run"}, {"pdm", "run"}, {"rye", "run"}, {"python", "-m"}, {"python3", "-m"}, {"env"},
}

// runnerCall is one invocation of a test runner in a command line.
type runnerCall struct {
	spec  *runnerSpec
	flags []string // "name" or "name=value", in order
	paths []string // the path (or package, or filter) arguments
	at    int      // which of the command lines it is on
}

// runnerCalls finds the test runner invocations of command lines (a make recipe's lines, a
// script); a make recipe line's @, - and + prefixes are no part of its command.
func runnerCalls(lines []string) []runnerCall {
	var out []runnerCall
	for i, line := range lines {
		for _, words := range shellCommands(strings.TrimLeft(line, "@-+ \t")) {
			if spec, rest := whichRunner(words); spec != nil {
				c := parseRunnerArgs(spec, rest)
				c.at = i
				out = append(out, c)
			}
		}
	}
	return out
}

// runnerCommands are the runners called by a command's name (a path's base) and the words that
// must follow it; a name's longer forms come first.
var runnerCommands = []struct {
	name       string
	subcommand []string
	spec       *runnerSpec
}{
	{"pytest", nil, pytestRunner},
	{"py.test", nil, pytestRunner},
	{"jest", nil, jestRunner},
	{"vitest", []string{"run"}, vitestRunner},
	{"vitest", []string{"watch"}, vitestRunner},
	{"vitest", nil, vitestRunner},
	{"mocha", nil, mochaRunner},
	{"cargo", []string{"test"}, cargoTestRunner},
	{"cargo", []string{"nextest", "run"}, cargoTestRunner},
}

// whichRunner names the test runner a simple command runs, and the words after its name.
func whichRunner(words []string) (*runnerSpec, []string) {
	words = unwrapped(withoutAssignments(words))
	if len(words) == 0 {
		return nil, nil
	}
	if goCommandAliases()[words[0]] && len(words) > 1 && words[1] == "test" {
		return goTestRunner, words[2:]
	}
	first := path.Base(words[0])
	if first == "node" && slices.Contains(words[1:], "--test") {
		return nodeTestRunner, slices.DeleteFunc(slices.Clone(words[1:]), func(w string) bool { return w == "--test" })
	}
	for _, rc := range runnerCommands {
		if first == rc.name && followedBy(words, rc.subcommand) {
			return rc.spec, words[1+len(rc.subcommand):]
		}
	}
	return nil, nil
}

// followedBy says whether a command's name is followed by the words sub.
func followedBy(words, sub []string) bool {
	return len(words) > len(sub) && slices.Equal(words[1:1+len(sub)], sub)
}

// withoutAssignments is a command without the environment assignments before its name.
func withoutAssignments(words []string) []string {
	for len(words) > 0 && (strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "-")) {
		words = words[1:]
	}
	return words
}

// unwrapped is a command without the wrappers that run the rest of it.
func unwrapped(words []string) []string {
	for {
		w := wrapperOf(words)
		if w == nil {
			return words
		}
		words = words[len(w):]
	}
}

// wrapperOf is the wrapper a command starts with, when something follows it.
func wrapperOf(words []string) []string {
	for _, w := range runnerWrappers {
		if len(words) > len(w) && slices.Equal(words[:len(w)], w) {
			return w
		}
	}
	return nil
}

// parseRunnerArgs sorts a runner's arguments into flags and paths; go test's -args ends them.
func parseRunnerArgs(spec *runnerSpec, args []string) runnerCall {
	c := runnerCall{spec: spec}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
		case spec == goTestRunner && (a == "-args" || a == "--args"):
			return c
		case strings.HasPrefix(a, "-") && len(a) > 1:
			var flag string
			flag, i = readFlag(spec, args, i)
			c.flags = append(c.flags, flag)
		default:
			c.paths = append(c.paths, a)
		}
	}
	return c
}

// readFlag reads the flag at args[i] as "name" or "name=value", its value taken from the next
// argument when the flag takes one; it returns the index of the flag's last argument.
func readFlag(spec *runnerSpec, args []string, i int) (string, int) {
	a := args[i]
	if spec == goTestRunner && strings.HasPrefix(a, "--") {
		a = a[1:] // the go tool reads -x and --x alike
	}
	name, _, hasValue := strings.Cut(a, "=")
	if !hasValue && slices.Contains(spec.valued, name) && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
		return name + "=" + args[i+1], i + 1
	}
	return a, i
}

// narrowedBy says how a runner's call selects fewer tests than the one it replaced: narrowing
// flags added, paths lost; "" when it does not.
func narrowedBy(old, new runnerCall) string {
	why := narrowingFlagsAdded(old, new)
	if slices.ContainsFunc(append(slices.Clone(old.paths), new.paths...), func(p string) bool { return strings.Contains(p, "$") }) {
		return strings.Join(why, ", ") // a path computed by the shell cannot be compared
	}
	if w := pathsNarrowed(new.spec, old.paths, new.paths); w != "" {
		why = append(why, w)
	}
	return strings.Join(why, ", ")
}

// narrowingFlagsAdded lists the new call's flags that select fewer tests and the old lacked.
func narrowingFlagsAdded(old, new runnerCall) []string {
	var why []string
	for _, f := range new.flags {
		if !slices.Contains(old.flags, f) && narrowingFlag(new.spec, f) {
			why = append(why, f+" added")
		}
	}
	return why
}

// narrowingFlag says whether a flag ("name" or "name=value") selects fewer tests.
func narrowingFlag(spec *runnerSpec, flag string) bool {
	name, value, _ := strings.Cut(flag, "=")
	want, narrows := spec.narrowing[name]
	return narrows && (want == "" || value == want) && !excludesOnlyOutput(name, value)
}

// pathsNarrowed says how a call's paths select fewer tests than the old call's; "" when they do
// not.
func pathsNarrowed(spec *runnerSpec, oldPaths, newPaths []string) string {
	if !spec.allByDefault {
		oldPaths, newPaths = orDefault(oldPaths), orDefault(newPaths)
	}
	switch {
	case len(oldPaths) == 0 && slices.ContainsFunc(newPaths, namesFile):
		return "now runs only " + list(newPaths, 3)
	case len(oldPaths) > 0 && len(newPaths) > 0 && !coversAll(newPaths, oldPaths):
		return fmt.Sprintf("runs %s instead of %s", list(newPaths, 3), list(oldPaths, 3))
	}
	return ""
}

// coversAll says whether the paths n select everything each of the paths o does.
func coversAll(n, o []string) bool {
	for _, op := range o {
		if !slices.ContainsFunc(n, func(np string) bool { return pathCovers(np, op) }) {
			return false
		}
	}
	return true
}

// namesFile says whether a path argument or setting names one test file (or one test in it):
// from the runner's default, only that is a narrowing that can be told without the tree, where
// a directory or a pattern may hold every test there is.
func namesFile(entry string) bool {
	e := strings.TrimPrefix(entry, "<rootDir>/")
	if strings.Contains(e, "::") {
		return true
	}
	return !strings.ContainsAny(e, "*?[{") && langOf(path.Base(e)) != langNone
}

func orDefault(paths []string) []string {
	if len(paths) == 0 {
		return []string{"."}
	}
	return paths
}

// pathCovers says whether the path (or go package pattern) n selects everything o does.
func pathCovers(n, o string) bool {
	clean := func(s string) string {
		s = strings.TrimSuffix(strings.TrimPrefix(s, "./"), "/")
		return cmpOr(s, ".")
	}
	n, o = clean(n), clean(o)
	switch {
	case n == o || n == "...":
		return true
	case strings.HasSuffix(n, "/..."):
		base := strings.TrimSuffix(n, "/...")
		return o == base || strings.HasPrefix(o, base+"/")
	}
	return strings.HasPrefix(o, n+"/")
}

// excludesOnlyOutput says whether an ignore flag's value names only directories that hold no
// tests (build output, dependencies, virtual environments).
func excludesOnlyOutput(flag, value string) bool {
	switch flag {
	case "--ignore", "--ignore-glob", "--exclude", "--testPathIgnorePatterns":
		return value != "" && !mayHoldTests(value)
	}
	return false
}

// narrowedCommands compares the runner calls of two sets of command lines, paired by runner in
// order, and says how the new ones select fewer tests ("" when they do not) and on which of the
// new lines the first narrowed call is. A runner no longer called is not a narrowing (it may
// have been replaced by another).
func narrowedCommands(old, new []string) (why string, at int) {
	oldCalls, newCalls := runnerCalls(old), runnerCalls(new)
	var whys []string
	used := make([]bool, len(newCalls))
	for _, o := range oldCalls {
		i := sameRunner(o, newCalls, used)
		if i < 0 {
			continue
		}
		used[i] = true
		if w := narrowedBy(o, newCalls[i]); w != "" {
			if len(whys) == 0 {
				at = newCalls[i].at
			}
			whys = append(whys, newCalls[i].spec.name+": "+w)
		}
	}
	return strings.Join(whys, "; "), at
}

// sameRunner is the first call not yet paired that runs o's runner; -1 when there is none.
func sameRunner(o runnerCall, calls []runnerCall, used []bool) int {
	for i, n := range calls {
		if !used[i] && n.spec == o.spec {
			return i
		}
	}
	return -1
}

// shellCommands splits a command line into simple commands (on &&, ||, ;, | and newlines) of
// words, quotes removed. It is no shell: enough to find a runner and its arguments.
func shellCommands(line string) [][]string {
	var s shellSplitter
	for i := 0; i < len(line); i++ {
		i = s.take(line, i)
	}
	s.endCommand()
	return s.commands
}

// shellSplitter is shellCommands' state: the commands so far, the one being read, its word.
type shellSplitter struct {
	commands [][]string
	words    []string
	word     strings.Builder
	inWord   bool
	quote    byte // the quote a quoted word is in, 0 outside quotes
}

// take reads line[i] and says where the reading stands (past an escaped character).
func (s *shellSplitter) take(line string, i int) int {
	c := line[i]
	switch {
	case s.quote != 0:
		s.quoted(c)
	case c == '\'' || c == '"':
		s.quote, s.inWord = c, true
	case c == '\\' && i+1 < len(line):
		i++
		s.add(line[i])
	case c == ' ' || c == '\t':
		s.endWord()
	case strings.IndexByte(";|&\n", c) >= 0:
		s.endCommand()
	default:
		s.add(c)
	}
	return i
}

func (s *shellSplitter) quoted(c byte) {
	if c == s.quote {
		s.quote = 0
	} else {
		s.word.WriteByte(c)
	}
}

func (s *shellSplitter) add(c byte) {
	s.word.WriteByte(c)
	s.inWord = true
}

func (s *shellSplitter) endWord() {
	if s.inWord {
		s.words = append(s.words, subshellTrimmed(s.word.String()))
		s.word.Reset()
		s.inWord = false
	}
}

func (s *shellSplitter) endCommand() {
	s.endWord()
	if len(s.words) > 0 {
		s.commands = append(s.commands, s.words)
		s.words = nil
	}
}

// subshellTrimmed is a word without the parentheses of a subshell around it: "(cd", "./...)".
func subshellTrimmed(w string) string {
	if strings.Contains(w, "$(") || strings.Contains(w, "${") {
		return w
	}
	return strings.TrimRight(strings.TrimLeft(w, "("), ")")
}

// outputDirs hold build output, dependencies, caches or virtual environments: never the
// project's tests, so ignoring them selects no fewer tests.
var outputDirs = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"node_modules": true, "dist": true, "build": true, "out": true, "coverage": true, "htmlcov": true, "target": true,
		"vendor": true, ".venv": true, "venv": true, ".tox": true, ".nox": true, "__pycache__": true, ".git": true,
		"site-packages": true, ".eggs": true, ".cache": true, ".pytest_cache": true, ".mypy_cache": true, ".next": true,
		".nuxt": true, ".svelte-kit": true, ".turbo": true,
	}
})

// mayHoldTests says whether an ignore entry (a path, a glob, a path pattern) can name tests: not
// when it lies in build output, dependencies or a virtual environment, nor when it names a source
// file that is no test file (setup.py, docs/conf.py).
func mayHoldTests(entry string) bool {
	e := strings.TrimPrefix(strings.TrimSpace(entry), "<rootDir>")
	parts := strings.FieldsFunc(e, func(r rune) bool { return r == '/' || r == '\\' || r == '^' || r == '$' })
	if len(parts) == 0 {
		return true
	}
	for _, part := range parts {
		if outputDirs()[part] || strings.HasSuffix(part, ".egg-info") {
			return false
		}
	}
	l := langOf(parts[len(parts)-1])
	if l == langNone {
		return true // a directory, or a pattern of them
	}
	return isTestFile(strings.ReplaceAll(strings.Join(parts, "/"), "*", testNameSample[l]))
}

// testNameSample is what a glob's * stands for when asking whether it can match a test file.
var testNameSample = map[lang]string{langGo: "x_test", langJS: "x.test", langPython: "test_x", langRust: "x"}
