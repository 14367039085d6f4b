package findings

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/reviewdog/errorformat/fmts"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// parser reads lines and emits findings; flush ends what a multi-line finding left pending.
type parser interface {
	line(s string)
	flush()
}

// originParser is a parser that reads where the lines come from when the runner knows (go test
// -json's package of each line): see Reader.Origin.
type originParser interface {
	origin(origin string)
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

func (m multi) origin(origin string) {
	for _, p := range m {
		if o, ok := p.(originParser); ok {
			o.origin(origin)
		}
	}
}

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
var builtin = sync.OnceValue(func() map[string]makeParser {
	return map[string]makeParser{
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
})

// aliases name the same parsers after the tools users think of.
var aliases = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"vet": "go", "govet": "go", "staticcheck": "go", "golangci-lint": "go",
		"typescript": "tsc", "cargo": "rust", "rustc": "rust", "clippy": "rust",
		"goimports": "gofmt", "clang": "gcc",
	}
})

// Builtins lists the built-in format names, sorted, for help and errors.
func Builtins() []string {
	names := []string{None}
	for n := range builtin() {
		names = append(names, n)
	}
	for n := range aliases() {
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
		if s, ok, err := parseName(strings.TrimSpace(format[0])); ok || err != nil {
			return s, err
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

// parseName reads a format named in one word: "none", a built-in name or alias, or an
// errorformat of the catalogue. ok is false for a name it does not know that may be an
// errorformat line (it holds a %).
func parseName(name string) (s Spec, ok bool, err error) {
	if name == None {
		return Spec{names: []string{None}}, true, nil
	}
	if a, ok := aliases()[name]; ok {
		name = a
	}
	if mk, ok := builtin()[name]; ok {
		return Spec{parsers: []makeParser{mk}, names: []string{name}}, true, nil
	}
	if f, ok := fmts.DefinedFmts()[name]; ok {
		mk, err := errorformatParser(f.Errorformat)
		if err != nil {
			return Spec{}, false, fmt.Errorf("format %q: %w", name, err)
		}
		return Spec{parsers: []makeParser{mk}, names: []string{name}}, true, nil
	}
	if !strings.Contains(name, "%") {
		return Spec{}, false, fmt.Errorf("unknown format %q: want a built-in name (%s) or an errorformat such as %q",
			name, strings.Join(Builtins(), ", "), "%f:%l:%c: %m")
	}
	return Spec{}, false, nil
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
		return strings.FieldsFunc(g.Run, splitsWords)
	}
	return g.Argv
}

// splitsWords says whether r ends a word of a shell command: a blank or an operator.
func splitsWords(r rune) bool { return strings.ContainsRune(" \t\n;&|()", r) }

// Detect picks parsers from the words of a command: every tool it recognises, in order, so that
// `go vet ./... && go test ./...` reads both; the generic file:line: reader when none.
func Detect(words []string) Spec {
	var s Spec
	for i := range words {
		if i > 0 && slices.Contains(formatFlags, words[i-1]) {
			continue // a format's name ("shellcheck -f gcc"), not a command
		}
		if name, ok := toolParser(words, i); ok {
			s.add(name)
		}
	}
	if len(s.parsers) == 0 {
		s.add("generic")
	}
	return s
}

// formatFlags are the flags whose value names an output format, not a command.
var formatFlags = []string{"-f", "--format", "--reporter", "--output-format"}

// add adds the built-in parser name, once.
func (s *Spec) add(name string) {
	if !slices.Contains(s.names, name) {
		s.names = append(s.names, name)
		s.parsers = append(s.parsers, builtin()[name])
	}
}

// toolParse names the parser that reads the output of the programs a tool names.
type toolParse struct {
	programs []string
	// subcommands, when any, are the words after the program that make it this tool (go test).
	subcommands []string
	// flag, when set, must be among the command's words after the program: gofmt lists files
	// only with -l.
	flag string
	// parser is the parser's name; "" the program's own.
	parser string
}

// toolParsers are the tools Detect recognises, the first that matches deciding.
var toolParsers = []toolParse{
	{programs: []string{"go"}, subcommands: []string{"test"}, parser: "gotest"},
	{programs: []string{"go"}, subcommands: []string{"vet", "build", "run", "install"}, parser: "go"},
	{programs: []string{"gotestsum"}, parser: "gotest"},
	{programs: []string{"staticcheck", "golangci-lint", "revive", "errcheck", "gosec", "govulncheck"}, parser: "go"},
	{programs: []string{"gofmt", "goimports", "gofumpt"}, flag: "-l", parser: "gofmt"},
	{programs: []string{"eslint"}},
	{programs: []string{"tsc", "vue-tsc"}, parser: "tsc"},
	{programs: []string{"vitest", "jest", "ava", "ruff", "mypy", "pytest", "pylint", "shellcheck"}},
	{programs: []string{"py.test"}, parser: "pytest"},
	{programs: []string{"cargo", "rustc", "cargo-clippy"}, parser: "rust"},
	{programs: []string{"gcc", "g++", "cc", "c++", "clang", "clang++"}, parser: "gcc"},
}

// toolParser names the parser for the program words[i] names, when Detect knows it.
func toolParser(words []string, i int) (string, bool) {
	base := path.Base(strings.Trim(words[i], `"'`))
	next := ""
	if i+1 < len(words) {
		next = strings.Trim(words[i+1], `"'`)
	}
	for _, t := range toolParsers {
		if t.matches(base, next, words[i+1:]) {
			return cmpOr(t.parser, base), true
		}
	}
	return "", false
}

// matches says whether program base, followed by the word next and the words rest, is this tool.
func (t toolParse) matches(base, next string, rest []string) bool {
	return slices.Contains(t.programs, base) &&
		(t.subcommands == nil || slices.Contains(t.subcommands, next)) &&
		(t.flag == "" || slices.Contains(rest, t.flag))
}

func itoa(n int) string { return strconv.Itoa(n) }

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0
	}
	return n
}
