package scaffold

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// Nothing the project runs as a check is dropped without a word: a command init does not make a
// gate of, in a CI step that checks or in a check target, is named in a note with where it runs,
// and so is a CI action that checks (typos, buf lint). Setup, install and build commands, and
// the shell's own words, are no checks and are not named.

// checkActions are GitHub actions that run a check, with the command that runs it locally.
// Those whose command init knows become gates through classify; the others are named.
var checkActions = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"crate-ci/typos":                      "typos",
		"bufbuild/buf-lint-action":            "buf lint",
		"bufbuild/buf-breaking-action":        "buf breaking --against <ref>",
		"bufbuild/buf-action":                 "buf lint && buf format --diff --exit-code",
		"ludeeus/action-shellcheck":           "shellcheck",
		"rhysd/actionlint":                    "actionlint",
		"raven-actions/actionlint":            "actionlint",
		"davidanson/markdownlint-cli2-action": "markdownlint-cli2",
		"codespell-project/actions-codespell": "codespell",
		"embarkstudios/cargo-deny-action":     "cargo deny check",
		"rustsec/audit-check":                 "cargo audit",
		"actions-rs/clippy-check":             "cargo clippy",
		"hadolint/hadolint-action":            "hadolint Dockerfile",
		"ibiqlik/action-yamllint":             "yamllint .",
		"errata-ai/vale-action":               "vale",
		"psf/black":                           "black --check .",
		"astral-sh/ruff-action":               "ruff check",
		"chartboost/ruff-action":              "ruff check",
		"dprint/check":                        "dprint check",
		"super-linter/super-linter":           "super-linter",
		"github/super-linter":                 "super-linter",
	}
})

// actionCommand is the local command of a check action, "" when the action checks nothing init
// knows of.
func actionCommand(uses string) string {
	name, _, _ := strings.Cut(strings.ToLower(uses), "@")
	if c, ok := checkActions()[name]; ok {
		return c
	}
	if strings.HasPrefix(name, "reviewdog/action-") {
		return strings.TrimPrefix(name, "reviewdog/action-")
	}
	return ""
}

// notChecks are programs that set up, build, print or steer the shell: never a check left out.
// A command of make, tox, nox or pre-commit is followed into what it runs instead.
var notChecks = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"apt": true, "apt-get": true, "sudo": true, "brew": true, "choco": true, "pip": true, "pip3": true, "pipx": true,
		"uv": true, "poetry": true, "gem": true, "curl": true, "wget": true, "echo": true, "printf": true, "export": true,
		"set": true, "mkdir": true, "cd": true, "cp": true, "mv": true, "rm": true, "ln": true, "chmod": true, "tar": true,
		"unzip": true, "git": true, "make": true, "gmake": true, "rustup": true, "go": true, "cargo": true, "[": true,
		"[[": true, "]]": true, "]": true, "{": true, "}": true, "test": true, "if": true, "then": true, "else": true, "elif": true, "fi": true,
		"exit": true, "true": true, "false": true, "case": true, "esac": true, "for": true, "do": true, "done": true,
		"while": true, "source": true, ".": true, "tee": true, "cat": true, "ls": true, "find": true, "xargs": true,
		"sleep": true, "env": true, "eval": true, "which": true, "command": true, "dirname": true, "basename": true,
		"grep": true, "tox": true, "nox": true, "pre-commit": true, "npm": true, "pnpm": true, "yarn": true, "bun": true,
		"corepack": true, "nvm": true, "tmux": true, "sed": true, "awk": true, "touch": true, "pwd": true, "shift": true,
		"return": true, "local": true, "wait": true, "kill": true, "ulimit": true, "python": true, "python3": true,
		"node": true, "ruby": false, "docker": false, "bundle": false, "gh": true, "aws": true, "gcloud": true,
		"az": true, "twine": true, "gsutil": true, "unset": true, "trap": true, "read": true, "pushd": true, "popd": true,
		// text and file utilities that feed other commands
		"cut": true, "tr": true, "head": true, "tail": true, "sort": true, "uniq": true, "wc": true, "jq": true, "yq": true,
		"date": true, "mktemp": true, "seq": true, "realpath": true, "readlink": true, "stat": true, "uname": true,
		"nproc": true, "hash": true, "type": true, "sha256sum": true, "shasum": true, "base64": true, "gzip": true, "zip": true, "install": true,
	}
})

// notCheckUnits are tox envs and nox sessions that serve, release or update rather than check.
var notCheckUnits = []string{"update", "release", "publish", "upload", "build", "dev", "clean", "serve", "watch",
	"auto", "bump", "lock", "deploy", "format", "fmt", "fix", "generate", "gen", "regen"}

// releaseWorkflow reports whether a CI source is a workflow that releases or deploys: its
// commands (gh release create --verify-tag) check nothing of the code.
func releaseWorkflow(source string) bool {
	file, _, _ := strings.Cut(source, ",")
	file = strings.ToLower(path.Base(file))
	for _, w := range []string{"release", "publish", "deploy", "docker", "image", "pages"} {
		if strings.Contains(file, w) {
			return true
		}
	}
	return false
}

// makeFunctions are make's functions: $(filter-out -v,$(FLAGS)) in a recipe is cut at its
// parentheses into words that are no command.
var makeFunctions = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"filter-out": true, "filter": true, "shell": true, "wildcard": true, "patsubst": true,
		"subst": true, "foreach": true, "if": true, "or": true, "and": true, "call": true, "eval": true, "info": true,
		"warning": true, "error": true, "realpath": true, "abspath": true, "dir": true, "notdir": true, "addprefix": true,
		"addsuffix": true, "lastword": true, "firstword": true, "word": true, "words": true, "sort": true, "strip": true,
		"findstring": true, "origin": true, "value": true, "join": true, "suffix": true, "basename": true}
})

// checkWords are words that say a command checks something: `addlicense -check`,
// `ci/test-complete`, `buf lint`.
var checkWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"check": true, "lint": true, "test": true, "tests": true, "verify": true, "vet": true,
		"spec": true, "typos": true, "audit": true, "diff": false, "shellcheck": true, "rubocop": true, "spell": true, "markdownlint": true,
		"spelling": true, "format": false}
})

// leftOutChecks names, per folder, the checks the declared scripts run that became no gate.
func leftOutChecks(decls []declared) map[string][]string {
	out := map[string][]string{}
	seen := map[string]bool{}
	for _, d := range decls {
		// A tox env CI does not run is still declared: its unknown commands are named too.
		if d.fixer || d.rank == rankCI && releaseWorkflow(d.source) || notCheckUnit(d.unit) || docsBuild(d) {
			continue
		}
		for _, what := range leftOutOf(d) {
			if !seen[d.dir+"\x00"+what] {
				seen[d.dir+"\x00"+what] = true
				if d.unread == "" { // an unread unit's reason names it already
					what += " (" + d.source + ")"
				}
				out[d.dir] = append(out[d.dir], what)
			}
		}
	}
	return out
}

// leftOutOf names the checks one declared script runs that init makes no gate of: the action it
// uses, or its commands that may check.
func leftOutOf(d declared) []string {
	if d.unread != "" {
		return []string{d.unread}
	}
	if d.uses != "" {
		if c := actionCommand(d.uses); c != "" {
			name, _, _ := strings.Cut(d.uses, "@")
			return []string{fmt.Sprintf("%s, locally `%s`", name, c)}
		}
		return nil
	}
	var left []simpleCommand
	for _, cmd := range splitCommands(d.script) {
		if isCheck(d, cmd.words) {
			continue
		}
		if maybeCheck(cmd.words) {
			left = append(left, cmd)
		}
	}
	var out []string
	for _, cmd := range left {
		if saysItChecks(d, cmd, len(left)) {
			out = append(out, "`"+clipCommand(shownCommand(d, cmd))+"`")
		}
	}
	return out
}

// isCheck reports whether a declared command is a check that becomes a gate: a tool init knows,
// or the project's own check script.
func isCheck(d declared, words []string) bool {
	if _, ok := classify(words); ok {
		return true
	}
	_, ok := projectScriptCheck(d, words)
	if _, whole := scriptItself(d, words); whole || len(words) > 1 && projectPath(words[0]) && packageScriptRun(d, words) {
		return true
	}
	return ok || followedBy(d, words)
}

// correctingFlags are the flags that make a tool init names (rather than gates) rewrite the
// files it checks, by tool: the line to add by hand is the check without them.
var correctingFlags = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"rubocop": {"-a", "-A", "--autocorrect", "--autocorrect-all", "--auto-correct", "--auto-correct-all"},
	}
})

// uncorrecting is a command without the flags that make its tool correct files.
func uncorrecting(cmd simpleCommand) simpleCommand {
	for tool, flags := range correctingFlags() {
		if slices.Contains(cmd.words, tool) {
			cmd.words = slices.DeleteFunc(slices.Clone(cmd.words), func(w string) bool { return slices.Contains(flags, w) })
		}
	}
	return cmd
}

// saysItChecks: in CI, where most commands set up, a command is a check when it says so, or
// when it is the one command of a step whose name says so ("Check documentation"); elsewhere
// (a check target, a tox env) every command may be.
func saysItChecks(d declared, cmd simpleCommand, commands int) bool {
	return d.rank != rankCI || hasCheckWord(cmd.words) || commands == 1 && hasCheckWord(strings.Fields(d.what))
}

// shownCommand is the command as a note shows it, in its check form: a one-line script whole
// (`docker run -v $(pwd):/wrk ... -check .`), else the command's words.
func shownCommand(d declared, cmd simpleCommand) string {
	check := uncorrecting(cmd)
	if line := strings.TrimSpace(d.script); !strings.Contains(line, "\n") && check.String() == cmd.String() {
		return line
	}
	return check.String()
}

// maybeCheck reports whether a command init does not recognise could still be a check: not
// setup, install, build or the shell's own words.
func maybeCheck(words []string) bool {
	if len(words) == 0 {
		return false
	}
	tool := words[0]
	if strings.HasSuffix(tool, "/") && !strings.Contains(tool, "$") {
		return false // a folder, not a program
	}
	if notCheckProgram(tool) || hasSetupWord(words) || versionProbe(words) {
		return false
	}
	if subcommands, ok := checkingSubcommands()[tool]; ok {
		return len(words) > 1 && subcommands(words[1:])
	}
	return true
}

// versionProbe reports whether a command only asks a tool its version (golangci-lint --version,
// before installing it when missing): it checks nothing of the code.
func versionProbe(words []string) bool {
	return len(words) == 2 && contains([]string{"--version", "-version", "-V", "version"}, words[1])
}

// notCheckProgram reports whether a program is never a check left out: it sets up, builds,
// prints or steers the shell (cargo, go and the interpreters are judged by what they run), or it
// is no program at all (a make function, a variable, a flag).
func notCheckProgram(tool string) bool {
	interpreter := tool == "python" || tool == "python3" || tool == "node"
	return notChecks()[tool] && tool != "cargo" && tool != "go" && !interpreter || makeFunctions()[tool] ||
		strings.HasPrefix(tool, "$") || strings.HasPrefix(tool, "-")
}

// setupWords, in any word of a command, say it installs, sets up or serves rather than checks.
var setupWords = []string{"install", "setup", "watch", "serve", "autobuild", "completion", "--generate"}

func hasSetupWord(words []string) bool {
	for _, w := range words {
		lw := strings.ToLower(w)
		for _, not := range setupWords {
			if strings.Contains(lw, not) {
				return true
			}
		}
	}
	return false
}

// checkingSubcommands are programs that check only with some arguments, which say whether
// they do (given the words after the program).
var checkingSubcommands = sync.OnceValue(func() map[string]func(args []string) bool {
	return map[string]func(args []string) bool{
		// cargo's checks init knows are classified; build, run and install are no checks.
		"cargo": func(args []string) bool { return contains(cargoLeftOutChecks, args[0]) },
		// go test that reaches here fuzzes or benchmarks (the suite is classified); build, run,
		// install and generate are no checks.
		"go":     func(args []string) bool { return args[0] == "test" },
		"bundle": func(args []string) bool { return len(args) > 1 && args[0] == "exec" },
		"docker": func(args []string) bool { return args[0] == "run" },
		// coverage run runs the tests; erase, report, html, xml and combine only handle the data.
		"coverage": func(args []string) bool { return args[0] == "run" },
		// a shell given a script of the project's own (sh scripts/check.sh), not one read from
		// a pipe (curl ... | sh -s) or a command string (-c).
		"sh":   projectScript,
		"bash": projectScript,
		// a script of the project's own (scripts/check_license.py), not -m build or -c '...'
		"python":  projectScript,
		"python3": projectScript,
		"node":    projectScript,
		"ruby":    projectScript,
	}
})

// cargoLeftOutChecks are cargo's subcommands that check and that init makes no gate of.
var cargoLeftOutChecks = []string{"doc", "check", "deny", "audit", "semver-checks", "hack"}

func projectScript(args []string) bool { return !strings.HasPrefix(args[0], "-") }

func notCheckUnit(unit string) bool {
	for _, part := range unitParts(unit) {
		if contains(notCheckUnits, part) {
			return true
		}
	}
	return false
}

func unitParts(unit string) []string {
	return strings.FieldsFunc(strings.ToLower(unit), func(r rune) bool { return !unicode.IsLetter(r) })
}

// docUnits are tox envs and nox sessions that build the documentation.
var docUnits = []string{"docs", "doc", "documentation", "sphinx", "mkdocs"}

// strictDocFlags make a documentation build fail on a warning: then it checks the docs.
var strictDocFlags = []string{"-W", "--fail-on-warning", "--strict", "-s"}

// docsBuild reports a tox env or nox session that only builds the documentation: plumbing, not a
// check left out, unless its name says it checks (docs-lint, linkcheck-docs) or its build fails
// on a warning (sphinx-build -W, mkdocs build --strict).
func docsBuild(d declared) bool {
	parts := unitParts(d.unit)
	if !slices.ContainsFunc(parts, func(p string) bool { return contains(docUnits, p) }) || hasCheckWord(parts) {
		return false
	}
	for _, cmd := range splitCommands(d.script) {
		if slices.ContainsFunc(cmd.words, func(w string) bool { return contains(strictDocFlags, w) }) {
			return false
		}
	}
	return true
}

// hasCheckWord reports whether a word, split at anything not a letter, says "check".
func hasCheckWord(words []string) bool {
	for _, w := range words {
		for _, part := range strings.FieldsFunc(strings.ToLower(w), func(r rune) bool { return !unicode.IsLetter(r) }) {
			if checkWords()[part] {
				return true
			}
		}
	}
	return false
}

// clipCommand keeps a long command readable in a comment.
func clipCommand(s string) string {
	const max = 140
	if len(s) <= max {
		return s
	}
	return s[:max-3] + "..."
}
