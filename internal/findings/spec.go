package findings

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/reviewdog/errorformat/fmts"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// parser reads lines and emits findings; flush ends what a multi-line finding left pending.
type parser interface {
	line(s string)
	flush()
}

type emitFunc func(gates.Finding)

type makeParser func(emit emitFunc, opts Options) parser

// prefilter is what a parser that reads some lines only (one-line formats) implements: may is
// false for a line it can never take, decided from its bytes before the line becomes a string.
type prefilter interface {
	may(line []byte) bool
}

// multi feeds every line to each of several parsers (a command that runs vet and then tests).
type multi []parser

// may is true when any parser may take the line; a parser without a prefilter takes any.
func (m multi) may(line []byte) bool {
	for _, p := range m {
		if f, ok := p.(prefilter); !ok || f.may(line) {
			return true
		}
	}
	return false
}

func (m multi) line(s string) {
	for _, p := range m {
		p.line(s)
	}
}

func (m multi) flush() {
	for _, p := range m {
		p.flush()
	}
}

// None is the format that reads no findings.
const None = "none"

// builtin are the hand-written parsers, by the name `format:` gives them.
var builtin = map[string]makeParser{
	"go":         newGoParser,
	"gotest":     newGoTestParser,
	"gofmt":      newListParser,
	"eslint":     newESLintParser,
	"tsc":        newTSCParser,
	"vitest":     newVitestParser,
	"jest":       newJestParser,
	"ava":        newAvaParser,
	"ruff":       newRuffParser,
	"mypy":       newMypyParser,
	"pytest":     newPytestParser,
	"pylint":     newPylintParser,
	"rust":       newRustParser,
	"shellcheck": newShellcheckParser,
	"gcc":        newGCCParser,
	"generic":    newGenericParser,
}

// aliases name the same parsers after the tools users think of.
var aliases = map[string]string{
	"vet": "go", "govet": "go", "staticcheck": "go", "golangci-lint": "go",
	"typescript": "tsc", "cargo": "rust", "rustc": "rust", "clippy": "rust",
	"goimports": "gofmt", "clang": "gcc",
}

// Builtins lists the built-in format names, sorted, for help and errors.
func Builtins() []string {
	names := []string{None}
	for n := range builtin {
		names = append(names, n)
	}
	for n := range aliases {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Spec is a parsed `format:` value.
type Spec struct {
	parsers []makeParser
	names   []string
}

// Names says which parsers the spec reads with, for `gauntlet list` and tests.
func (s Spec) Names() []string { return s.names }

// Parse reads a `format:` value: one built-in name, "none", the name of an errorformat the
// reviewdog/errorformat catalogue ships (flake8, rubocop, ...), or errorformat lines.
func Parse(format []string) (Spec, error) {
	if len(format) == 1 {
		name := strings.TrimSpace(format[0])
		if name == None {
			return Spec{names: []string{None}}, nil
		}
		if a, ok := aliases[name]; ok {
			name = a
		}
		if mk, ok := builtin[name]; ok {
			return Spec{parsers: []makeParser{mk}, names: []string{name}}, nil
		}
		if f, ok := fmts.DefinedFmts()[name]; ok {
			mk, err := errorformatParser(f.Errorformat)
			if err != nil {
				return Spec{}, fmt.Errorf("format %q: %w", name, err)
			}
			return Spec{parsers: []makeParser{mk}, names: []string{name}}, nil
		}
		if !strings.Contains(name, "%") {
			return Spec{}, fmt.Errorf("unknown format %q: want a built-in name (%s) or an errorformat such as %q",
				name, strings.Join(Builtins(), ", "), "%f:%l:%c: %m")
		}
	}
	if len(format) == 0 {
		return Spec{}, fmt.Errorf("format is empty")
	}
	mk, err := errorformatParser(format)
	if err != nil {
		return Spec{}, err
	}
	return Spec{parsers: []makeParser{mk}, names: []string{"errorformat"}}, nil
}

// For is the spec of a gate: its own format, else what its command suggests. A format that does
// not parse (config validation prevents it) reads nothing rather than guessing.
func For(g gates.Gate) Spec {
	if len(g.Format) > 0 {
		s, err := Parse(g.Format)
		if err != nil {
			return Spec{}
		}
		return s
	}
	return Detect(commandWords(g))
}

func commandWords(g gates.Gate) []string {
	if g.Run != "" {
		return strings.FieldsFunc(g.Run, func(r rune) bool {
			return r == ' ' || r == '\t' || r == '\n' || r == ';' || r == '&' || r == '|' || r == '(' || r == ')'
		})
	}
	return g.Argv
}

// Detect picks parsers from the words of a command: every tool it recognises, in order, so that
// `go vet ./... && go test ./...` reads both; the generic file:line: reader when none.
func Detect(words []string) Spec {
	var s Spec
	add := func(name string) {
		if !slices.Contains(s.names, name) {
			s.names = append(s.names, name)
			s.parsers = append(s.parsers, builtin[name])
		}
	}
	for i, w := range words {
		if i > 0 && slices.Contains([]string{"-f", "--format", "--reporter", "--output-format"}, words[i-1]) {
			continue // a format's name ("shellcheck -f gcc"), not a command
		}
		w = strings.Trim(w, `"'`)
		next := ""
		if i+1 < len(words) {
			next = strings.Trim(words[i+1], `"'`)
		}
		switch base := path.Base(w); base {
		case "go":
			switch next {
			case "test":
				add("gotest")
			case "vet", "build", "run", "install":
				add("go")
			}
		case "gotestsum":
			add("gotest")
		case "staticcheck", "golangci-lint", "revive", "errcheck", "gosec", "govulncheck":
			add("go")
		case "gofmt", "goimports", "gofumpt":
			if slices.Contains(words[i+1:], "-l") {
				add("gofmt")
			}
		case "eslint":
			add("eslint")
		case "tsc", "vue-tsc":
			add("tsc")
		case "vitest", "jest", "ava", "ruff", "mypy", "pytest", "pylint", "shellcheck":
			add(base)
		case "py.test":
			add("pytest")
		case "cargo", "rustc", "cargo-clippy":
			add("rust")
		case "gcc", "g++", "cc", "c++", "clang", "clang++":
			add("gcc")
		}
	}
	if len(s.parsers) == 0 {
		add("generic")
	}
	return s
}

func itoa(n int) string { return strconv.Itoa(n) }

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0
	}
	return n
}
