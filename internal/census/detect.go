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
	var commands [][]cmdWord
	if c.Argv != nil {
		var ws []cmdWord
		for _, a := range c.Argv {
			ws = append(ws, cmdWord{text: a})
		}
		commands = [][]cmdWord{ws}
	} else {
		commands = shellCommands(c.Shell)
	}
	var out []Request
	for _, words := range commands {
		i := commandStart(words)
		if i >= len(words) {
			continue
		}
		texts := make([]string, len(words))
		for k, w := range words {
			texts[k] = w.text
		}
		for _, r := range runners {
			if req, ok := r(texts, i); ok {
				if c.Argv == nil {
					req.Offset = words[req.At].end
				}
				out = append(out, req)
				break
			}
		}
	}
	return out
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
	return out
}

// shellCommands splits a shell string into its simple commands' words: quotes removed,
// operators (; & | ( ) < > and newlines) between commands, comments dropped. It is not a shell:
// it reads what a gate's run: string usually holds, and a word it cannot read simply names no
// runner.
func shellCommands(s string) [][]cmdWord {
	var commands [][]cmdWord
	var words []cmdWord
	var cur strings.Builder
	inWord := false
	endWord := func(at int) {
		if inWord {
			words = append(words, cmdWord{text: cur.String(), end: at})
			cur.Reset()
			inWord = false
		}
	}
	endCommand := func(at int) {
		endWord(at)
		if len(words) > 0 {
			commands = append(commands, words)
			words = nil
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			if s[i] != '\n' {
				cur.WriteByte(s[i])
				inWord = true
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				j = len(s) - i - 1
			}
			cur.WriteString(s[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == '"':
			inWord = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
		case c == '#' && !inWord:
			for i < len(s) && s[i] != '\n' {
				i++
			}
			endCommand(i)
		case c == ' ' || c == '\t':
			endWord(i)
		case strings.IndexByte(";&|()<>\n", c) >= 0:
			endCommand(i)
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	endCommand(len(s))
	return commands
}

// commandStart skips what runs a command without being it: variable assignments and wrappers
// that run their arguments (env, time, npx, pnpm exec, uv run, python -m ...).
func commandStart(w []cmdWord) int {
	i := 0
	for i < len(w) {
		word := w[i].text
		next := ""
		if i+1 < len(w) {
			next = w[i+1].text
		}
		switch base := path.Base(word); {
		case strings.Contains(word, "=") && !strings.HasPrefix(word, "-") && !strings.HasPrefix(word, "="):
			i++ // NAME=value
		case base == "env" || base == "time" || base == "nice" || base == "npx" || base == "bunx" || base == "pnpx" || base == "xvfb-run":
			i++
			for i < len(w) && (strings.HasPrefix(w[i].text, "-") || strings.Contains(w[i].text, "=")) {
				i++
			}
		case (base == "pnpm" || base == "yarn" || base == "npm") && (next == "exec" || next == "dlx" || next == "x"):
			i += 2
			for i < len(w) && strings.HasPrefix(w[i].text, "-") {
				i++
			}
		case (base == "pnpm" || base == "yarn") && slices.Contains([]string{"vitest", "jest"}, next):
			i++
		case (base == "uv" || base == "poetry" || base == "pipenv" || base == "pdm" || base == "hatch" || base == "rye") && next == "run":
			i += 2
			for i < len(w) && strings.HasPrefix(w[i].text, "-") {
				i++
			}
		case isPython(base) && next == "-m" && i+2 < len(w):
			return i + 2
		default:
			return i
		}
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
	r := Request{Runner: "go test", Format: FormatGo, At: i + 1}
	r.CoverProfile, _ = flagValue(w[i+2:], "-coverprofile", "--coverprofile")
	show, goflagsJSON := goShow(w, i)
	if v, ok := flagValue(w[i+2:], "-json", "--json"); (!ok || v == "false") && !goflagsJSON {
		r.Args, r.Display, r.Go = []string{"-json"}, DisplayGoEvents, show
	}
	return r, true
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

func nodeRunner(w []string, i int) (Request, bool) {
	if path.Base(w[i]) != "node" {
		return Request{}, false
	}
	// node's own options come before the script or the test paths.
	opts := w[i+1:]
	for k, a := range opts {
		if !strings.HasPrefix(a, "-") {
			if k > 0 && !strings.Contains(opts[k-1], "=") && slices.Contains([]string{"--test-reporter", "--test-reporter-destination", "--test-name-pattern", "--import", "--require", "-r"}, opts[k-1]) {
				continue
			}
			opts = opts[:k]
			break
		}
	}
	if !slices.Contains(opts, "--test") {
		return Request{}, false
	}
	r := Request{Runner: "node --test", Format: FormatJUnit, At: i, File: FilePlaceholder}
	reporters := flagValues(opts, "--test-reporter")
	dests := flagValues(opts, "--test-reporter-destination")
	if k := slices.Index(reporters, "junit"); k >= 0 {
		if k < len(dests) {
			r.File = dests[k]
			return r, true
		}
		r.Format = FormatJUnit
		r.File, r.Problem = "", "node's junit reporter writes into the gate's output without a --test-reporter-destination"
		return r, true
	}
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
	return r, true
}

func vitestRunner(w []string, i int) (Request, bool) {
	if path.Base(w[i]) != "vitest" {
		return Request{}, false
	}
	at := i
	if i+1 < len(w) {
		switch w[i+1] {
		case "bench", "init", "list":
			return Request{}, false
		case "run", "watch", "dev", "related":
			at = i + 1
		}
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
		r := Request{Runner: "cargo test", Format: FormatLibtest, At: k}
		rest := w[k+1:]
		if slices.Contains(rest, "-q") || slices.Contains(rest, "--quiet") {
			r.Problem = "cargo test -q prints terse output, which names only the failing tests"
		} else if v, ok := flagValue(rest, "--format"); ok && v != "pretty" {
			r.Problem = "libtest's --format " + v + " is not the text a census reads"
		}
		return r, true
	case "nextest":
		return Request{Runner: "cargo nextest", Format: FormatJUnit, At: k,
			Problem: "nextest writes JUnit only where a profile of .config/nextest.toml says ([profile.NAME.junit] path); name that file in tests:"}, true
	}
	return Request{}, false
}
