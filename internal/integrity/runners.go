package integrity

import (
	"fmt"
	"path"
	"slices"
	"strings"
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
var goCommandAliases = map[string]bool{"go": true, "$(GO)": true, "${GO}": true, "$(GOCMD)": true, "${GOCMD}": true}

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

// whichRunner names the test runner a simple command runs, and the words after its name.
func whichRunner(words []string) (*runnerSpec, []string) {
	for len(words) > 0 && (strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "-")) {
		words = words[1:] // environment assignments
	}
	for unwrapped := true; unwrapped && len(words) > 0; {
		unwrapped = false
		for _, w := range runnerWrappers {
			if len(words) > len(w) && slices.Equal(words[:len(w)], w) {
				words, unwrapped = words[len(w):], true
				break
			}
		}
	}
	if len(words) == 0 {
		return nil, nil
	}
	first := path.Base(words[0])
	switch {
	case goCommandAliases[words[0]] && len(words) > 1 && words[1] == "test":
		return goTestRunner, words[2:]
	case first == "pytest" || first == "py.test":
		return pytestRunner, words[1:]
	case first == "jest":
		return jestRunner, words[1:]
	case first == "vitest":
		if len(words) > 1 && (words[1] == "run" || words[1] == "watch") {
			return vitestRunner, words[2:]
		}
		return vitestRunner, words[1:]
	case first == "mocha":
		return mochaRunner, words[1:]
	case first == "node" && slices.Contains(words[1:], "--test"):
		return nodeTestRunner, slices.DeleteFunc(slices.Clone(words[1:]), func(w string) bool { return w == "--test" })
	case first == "cargo" && len(words) > 1 && words[1] == "test":
		return cargoTestRunner, words[2:]
	case first == "cargo" && len(words) > 2 && words[1] == "nextest" && words[2] == "run":
		return cargoTestRunner, words[3:]
	}
	return nil, nil
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
			if spec == goTestRunner && strings.HasPrefix(a, "--") {
				a = a[1:] // the go tool reads -x and --x alike
			}
			name, _, hasValue := strings.Cut(a, "=")
			if !hasValue && slices.Contains(spec.valued, name) && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				a = name + "=" + args[i]
			}
			c.flags = append(c.flags, a)
		default:
			c.paths = append(c.paths, a)
		}
	}
	return c
}

// narrowedBy says how a runner's call selects fewer tests than the one it replaced: narrowing
// flags added, paths lost; "" when it does not.
func narrowedBy(old, new runnerCall) string {
	var why []string
	for _, f := range new.flags {
		name, value, _ := strings.Cut(f, "=")
		want, narrows := new.spec.narrowing[name]
		if !narrows || want != "" && value != want || slices.Contains(old.flags, f) || excludesOnlyOutput(name, value) {
			continue
		}
		why = append(why, f+" added")
	}
	oldPaths, newPaths := old.paths, new.paths
	if slices.ContainsFunc(append(slices.Clone(oldPaths), newPaths...), func(p string) bool { return strings.Contains(p, "$") }) {
		return strings.Join(why, ", ") // a path computed by the shell cannot be compared
	}
	if !new.spec.allByDefault {
		oldPaths, newPaths = orDefault(oldPaths), orDefault(newPaths)
	}
	switch {
	case len(oldPaths) == 0 && slices.ContainsFunc(newPaths, namesFile):
		why = append(why, "now runs only "+list(newPaths, 3))
	case len(oldPaths) > 0 && len(newPaths) > 0:
		var lost []string
		for _, o := range oldPaths {
			if !slices.ContainsFunc(newPaths, func(n string) bool { return pathCovers(n, o) }) {
				lost = append(lost, o)
			}
		}
		if len(lost) > 0 {
			why = append(why, fmt.Sprintf("runs %s instead of %s", list(newPaths, 3), list(oldPaths, 3)))
		}
	}
	return strings.Join(why, ", ")
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
		for i, n := range newCalls {
			if used[i] || n.spec != o.spec {
				continue
			}
			used[i] = true
			if w := narrowedBy(o, n); w != "" {
				if len(whys) == 0 {
					at = n.at
				}
				whys = append(whys, n.spec.name+": "+w)
			}
			break
		}
	}
	return strings.Join(whys, "; "), at
}

// shellCommands splits a command line into simple commands (on &&, ||, ;, | and newlines) of
// words, quotes removed. It is no shell: enough to find a runner and its arguments.
func shellCommands(line string) [][]string {
	var out [][]string
	var words []string
	var word strings.Builder
	inWord := false
	var quote byte
	flushWord := func() {
		if inWord {
			words = append(words, subshellTrimmed(word.String()))
			word.Reset()
			inWord = false
		}
	}
	flushCommand := func() {
		flushWord()
		if len(words) > 0 {
			out = append(out, words)
			words = nil
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				word.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == '\\' && i+1 < len(line):
			i++
			word.WriteByte(line[i])
			inWord = true
		case c == ' ' || c == '\t':
			flushWord()
		case c == ';' || c == '|' || c == '&' || c == '\n':
			flushCommand()
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	flushCommand()
	return out
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
var outputDirs = map[string]bool{
	"node_modules": true, "dist": true, "build": true, "out": true, "coverage": true, "htmlcov": true, "target": true,
	"vendor": true, ".venv": true, "venv": true, ".tox": true, ".nox": true, "__pycache__": true, ".git": true,
	"site-packages": true, ".eggs": true, ".cache": true, ".pytest_cache": true, ".mypy_cache": true, ".next": true,
	".nuxt": true, ".svelte-kit": true, ".turbo": true,
}

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
		if outputDirs[part] || strings.HasSuffix(part, ".egg-info") {
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
