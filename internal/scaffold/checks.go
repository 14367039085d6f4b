package scaffold

import (
	"slices"
	"strings"
	"sync"
	"time"
)

// check is a command recognised as one of the checks a gate can run: which tool (key, unique per
// tool and job), for which kind of project, under which gate name, and the command as a gate
// should run it: without the flags that rewrite files, write reports or only add noise.
type check struct {
	key     string
	kind    string // Go, Rust, Python, Node or Java
	name    string // the gate name it prefers
	comment string // what it checks, for the gate's comment
	words   []string
	timeout time.Duration
	hint    string
	// fix is the writing form of the same tool, the gate's fixer (gofmt -w for gofmt -l);
	// writes says the command as written was that form, so that it may be a fixer but never a
	// gate: a gate that rewrites files would rewrite the agent's code instead of judging it.
	fix    []string
	writes bool
	// For a tool given the change's files ({files}): the files it takes (glob), the scope its
	// command names (filePaths, fileExclude: relative to where it runs) and why (filesNote).
	glob, filePaths, fileExclude []string
	filesNote                    string
}

// Timeouts are sized for a cold first run on a fresh clone (empty build and module caches), where
// compiling dominates: a warm run takes a fraction of them.
const (
	quick    = 2 * time.Minute
	lintTime = 10 * time.Minute
	typeTime = 15 * time.Minute
	testTime = 20 * time.Minute
	rustTime = 30 * time.Minute
)

// pythonRunners run a tool in the project's environment; the project's own runner is put back in
// front of the tool when the gate is written.
var pythonRunners = [][]string{{"uv", "run"}, {"poetry", "run"}, {"pipenv", "run"}, {"pdm", "run"}, {"hatch", "run"}, {"rye", "run"}}

// classify recognises a check among a command's words; install, build, deploy and upload steps,
// and anything unknown, are not checks. The runner in front (uv run, npx, pnpm exec) is taken off;
// the program's recipe in checkRecipes shapes the rest.
func classify(words []string) (check, bool) {
	words = withoutColourForcing(withoutRunner(words))
	if len(words) == 0 {
		return check{}, false
	}
	tool := words[0]
	if i := strings.LastIndexByte(tool, '/'); i >= 0 {
		tool = tool[i+1:] // ./bin/golangci-lint, $(go env GOPATH)/bin/golangci-lint
	}
	recipe, ok := checkRecipes()[tool]
	if !ok {
		return check{}, false
	}
	return recipe(tool, words)
}

// withoutColourForcing takes off the flags that force colours on output that is not a terminal
// (--force-color, --color=always): a gate's output is captured, and escape codes in it would split
// the file:line its findings are read from. Without them each tool colours only a terminal.
func withoutColourForcing(words []string) []string {
	out := make([]string, 0, len(words))
	for i := 0; i < len(words); i++ {
		w := words[i]
		name, value, valued := strings.Cut(w, "=")
		switch {
		case w == "--force-color" || w == "--force-colour":
		case (name == "--color" || name == "--colour") && valued && forcedColour(value):
		case (w == "--color" || w == "--colour") && i+1 < len(words) && forcedColour(words[i+1]):
			i++
		default:
			out = append(out, w)
		}
	}
	return out
}

// forcedColour reports whether a --color value asks for colours whatever the output is.
func forcedColour(value string) bool {
	return value == "always" || value == "yes" || value == "force"
}

// withoutRunner takes off what runs a tool in the project's environment (uv run --frozen, npx,
// pnpm exec): the check is the tool's.
func withoutRunner(words []string) []string {
	for _, r := range pythonRunners {
		if hasPrefix(words, r...) {
			words = skipFlags(words[len(r):], runnerValueFlags) // uv run --frozen --python 3.12 ruff
			break
		}
	}
	for _, p := range [][]string{{"npx"}, {"pnpm", "exec"}, {"yarn", "exec"}, {"bunx"}, {"npm", "exec", "--"}} {
		if hasPrefix(words, p...) && len(words) > len(p) {
			return words[len(p):]
		}
	}
	return words
}

// recipe turns a tool's command (words[0] is the program as written) into the check a gate runs.
type recipe func(tool string, words []string) (check, bool)

// asWritten is the recipe of a tool whose command checks as it is: only the words are the
// command's own.
func asWritten(c check) recipe {
	return func(_ string, words []string) (check, bool) {
		c.words = words
		return c, true
	}
}

// checkRecipes are the tools init knows, by program name. A tool whose command is its check as
// written is data (asWritten); the others drop their writing and reporting flags, and say their
// writing form (fix). Built on first use: only init reads them, and every command loads the
// package.
func checkRecipes() map[string]recipe {
	recipesOnce.Do(func() {
		recipes = recipeTable()
		// classifyPython recurses into classify, which reads checkRecipes: added here, not in
		// the literal, to keep the table's initialisation free of a cycle.
		recipes["python"], recipes["python3"] = classifyPython, classifyPython
		recipes["coverage"] = classifyCoverage
		for name := range fileTools() {
			recipes[name] = classifyFileTool
		}
		for name := range anyTools() {
			recipes[name] = classifyAnyTool
		}
	})
	return recipes
}

var (
	recipesOnce sync.Once
	recipes     map[string]recipe
)

// recipeTable is checkRecipes but the ones that recurse into classify.
func recipeTable() map[string]recipe {
	return map[string]recipe{
		"go":        func(_ string, w []string) (check, bool) { return classifyGo(w[1:]) },
		"richgo":    func(_ string, w []string) (check, bool) { return classifyGo(w[1:]) }, // colours go test's output
		"gotestsum": classifyGotestsum,
		"gofmt": func(_ string, w []string) (check, bool) { // shaped by detectGo
			return check{key: "gofmt", kind: "Go", name: "fmt", writes: slices.Contains(w[1:], "-w")}, true
		},
		"golangci-lint": classifyGolangci,
		"staticcheck": asWritten(check{key: "staticcheck", kind: "Go", name: "staticcheck", comment: "staticcheck's analyses",
			timeout: lintTime}),
		"cargo":  func(_ string, w []string) (check, bool) { return classifyCargo(w[1:]) },
		"ruff":   classifyRuff,
		"black":  classifyBlack,
		"isort":  classifyIsort,
		"flake8": asWritten(check{key: "flake8", kind: "Python", name: "flake8", comment: "flake8's lint rules", timeout: 5 * time.Minute}),
		"pylint": asWritten(check{key: "pylint", kind: "Python", name: "pylint", comment: "pylint's lint rules", timeout: lintTime}),
		"mypy": asWritten(check{key: "mypy", kind: "Python", name: "typecheck", comment: "type errors, as mypy reports them",
			timeout: typeTime}),
		"pyright": asWritten(check{key: "pyright", kind: "Python", name: "pyright", comment: "type errors, as pyright reports them",
			timeout: lintTime}),
		"basedpyright": asWritten(check{key: "pyright", kind: "Python", name: "pyright", comment: "type errors, as pyright reports them",
			timeout: lintTime}),
		"codespell": classifyCodespell,
		"pytest":    classifyPytest,
		"py.test":   classifyPytest,
		"eslint":    classifyEslint,
		"prettier":  classifyPrettier,
		"tsc":       classifyTsc,
		"vue-tsc":   classifyTsc,
		"biome":     classifyBiome,
		"vitest":    classifyVitest,
		"mvn":       classifyMaven,
		"mvnw":      classifyMaven,
		"gradle":    classifyGradle,
		"gradlew":   classifyGradle,
		"jest": func(_ string, w []string) (check, bool) {
			return check{key: "jest", kind: "Node", name: "test", comment: "the tests, with jest",
				words: drop(w, "--watch", "--watchAll"), timeout: testTime}, true
		},
	}
}

// classifyGotestsum is the go test gotestsum runs (it only formats the output).
func classifyGotestsum(_ string, words []string) (check, bool) {
	args := words[1:]
	goArgs := []string{"test"}
	if i := slices.Index(args, "--"); i >= 0 {
		goArgs = append(goArgs, args[i+1:]...)
	} else {
		for _, a := range args {
			if strings.HasPrefix(a, "./") || a == "." {
				goArgs = append(goArgs, a)
			}
		}
	}
	return classifyGo(goArgs)
}

func classifyGolangci(_ string, words []string) (check, bool) {
	args := words[1:]
	if len(args) == 0 || args[0] != "run" {
		return check{}, false
	}
	// --timeout is CI's budget for its own machines; the gate's timeout is gauntlet's.
	rest := drop(args[1:], "-v", "--verbose", "--fix", "--out-format*", "--output.*", "--color*", "--timeout*")
	return check{key: "golangci-lint", kind: "Go", name: "lint", comment: "golangci-lint's linters",
		words: append([]string{"golangci-lint", "run"}, rest...), timeout: 15 * time.Minute,
		fix: append([]string{"golangci-lint", "run", "--fix"}, rest...), writes: slices.Contains(args, "--fix")}, true
}

func classifyRuff(_ string, words []string) (check, bool) {
	args := words[1:]
	if len(args) > 0 && args[0] == "format" {
		return ruffFormat(args), true
	}
	if len(args) > 0 && args[0] == "check" {
		args = args[1:]
	} else if !slices.ContainsFunc(args, looksLikePath) {
		return check{}, false // not the old `ruff PATH` form: ruff --version, ruff rule, ...
	}
	rest := drop(args, "--fix", "--unsafe-fixes", "--show-fixes", "--exit-non-zero-on-fix", "--output-format*", "--diff")
	return check{key: "ruff", kind: "Python", name: "lint", comment: "ruff's lint rules",
		words: append([]string{"ruff", "check"}, rest...), timeout: 5 * time.Minute,
		fix: append([]string{"ruff", "check", "--fix"}, rest...), writes: slices.Contains(args, "--fix")}, true
}

// looksLikePath reports whether an argument names a file or folder rather than a flag or a
// subcommand.
func looksLikePath(a string) bool {
	return !strings.HasPrefix(a, "-") && strings.ContainsAny(a, "./")
}

// ruffFormat is `ruff format` (args from "format" on) as a check, --check ensured.
func ruffFormat(args []string) check {
	rest := drop(args[1:], "--diff", "--check")
	return check{key: "ruff-format", kind: "Python", name: "fmt", comment: "files that ruff format would reformat",
		words: ensure(append([]string{"ruff", "format"}, rest...), "--check"), timeout: quick,
		fix: append([]string{"ruff", "format"}, rest...), writes: !slices.Contains(args, "--check") && !slices.Contains(args, "--diff")}
}

func classifyBlack(_ string, words []string) (check, bool) {
	args := words[1:]
	checking := slices.Contains(args, "--check") || slices.Contains(args, "--diff")
	return check{key: "black", kind: "Python", name: "fmt", comment: "files that black would reformat",
		words: ensure(withDefaultPath(words), "--check"), timeout: quick,
		fix: withDefaultPath(drop(words, "--check", "--diff")), writes: !checking}, true
}

func classifyIsort(_ string, words []string) (check, bool) {
	checking := slices.ContainsFunc(words[1:], func(a string) bool { return contains([]string{"--check-only", "--check", "-c", "--diff"}, a) })
	return check{key: "isort", kind: "Python", name: "isort", comment: "imports that isort would reorder",
		words: ensure(withDefaultPath(words), "--check-only"), timeout: quick,
		fix: withDefaultPath(drop(words, "--check-only", "--check", "-c", "--diff")), writes: !checking}, true
}

func classifyCodespell(_ string, words []string) (check, bool) {
	args := words[1:]
	checkForm := drop(words, "-w", "--write-changes", "-i*", "--interactive*")
	// Spelling is of no one language: codespell checks any project's text, as typos does.
	return check{key: "codespell", kind: anyKind, name: "spelling", comment: "misspelt words, as codespell finds them",
		words: checkForm, timeout: quick, hint: "If a flagged word is right, add it to codespell's ignore list.",
		fix: append([]string{checkForm[0], "-w"}, checkForm[1:]...), writes: slices.Contains(args, "-w") || slices.Contains(args, "--write-changes")}, true
}

func classifyPytest(_ string, words []string) (check, bool) {
	return check{key: "pytest", kind: "Python", name: "test", comment: "the tests, with pytest",
		words: dropPytest(words), timeout: testTime}, true
}

func classifyEslint(_ string, words []string) (check, bool) {
	w := drop(words, "--fix", "--fix-dry-run", "--fix-type*")
	return check{key: "eslint", kind: "Node", name: "lint", comment: "eslint's rules",
		words: w, timeout: lintTime, fix: append([]string{w[0], "--fix"}, w[1:]...), writes: slices.Contains(words[1:], "--fix")}, true
}

func classifyPrettier(_ string, words []string) (check, bool) {
	args := words[1:]
	w := drop(words, "--write", "-w")
	if !slices.Contains(w, "--check") && !slices.Contains(w, "-c") && !slices.Contains(w, "--list-different") && !slices.Contains(w, "-l") {
		w = append(w[:1:1], append([]string{"--check"}, w[1:]...)...)
	}
	fix := drop(words, "--write", "-w", "--check", "-c", "--list-different", "-l")
	return check{key: "prettier", kind: "Node", name: "fmt", comment: "files that prettier would reformat",
		words: w, timeout: 5 * time.Minute, fix: append([]string{fix[0], "--write"}, fix[1:]...),
		writes: slices.Contains(args, "--write") || slices.Contains(args, "-w")}, true
}

func classifyTsc(_ string, words []string) (check, bool) {
	return check{key: "tsc", kind: "Node", name: "typecheck", comment: "type errors, as the TypeScript compiler reports them",
		words: drop(words, "--watch", "-w"), timeout: lintTime}, true
}

func classifyBiome(_ string, words []string) (check, bool) {
	args := words[1:]
	if len(args) == 0 || !contains([]string{"check", "ci", "lint", "format"}, args[0]) {
		return check{}, false
	}
	w := drop(words, "--write", "--apply", "--apply-unsafe", "--fix", "--unsafe")
	fix := append([]string{w[0], w[1], "--write"}, w[2:]...)
	if w[1] == "ci" { // biome ci never writes; biome check is the same checks, and can
		fix[1] = "check"
	}
	return check{key: "biome", kind: "Node", name: "lint", comment: "biome's checks",
		words: w, timeout: lintTime, fix: fix,
		writes: slices.ContainsFunc(args, func(a string) bool { return contains([]string{"--write", "--apply", "--apply-unsafe", "--fix"}, a) })}, true
}

func classifyVitest(_ string, words []string) (check, bool) {
	w := drop(words, "--watch", "-w")
	if len(w) == 1 || strings.HasPrefix(w[1], "-") {
		w = append(w[:1:1], append([]string{"run"}, w[1:]...)...) // plain vitest watches
	}
	return check{key: "vitest", kind: "Node", name: "test", comment: "the tests, with vitest", words: w, timeout: testTime}, true
}

// classifyPython is `python -m TOOL`: the tool's check, run by the same interpreter with its own
// flags kept (-W error turns the tests' warnings into failures).
// classifyCoverage is `coverage run [-m] TOOL ...`: the tool's check, run by the interpreter
// without the coverage data only the report reads (coverage run -m pytest is python -m pytest).
// coverage's other commands (erase, report, combine, html) are no checks.
func classifyCoverage(_ string, words []string) (check, bool) {
	if len(words) < 3 || words[1] != "run" {
		return check{}, false
	}
	rest := words[2:]
	for len(rest) > 0 && strings.HasPrefix(rest[0], "-") && rest[0] != "-m" {
		if !strings.Contains(rest[0], "=") && contains([]string{"--rcfile", "--source", "--include", "--omit", "--context",
			"--concurrency", "--data-file"}, rest[0]) && len(rest) > 1 {
			rest = rest[1:]
		}
		rest = rest[1:]
	}
	if len(rest) < 2 || rest[0] != "-m" {
		return check{}, false
	}
	return classifyPython("python", append([]string{"python"}, rest...))
}

func classifyPython(tool string, words []string) (check, bool) {
	args := words[1:]
	flags := pythonFlags(args)
	rest := args[len(flags):]
	if len(rest) < 2 || rest[0] != "-m" {
		return check{}, false
	}
	c, ok := classify(rest[1:])
	if ok && (c.kind == "Python" || c.kind == anyKind) {
		c.words = slices.Concat([]string{tool}, flags, []string{"-m"}, c.words)
		if c.fix != nil {
			// The fix runs the same module the same way (python -m black, not a black on PATH).
			c.fix = slices.Concat([]string{tool, "-m"}, c.fix)
		}
	}
	return c, ok
}

// clippyFix is clippy's check with --fix, which needs --allow-dirty to touch a tree with
// changes: cargo's own flags go before the "--" that starts clippy's.
func clippyFix(w []string) []string {
	i := slices.Index(w, "--")
	if i < 0 {
		i = len(w)
	}
	return slices.Concat(w[:i], []string{"--fix", "--allow-dirty"}, w[i:])
}

func classifyGo(args []string) (check, bool) {
	if hasPrefix(args, "mod", "tidy") {
		return check{key: "go-mod-tidy", kind: "Go", name: "tidy", writes: !slices.Contains(args, "-diff")}, true // shaped by detectGo
	}
	if len(args) == 0 {
		return check{}, false
	}
	if recipe, ok := goRecipes()[args[0]]; ok {
		return recipe(args)
	}
	return check{}, false
}

// goRecipes are the go command's checks by subcommand, given the words after go.
var goRecipes = sync.OnceValue(func() map[string]func(args []string) (check, bool) {
	return map[string]func(args []string) (check, bool){
		"vet": func(args []string) (check, bool) {
			return check{key: "go-vet", kind: "Go", name: "vet", comment: "suspicious constructs, as go vet reports them",
				words: append([]string{"go"}, args...), timeout: lintTime}, true
		},
		"test": goTest,
		"fmt": func([]string) (check, bool) {
			return check{key: "gofmt", kind: "Go", name: "fmt", writes: true}, true
		},
	}
})

// goTest is go test as the suite's check; a fuzz or benchmark run is not the test suite.
func goTest(args []string) (check, bool) {
	if isFuzzOrBench(args[1:]) {
		return check{}, false
	}
	return check{key: "go-test", kind: "Go", name: "test", comment: "the tests",
		words: append([]string{"go", "test"}, dropGoTest(args[1:])...), timeout: testTime,
		hint: "Rerun one test with `go test -run NAME ./PKG`."}, true
}

func classifyCargo(args []string) (check, bool) {
	for len(args) > 0 && strings.HasPrefix(args[0], "+") { // cargo +nightly fmt
		args = args[1:]
	}
	if len(args) == 0 {
		return check{}, false
	}
	recipe, ok := cargoRecipes()[args[0]]
	if !ok {
		return check{}, false
	}
	return recipe(args[1:])
}

// cargoRecipes are cargo's checks by subcommand, given the words after it.
var cargoRecipes = sync.OnceValue(func() map[string]func(rest []string) (check, bool) {
	return map[string]func(rest []string) (check, bool){
		"fmt":    cargoFmt,
		"clippy": cargoClippy,
		"test": func(rest []string) (check, bool) {
			return check{key: "cargo-test", kind: "Rust", name: "test", comment: "the tests",
				words: append([]string{"cargo", "test"}, drop(rest, "--verbose")...), timeout: rustTime}, true
		},
		"nextest": cargoNextest,
	}
})

func cargoFmt(rest []string) (check, bool) {
	w := append([]string{"cargo", "fmt"}, rest...)
	checking := slices.Contains(w, "--check")
	if !checking {
		w = append(w, "--check")
	}
	fix := append([]string{"cargo", "fmt"}, drop(rest, "--check")...)
	if fix[len(fix)-1] == "--" {
		fix = fix[:len(fix)-1] // cargo fmt --all -- --check
	}
	return check{key: "cargo-fmt", kind: "Rust", name: "fmt", comment: "files that rustfmt would reformat",
		words: w, timeout: quick, fix: fix, writes: !checking}, true
}

func cargoClippy(rest []string) (check, bool) {
	w := append([]string{"cargo", "clippy"}, drop(rest, "--fix", "--allow-dirty", "--allow-staged", "--allow-no-vcs")...)
	return check{key: "cargo-clippy", kind: "Rust", name: "lint", comment: "clippy's lints",
		words: w, timeout: rustTime, fix: clippyFix(w), writes: slices.Contains(rest, "--fix")}, true
}

// cargoNextest is `cargo nextest run`; nextest's other commands list or archive.
func cargoNextest(rest []string) (check, bool) {
	if len(rest) == 0 || rest[0] != "run" {
		return check{}, false
	}
	return check{key: "cargo-test", kind: "Rust", name: "test", comment: "the tests, with nextest",
		words: append([]string{"cargo", "nextest"}, rest...), timeout: rustTime}, true
}

// dropGoTest removes what only writes coverage or machine output, or floods the log: the gate
// checks that the tests pass.
func dropGoTest(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case contains(goTestOutputFlags, a) || isOutputValue(a):
		case goTestValueFlags()[a] && i+1 < len(args) && args[i+1] == "":
			i++ // -tags "$(TAGS)" with TAGS unset: no value, no flag
		case contains(goTestOutputValueFlags, a):
			i++
		default:
			out = append(out, a)
		}
	}
	if len(goTestPackages(out)) == 0 {
		out = append(out, "./...")
	}
	return out
}

// isOutputValue reports whether an argument is an output flag with its value (-coverprofile=c.out).
func isOutputValue(a string) bool {
	return hasValueOf(a, "--coverprofile") || slices.ContainsFunc(goTestOutputValueFlags, func(f string) bool { return hasValueOf(a, f) })
}

// goTestOutputFlags only print more or write machine output; goTestOutputValueFlags only write
// coverage or the test binary, with a value.
var (
	goTestOutputFlags      = []string{"-v", "-cover", "-json"}
	goTestOutputValueFlags = []string{"-coverprofile", "-covermode", "-coverpkg", "-o"}
)

// hasValueOf reports whether arg is flag with its value: -flag=value.
func hasValueOf(arg, flag string) bool {
	return strings.HasPrefix(arg, flag+"=")
}

// goTestValueFlags are go test's (and go build's) flags that take the next word as their value
// when written without "=".
var goTestValueFlags = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"-run": true, "-skip": true, "-tags": true, "-timeout": true, "-count": true,
		"-p": true, "-parallel": true, "-bench": true, "-benchtime": true, "-cpu": true, "-exec": true, "-ldflags": true,
		"-gcflags": true, "-mod": true, "-shuffle": true, "-fuzz": true, "-fuzztime": true, "-list": true, "-vet": true,
		"-C": true, "-modfile": true, "-overlay": true, "-pgo": true, "-asmflags": true, "-buildmode": true, "-toolexec": true}
})

// goTestPackages splits go test's arguments into its flags (with their values) and packages.
func goTestPackages(args []string) []string {
	_, pkgs := splitGoTest(args)
	return pkgs
}

// goValueFlag reports whether a flag, in any of its spellings (-tags, --tags), takes a value.
func goValueFlag(a string) bool {
	return goTestValueFlags()[strings.TrimPrefix(a, "-")] || goTestValueFlags()[a] || goTestValueFlags()["-"+strings.TrimLeft(a, "-")]
}

func splitGoTest(args []string) (flags, pkgs []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			pkgs = append(pkgs, a)
			continue
		}
		flags = append(flags, a)
		if goValueFlag(a) && !strings.Contains(a, "=") && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	return flags, pkgs
}

// isFuzzOrBench reports a go test that fuzzes, benchmarks or runs no test.
func isFuzzOrBench(args []string) bool {
	for i, a := range args {
		name, value, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if value == "" && i+1 < len(args) {
			value = args[i+1]
		}
		if name == "fuzz" || name == "bench" || name == "run" && contains(noTestPatterns, value) {
			return true
		}
	}
	return false
}

// noTestPatterns are -run patterns that match no test: the run is for benchmarks or fuzzing.
var noTestPatterns = []string{"^$", "xxx", "XXX", "NONE"}

// mergeGoTests makes several go test commands of one source (a CI matrix split by package
// group) one go test: their flags together (-race when any uses it) over their packages
// together, so that no package is tested twice; ./... among them covers the rest.
func mergeGoTests(cmds [][]string) []string {
	var flags, pkgs []string
	for _, c := range cmds {
		f, p := splitGoTest(c[2:])
		flags = appendNew(flags, flagUnits(f)...)
		pkgs = appendNew(pkgs, p...)
	}
	if contains(pkgs, "./...") {
		pkgs = []string{"./..."}
	}
	out := []string{"go", "test"}
	for _, f := range flags {
		out = append(out, strings.Split(f, "\x00")...)
	}
	return append(out, pkgs...)
}

// flagUnits are go test's flags, each with its value as one unit ("-run\x00TestX"): the same
// flag with another value is another unit.
func flagUnits(f []string) []string {
	var out []string
	for i := 0; i < len(f); i++ {
		if strings.HasPrefix(f[i], "-") && i+1 < len(f) && !strings.HasPrefix(f[i+1], "-") {
			out = append(out, f[i]+"\x00"+f[i+1])
			i++
			continue
		}
		out = append(out, f[i])
	}
	return out
}

// appendNew appends the items list does not hold yet.
func appendNew(list []string, items ...string) []string {
	for _, it := range items {
		if !contains(list, it) {
			list = append(list, it)
		}
	}
	return list
}

// pythonFlags are the interpreter's flags before -m (-W error, -X dev, -bb, -u).
func pythonFlags(args []string) []string {
	n := 0
	for n < len(args) && strings.HasPrefix(args[n], "-") && args[n] != "-m" && args[n] != "-c" {
		if (args[n] == "-W" || args[n] == "-X") && n+1 < len(args) {
			n++
		}
		n++
	}
	return args[:n]
}

// dropPytest removes tox substitutions ({posargs}, --basetemp={envtmpdir}), report outputs and
// the verbosity that lists every passing test, which would fill a failure's reason.
// reportOnlyPytestArg reports whether a pytest argument only writes reports or adds output, or
// is a runner's template ({posargs}).
func reportOnlyPytestArg(w string) bool {
	return strings.Contains(w, "{") || strings.HasPrefix(w, "--junit") || strings.HasPrefix(w, "--cov") ||
		contains([]string{"-v", "-vv", "--verbose"}, w)
}

func dropPytest(words []string) []string {
	var out []string
	for _, w := range words {
		if !reportOnlyPytestArg(w) {
			out = append(out, w)
		}
	}
	return out
}

// drop removes the flags named; a trailing * matches any flag with that prefix.
func drop(args []string, flags ...string) []string {
	var out []string
	for _, a := range args {
		skip := false
		for _, f := range flags {
			if a == f || strings.HasSuffix(f, "*") && strings.HasPrefix(a, strings.TrimSuffix(f, "*")) {
				skip = true
			}
		}
		if !skip {
			out = append(out, a)
		}
	}
	return out
}

// ensure adds flag after the tool's words when it is missing.
func ensure(words []string, flag string) []string {
	if slices.Contains(words, flag) {
		return words
	}
	n := 1
	if len(words) > 1 && words[1] == "format" {
		n = 2
	}
	return append(append(slices.Clone(words[:n]), flag), words[n:]...)
}

// withDefaultPath gives black and isort the "." that pre-commit would have replaced by files.
func withDefaultPath(words []string) []string {
	for _, w := range words[1:] {
		if !strings.HasPrefix(w, "-") {
			return words
		}
	}
	return append(slices.Clone(words), ".")
}

func hasPrefix(words []string, prefix ...string) bool {
	if len(words) < len(prefix) {
		return false
	}
	for i, p := range prefix {
		if words[i] != p {
			return false
		}
	}
	return true
}
