package census

import (
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
)

// Format names a machine output a census is read from.
type Format string

const (
	FormatGo      Format = "go"      // go test -json, gotestsum --jsonfile
	FormatJUnit   Format = "junit"   // JUnit XML
	FormatTAP     Format = "tap"     // node --test's TAP
	FormatLibtest Format = "libtest" // cargo test's text
	FormatJest    Format = "jest"    // jest --json --outputFile
)

// Read reads a census in a format.
func Read(f Format, r io.Reader, opts Options) Census {
	switch f {
	case FormatGo:
		return ReadGo(r, opts)
	case FormatJUnit:
		return ReadJUnit(r, opts)
	case FormatTAP:
		return ReadTAP(r, opts)
	case FormatLibtest:
		return ReadLibtest(r, opts)
	case FormatJest:
		return ReadJest(r, opts)
	}
	b := newBuilder(string(f), opts)
	b.incomplete(fmt.Sprintf("no reader for the format %q", f))
	return b.census()
}

// Command is a gate's command as the gate declares it: an argv, or a string for its shell.
type Command struct {
	Argv  []string
	Shell string
}

// FilePlaceholder, in a Request's Args or File, stands for a file the caller chooses for the
// machine output (outside the worktree, one per request).
const FilePlaceholder = "{census}"

// Display says what the user sees change when a request is applied, and what the caller does
// about it.
type Display string

const (
	DisplaySame Display = ""
	// DisplayGoEvents: the gate's output becomes test2json events; show them as the command
	// prints them without -json (Request.Go says how).
	DisplayGoEvents Display = "go-events"
	// DisplayNodeTAP: node's own reporter is named as tap, its default off a terminal in node
	// 20 and 22; node 23 and later default to spec, whose users would see TAP instead.
	DisplayNodeTAP Display = "node-tap"
	// DisplayExtraLine: the runner adds one line naming the report it wrote.
	DisplayExtraLine Display = "extra-line"
)

// Request says how to have a runner a command names give its census without changing what the
// gate checks.
type Request struct {
	Runner string // "go test", "gotestsum", "pytest", "node --test", "vitest", "jest", "cargo test", ...
	Format Format
	// Args go in the command after the runner's word (At, an index of the argv or of the shell
	// string's words; Offset, the byte where that word ends in the shell string).
	Args   []string
	At     int
	Offset int
	// File is where the machine output is: "" the gate's own output, FilePlaceholder the
	// caller's file, else the path the command already names (relative to its directory).
	File    string
	Display Display
	// Go, for a go test asked for -json, says what the command prints without it.
	Go GoShow
	// Problem, when set, says why no census can be read from the command as it stands.
	Problem string
	// CoverProfile, for go test, is the -coverprofile the command already names ("" none):
	// where its coverage is read, rather than asking for another.
	CoverProfile string
	// Program is the command's word that names the runner's program, as written ("go",
	// "/usr/local/go/bin/go").
	Program string
	// Toolexec, for go test, says the command (or a GOFLAGS assignment before it) names its own
	// -toolexec, which a caller's must not replace.
	Toolexec bool
	// NoCover, for go test, says why it cannot be asked for a cover profile (GoShow.NoCover).
	NoCover string
	// Env, for a runner a script runs (ViaScript), are KEY=VALUE entries the runner reads from
	// its environment; the caller adds each value to the one the gate already has, after a space.
	Env []string
	// Trailing, for a runner a package script runs last, says Args go at the end of the gate's
	// command, and how the package manager passes them on to the script's last command.
	Trailing PassOn
}

// cmdWord is a word of a command: its text with quotes removed, and where it ends in a shell
// string.
type cmdWord struct {
	text string
	end  int
}

// Detect names the test runners a gate's command runs and what each needs to give its census.
// It reads the command only: a runner behind a script (npm test, make check) is not seen, and
// the gate's tests: key names its JUnit instead.
func Detect(c Command) []Request {
	var out []Request
	for _, words := range commandWords(c) {
		if req, ok := detectRunner(words); ok {
			if c.Argv == nil {
				req.Offset = words[req.At].end
			}
			out = append(out, req)
		}
	}
	return out
}

// commandWords is the words of each simple command of c: its argv, or its shell string split.
func commandWords(c Command) [][]cmdWord {
	if c.Argv == nil {
		return shellCommands(c.Shell)
	}
	var ws []cmdWord
	for _, a := range c.Argv {
		ws = append(ws, cmdWord{text: a})
	}
	return [][]cmdWord{ws}
}

// detectRunner is the request of the first runner that recognises the command's start.
func detectRunner(words []cmdWord) (Request, bool) {
	i := commandStart(words)
	if i >= len(words) {
		return Request{}, false
	}
	texts := make([]string, len(words))
	for k, w := range words {
		texts[k] = w.text
	}
	for _, r := range runners {
		if req, ok := r(texts, i); ok {
			return req, true
		}
	}
	return Request{}, false
}

// Apply puts requests' arguments in a command, FilePlaceholder replaced by file(i) for the
// i-th request; quote makes an argument one word of the shell (for a shell string only).
func Apply(c Command, reqs []Request, file func(i int) string, quote func(string) string) Command {
	type edit struct {
		at   int
		args []string
	}
	var edits []edit
	for i, r := range reqs {
		if len(r.Args) == 0 {
			continue
		}
		args := make([]string, len(r.Args))
		for k, a := range r.Args {
			args[k] = strings.ReplaceAll(a, FilePlaceholder, file(i))
		}
		if r.Trailing != PassNone {
			continue
		}
		at := r.At
		if c.Argv == nil {
			at = r.Offset
		}
		edits = append(edits, edit{at, args})
	}
	// From the end, so that each position still holds.
	slices.SortStableFunc(edits, func(a, b edit) int { return b.at - a.at })
	out := Command{Argv: slices.Clone(c.Argv), Shell: c.Shell}
	for _, e := range edits {
		if c.Argv != nil {
			out.Argv = slices.Insert(out.Argv, min(e.at+1, len(out.Argv)), e.args...)
			continue
		}
		var b strings.Builder
		for _, a := range e.args {
			b.WriteString(" " + quote(a))
		}
		at := min(e.at, len(out.Shell))
		out.Shell = out.Shell[:at] + b.String() + out.Shell[at:]
	}
	return applyTrailing(out, reqs, file, quote)
}

// shellCommands splits a shell string into its simple commands' words: quotes removed,
// operators (; & | ( ) < > and newlines) between commands, comments dropped. It is not a shell:
// it reads what a gate's run: string usually holds, and a word it cannot read simply names no
// runner.
func shellCommands(s string) [][]cmdWord {
	sp := &shellSplitter{s: s}
	for i := 0; i < len(s); i++ {
		i = sp.step(i)
	}
	sp.endCommand(len(s))
	return sp.commands
}

// shellSplitter holds shellCommands' state: the commands read, the words of the one being
// read, and the word being read.
type shellSplitter struct {
	s        string
	commands [][]cmdWord
	words    []cmdWord
	cur      strings.Builder
	inWord   bool
}

// step reads the byte at i (and what it opens: an escape, a quote, a comment) and returns the
// index of the last byte it read.
func (sp *shellSplitter) step(i int) int {
	s, c := sp.s, sp.s[i]
	switch {
	case c == '\\' && i+1 < len(s):
		return sp.escaped(i + 1)
	case c == '\'':
		return sp.singleQuoted(i)
	case c == '"':
		return sp.doubleQuoted(i)
	case c == '#' && !sp.inWord:
		return sp.comment(i)
	case c == ' ' || c == '\t':
		sp.endWord(i)
	case strings.IndexByte(";&|()<>\n", c) >= 0:
		sp.endCommand(i)
	default:
		sp.cur.WriteByte(c)
		sp.inWord = true
	}
	return i
}

// comment reads a comment opened at i, to the end of its line (the newline is left).
func (sp *shellSplitter) comment(i int) int {
	end := strings.IndexByte(sp.s[i:], '\n')
	if end < 0 {
		end = len(sp.s) - i
	}
	sp.endCommand(i + end)
	return i + end
}

// escaped reads the byte a backslash escapes, at i: a newline continues the line.
func (sp *shellSplitter) escaped(i int) int {
	if sp.s[i] != '\n' {
		sp.cur.WriteByte(sp.s[i])
		sp.inWord = true
	}
	return i
}

// singleQuoted reads a quote opened at i, to its end or the string's.
func (sp *shellSplitter) singleQuoted(i int) int {
	s := sp.s
	j := strings.IndexByte(s[i+1:], '\'')
	if j < 0 {
		j = len(s) - i - 1
	}
	sp.cur.WriteString(s[i+1 : i+1+j])
	sp.inWord = true
	return i + j + 1
}

// doubleQuoted reads a quote opened at i, where a backslash escapes " \ $ and `.
func (sp *shellSplitter) doubleQuoted(i int) int {
	s := sp.s
	sp.inWord = true
	for i++; i < len(s) && s[i] != '"'; i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
			i++
		}
		sp.cur.WriteByte(s[i])
	}
	return i
}

func (sp *shellSplitter) endWord(at int) {
	if sp.inWord {
		sp.words = append(sp.words, cmdWord{text: sp.cur.String(), end: at})
		sp.cur.Reset()
		sp.inWord = false
	}
}

func (sp *shellSplitter) endCommand(at int) {
	sp.endWord(at)
	if len(sp.words) > 0 {
		sp.commands = append(sp.commands, sp.words)
		sp.words = nil
	}
}

// wrapper is a program that runs a command given in its arguments: named by one of programs,
// with one of subcommands after it when it has any, it takes its own words (consumes of them),
// then the options skip says are its own.
type wrapper struct {
	programs    []string
	subcommands []string
	consumes    int
	skip        func(word string) bool
}

// wrappers are the programs commandStart skips.
var wrappers = []wrapper{
	{programs: []string{"env", "time", "nice", "npx", "bunx", "pnpx", "xvfb-run"}, consumes: 1, skip: isOptionOrAssignment},
	{programs: []string{"pnpm", "yarn", "npm"}, subcommands: []string{"exec", "dlx", "x"}, consumes: 2, skip: isOption},
	{programs: []string{"pnpm", "yarn"}, subcommands: []string{"vitest", "jest"}, consumes: 1}, // pnpm vitest runs vitest
	{programs: []string{"uv", "poetry", "pipenv", "pdm", "hatch", "rye"}, subcommands: []string{"run"}, consumes: 2, skip: isOption},
}

func isOption(word string) bool { return strings.HasPrefix(word, "-") }

func isOptionOrAssignment(word string) bool { return isOption(word) || strings.Contains(word, "=") }

// isAssignment says whether a word sets a variable for the command: NAME=value.
func isAssignment(word string) bool {
	return strings.Contains(word, "=") && !strings.HasPrefix(word, "-") && !strings.HasPrefix(word, "=")
}

// commandStart skips what runs a command without being it: variable assignments and wrappers
// that run their arguments (env, time, npx, pnpm exec, uv run, python -m ...).
func commandStart(w []cmdWord) int {
	i := 0
	for i < len(w) {
		var more bool
		if i, more = skipRunner(w, i); !more {
			return i
		}
	}
	return i
}

// skipRunner skips w[i] when it runs the command after it: the index of the next word, and
// whether that word may run a command too.
func skipRunner(w []cmdWord, i int) (next int, more bool) {
	word, following := w[i].text, ""
	if i+1 < len(w) {
		following = w[i+1].text
	}
	base := path.Base(word)
	if isAssignment(word) {
		return i + 1, true
	}
	for _, wr := range wrappers {
		if wr.wraps(base, following) {
			return wr.skipOwn(w, i), true
		}
	}
	if isPython(base) && following == "-m" && i+2 < len(w) {
		return i + 2, false
	}
	return i, false
}

// wraps says whether a program named base, followed by the word following, is this wrapper.
func (wr wrapper) wraps(base, following string) bool {
	return slices.Contains(wr.programs, base) && (wr.subcommands == nil || slices.Contains(wr.subcommands, following))
}

// skipOwn skips the wrapper's words at w[i] and its options after them.
func (wr wrapper) skipOwn(w []cmdWord, i int) int {
	i += wr.consumes
	for wr.skip != nil && i < len(w) && wr.skip(w[i].text) {
		i++
	}
	return i
}

func isPython(base string) bool {
	if base == "py" || base == "python" || base == "python3" {
		return true
	}
	v, ok := strings.CutPrefix(base, "python3.")
	return ok && v != "" && strings.Trim(v, "0123456789") == ""
}

// runners recognise a runner at the start of a command (words[i]) and say what it needs.
var runners = []func(words []string, i int) (Request, bool){
	goTestRunner, gotestsumRunner, pytestRunner, unittestRunner, nodeRunner, vitestRunner, jestRunner, cargoRunner,
}

// flagValue finds a flag among words, as --name=value or --name value.
func flagValue(words []string, names ...string) (value string, found bool) {
	for k, w := range words {
		for _, n := range names {
			if v, ok := strings.CutPrefix(w, n+"="); ok {
				return v, true
			}
			if w == n {
				if k+1 < len(words) {
					return words[k+1], true
				}
				return "", true
			}
		}
	}
	return "", false
}

func flagValues(words []string, name string) []string {
	var out []string
	for k, w := range words {
		if v, ok := strings.CutPrefix(w, name+"="); ok {
			out = append(out, v)
		} else if w == name && k+1 < len(words) {
			out = append(out, words[k+1])
		}
	}
	return out
}

func goTestRunner(w []string, i int) (Request, bool) {
	if path.Base(w[i]) != "go" || i+1 >= len(w) || w[i+1] != "test" {
		return Request{}, false
	}
	r := Request{Runner: "go test", Format: FormatGo, At: afterDashC(w, i+1), Program: w[i]}
	r.CoverProfile, _ = flagValue(w[i+2:], "-coverprofile", "--coverprofile")
	show, goflagsJSON := goShow(w, i)
	r.Toolexec, r.NoCover = show.Toolexec, show.NoCover
	if v, ok := flagValue(w[i+2:], "-json", "--json"); (!ok || v == "false") && !goflagsJSON {
		r.Args, r.Display, r.Go = []string{"-json"}, DisplayGoEvents, show
	}
	return r, true
}

// afterDashC is where flags go in a go command whose subcommand is at sub: after it, or after a
// -C DIR that follows it, which go wants first ("-C flag must be first flag on command line").
func afterDashC(w []string, sub int) int {
	switch {
	case sub+1 < len(w) && strings.HasPrefix(w[sub+1], "-C="):
		return sub + 1
	case sub+2 < len(w) && w[sub+1] == "-C":
		return sub + 2
	}
	return sub
}

func gotestsumRunner(w []string, i int) (Request, bool) {
	if path.Base(w[i]) != "gotestsum" {
		return Request{}, false
	}
	r := Request{Runner: "gotestsum", Format: FormatGo, At: i, File: FilePlaceholder, Args: []string{"--jsonfile=" + FilePlaceholder}}
	if v, ok := flagValue(w[i+1:], "--jsonfile"); ok && v != "" {
		r.File, r.Args = v, nil
	}
	return r, true
}

func pytestRunner(w []string, i int) (Request, bool) {
	if b := path.Base(w[i]); b != "pytest" && b != "py.test" {
		return Request{}, false
	}
	r := Request{Runner: "pytest", Format: FormatJUnit, At: i, File: FilePlaceholder,
		Args: []string{"--junitxml=" + FilePlaceholder}, Display: DisplayExtraLine}
	if v, ok := flagValue(w[i+1:], "--junitxml", "--junit-xml"); ok && v != "" {
		r.File, r.Args, r.Display = v, nil, DisplaySame
	}
	return r, true
}

func unittestRunner(w []string, i int) (Request, bool) {
	if w[i] != "unittest" || i < 2 || w[i-1] != "-m" {
		return Request{}, false
	}
	return Request{Runner: "unittest", At: i,
		Problem: "python -m unittest writes no machine output; run the tests under pytest, or name a JUnit file in tests:"}, true
}

// nodeValueFlags are node's options that take their value as the next word.
var nodeValueFlags = []string{"--test-reporter", "--test-reporter-destination", "--test-name-pattern", "--import", "--require", "-r"}

// nodeOptions is node's own options, which come before the script or the test paths.
func nodeOptions(args []string) []string {
	for k, a := range args {
		if strings.HasPrefix(a, "-") || takenAsValue(args, k) {
			continue
		}
		return args[:k]
	}
	return args
}

// takenAsValue says whether args[k] is the value of the option before it.
func takenAsValue(args []string, k int) bool {
	return k > 0 && !strings.Contains(args[k-1], "=") && slices.Contains(nodeValueFlags, args[k-1])
}

func nodeRunner(w []string, i int) (Request, bool) {
	if path.Base(w[i]) != "node" {
		return Request{}, false
	}
	opts := nodeOptions(w[i+1:])
	if !slices.Contains(opts, "--test") {
		return Request{}, false
	}
	r := Request{Runner: "node --test", Format: FormatJUnit, At: i, File: FilePlaceholder}
	reporters := flagValues(opts, "--test-reporter")
	dests := flagValues(opts, "--test-reporter-destination")
	if k := slices.Index(reporters, "junit"); k >= 0 {
		return nodeOwnJUnit(r, k, dests), true
	}
	return nodeAddJUnit(r, reporters, dests), true
}

// nodeOwnJUnit is the request for a node command that names the junit reporter, the k-th.
func nodeOwnJUnit(r Request, k int, dests []string) Request {
	if k < len(dests) {
		r.File = dests[k]
		return r
	}
	r.Format = FormatJUnit
	r.File, r.Problem = "", "node's junit reporter writes into the gate's output without a --test-reporter-destination"
	return r
}

// nodeAddJUnit is the request for a node command that does not name the junit reporter: one
// added beside the reporters it names.
func nodeAddJUnit(r Request, reporters, dests []string) Request {
	junit := []string{"--test-reporter=junit", "--test-reporter-destination=" + FilePlaceholder}
	switch {
	case len(reporters) == 0:
		r.Args = append([]string{"--test-reporter=tap", "--test-reporter-destination=stdout"}, junit...)
		r.Display = DisplayNodeTAP
	case len(reporters) == len(dests):
		r.Args = junit
	case len(reporters) == 1 && len(dests) == 0:
		// Several reporters need a destination each: the user's goes where it went.
		r.Args = append(junit, "--test-reporter-destination=stdout")
	default:
		r.File, r.Problem = "", "node's reporters and their destinations do not pair"
	}
	return r
}

// vitestAt is where vitest's arguments go: after its command when it names one that runs tests;
// false for a command that runs none.
func vitestAt(w []string, i int) (int, bool) {
	if i+1 >= len(w) {
		return i, true
	}
	switch w[i+1] {
	case "bench", "init", "list":
		return 0, false
	case "run", "watch", "dev", "related":
		return i + 1, true
	}
	return i, true
}

func vitestRunner(w []string, i int) (Request, bool) {
	if path.Base(w[i]) != "vitest" {
		return Request{}, false
	}
	at, ok := vitestAt(w, i)
	if !ok {
		return Request{}, false
	}
	rest := w[i+1:]
	r := Request{Runner: "vitest", Format: FormatJUnit, At: at, File: FilePlaceholder, Display: DisplayExtraLine}
	reporters := flagValues(rest, "--reporter")
	if slices.Contains(reporters, "junit") {
		r.Display = DisplaySame
		if v, ok := flagValue(rest, "--outputFile.junit", "--outputFile"); ok && v != "" {
			r.File = v
		} else {
			r.File, r.Problem = "", "vitest's junit reporter writes into the gate's output without --outputFile.junit"
		}
		return r, true
	}
	if len(reporters) == 0 {
		r.Args = []string{"--reporter=default"} // naming one reporter drops the default
	}
	r.Args = append(r.Args, "--reporter=junit", "--outputFile.junit="+FilePlaceholder)
	return r, true
}

func jestRunner(w []string, i int) (Request, bool) {
	if path.Base(w[i]) != "jest" {
		return Request{}, false
	}
	rest := w[i+1:]
	r := Request{Runner: "jest", Format: FormatJest, At: i}
	if _, ok := flagValue(rest, "--json"); ok {
		if v, ok := flagValue(rest, "--outputFile"); ok && v != "" {
			r.File = v
		} else {
			r.Problem = "jest --json without --outputFile writes its report into the gate's output, mixed with the rest"
		}
		return r, true
	}
	r.Args = []string{"--json", "--outputFile=" + FilePlaceholder}
	r.File, r.Display = FilePlaceholder, DisplayExtraLine
	return r, true
}

func cargoRunner(w []string, i int) (Request, bool) {
	if path.Base(w[i]) != "cargo" {
		return Request{}, false
	}
	k := i + 1
	if k < len(w) && strings.HasPrefix(w[k], "+") {
		k++ // a toolchain: cargo +nightly test
	}
	if k >= len(w) {
		return Request{}, false
	}
	switch w[k] {
	case "test", "t":
		return Request{Runner: "cargo test", Format: FormatLibtest, At: k, Problem: cargoTestProblem(w[k+1:])}, true
	case "nextest":
		return Request{Runner: "cargo nextest", Format: FormatJUnit, At: k,
			Problem: "nextest writes JUnit only where a profile of .config/nextest.toml says ([profile.NAME.junit] path); name that file in tests:"}, true
	}
	return Request{}, false
}

// cargoTestProblem says why cargo test's arguments (after test) print no text a census reads;
// "" when they do.
func cargoTestProblem(args []string) string {
	if slices.Contains(args, "-q") || slices.Contains(args, "--quiet") {
		return "cargo test -q prints terse output, which names only the failing tests"
	}
	if v, ok := flagValue(args, "--format"); ok && v != "pretty" {
		return "libtest's --format " + v + " is not the text a census reads"
	}
	return ""
}
