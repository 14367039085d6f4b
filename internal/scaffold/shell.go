package scaffold

import (
	"regexp"
	"strings"
	"sync"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/filesarg"
)

// simpleCommand is one command of a shell line, as words, with the folder it runs in when a
// `cd DIR &&` before it says so.
type simpleCommand struct {
	words []string
	cd    string   // slash-separated, relative to where the line runs; "" when no cd came first
	env   []EnvVar // the VAR=value assignments before the command (SHELL=/bin/sh go test)
}

// String writes the words back as one shell command.
func (c simpleCommand) String() string {
	quoted := make([]string, len(c.words))
	for i, w := range c.words {
		quoted[i] = quoteWord(w)
	}
	return strings.Join(quoted, " ")
}

// quoteWord keeps shell variables readable ($GOFLAGS) and quotes only what needs it.
func quoteWord(w string) string {
	if w == filesarg.Placeholder {
		return w // a word of its own, which the runner replaces by the files
	}
	if strings.HasPrefix(w, "$") && !strings.ContainsAny(w, " \t'\"") {
		return w
	}
	return gates.ShellQuote(w)
}

// ciExpression is a GitHub Actions or GitLab expression: it has no value before the CI runs.
// Braces inside it (format('py{0}', ...)) do not end it.
var ciExpression = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{\{.*?\}\}`) })

// splitCommands cuts a script (one or more shell lines) into its simple commands: at newlines,
// `&&`, `||`, `;`, `|` (what a pipe feeds is a reporter, not a check) and parentheses, keeping
// quotes whole.
// Redirections and leading VAR=value assignments are dropped; a `cd DIR` is remembered for the
// commands after it. It is a reading aid, not a shell: anything it cannot follow (a subshell, a
// loop) simply yields words no check matches.
//
// It is not mvdan.cc/sh/v3/syntax on purpose: what it reads is often not shell (make recipes
// with $$ and $(VAR), CI lines with ${{ }} expressions, task runners' templates), and a shell
// parser rejects the whole script at the first such word, where this skims past it. A parser
// would also need this as a fallback, for some 10,000 lines of dependency.
func splitCommands(script string) []simpleCommand {
	script = strings.ReplaceAll(script, "\\\r\n", " ")
	script = strings.ReplaceAll(script, "\\\n", " ")
	script = ciExpression().ReplaceAllString(script, "")
	sc := &shellScanner{rs: []rune(script)}
	for sc.i = 0; sc.i < len(sc.rs); sc.i++ {
		sc.step(sc.rs[sc.i])
	}
	sc.endCommand()
	return sc.out
}

// shellScanner is splitCommands' reading position and what it has read so far.
type shellScanner struct {
	rs    []rune
	i     int
	out   []simpleCommand
	words []string
	cur   strings.Builder
	in    bool // a word has begun (it may still be empty: "")
	quote rune // the quote the scanner is inside, 0 outside
	cd    string
}

// step reads the rune at the scanner's position.
func (sc *shellScanner) step(r rune) {
	if sc.quote != 0 {
		sc.quoted(r)
		return
	}
	if special, ok := shellSpecials()[r]; ok {
		special(sc, r)
		return
	}
	sc.literal(r)
}

// shellSpecials are what the runes that mean something to the shell, outside quotes, do.
var shellSpecials = sync.OnceValue(func() map[rune]func(sc *shellScanner, r rune) {
	return map[rune]func(sc *shellScanner, r rune){
		'\'': (*shellScanner).openQuote, '"': (*shellScanner).openQuote,
		'\\': (*shellScanner).escape,
		'#':  (*shellScanner).comment,
		'(':  (*shellScanner).parenthesis, ')': (*shellScanner).parenthesis,
		'\n': (*shellScanner).separator, ';': (*shellScanner).separator, '|': (*shellScanner).separator,
		'&': (*shellScanner).separator,
		' ': (*shellScanner).blank, '\t': (*shellScanner).blank, '\r': (*shellScanner).blank,
	}
})

// literal adds a rune to the word being read.
func (sc *shellScanner) literal(r rune) {
	sc.cur.WriteRune(r)
	sc.in = true
}

func (sc *shellScanner) openQuote(r rune) {
	sc.quote, sc.in = r, true
}

// escape takes the next rune as it is; a backslash at the very end is itself.
func (sc *shellScanner) escape(r rune) {
	if sc.i+1 >= len(sc.rs) {
		sc.literal(r)
		return
	}
	sc.i++
	sc.literal(sc.rs[sc.i])
}

func (sc *shellScanner) blank(rune) {
	sc.endWord()
}

// quoted reads a rune inside quotes: only a double quote's backslash escapes.
func (sc *shellScanner) quoted(r rune) {
	switch {
	case r == sc.quote:
		sc.quote = 0
	case r == '\\' && sc.quote == '"' && sc.i+1 < len(sc.rs):
		sc.i++
		sc.cur.WriteRune(sc.rs[sc.i])
	default:
		sc.cur.WriteRune(r)
	}
}

// comment skips to the end of the line, which ends the command (the loop ends by itself when the
// comment ran to the end); a # inside a word is part of it.
func (sc *shellScanner) comment(r rune) {
	if sc.in {
		sc.literal(r)
		return
	}
	for sc.i < len(sc.rs) && sc.rs[sc.i] != '\n' {
		sc.i++
	}
	sc.endCommand()
}

// parenthesis ends the command: a subshell, a case pattern (`a) go test`), a command
// substitution: what is inside or after is a command of its own.
func (sc *shellScanner) parenthesis(rune) {
	if sc.in && sc.cur.String() == "$" {
		sc.cur.Reset()
		sc.in = false
	}
	sc.endCommand()
}

// separator ends the command at a newline, `;`, `|`, `&&` or `&`, but not in a redirection
// (2>&1); a newline also ends what a cd before it said.
func (sc *shellScanner) separator(r rune) {
	if r == '&' && !sc.doubled('&') && sc.cur.Len() > 0 && strings.HasSuffix(sc.cur.String(), ">") {
		sc.cur.WriteRune(r) // 2>&1
		return
	}
	sc.endCommand()
	if r == '\n' {
		sc.cd = ""
	}
}

// doubled reports whether the next rune is r too.
func (sc *shellScanner) doubled(r rune) bool {
	return sc.i+1 < len(sc.rs) && sc.rs[sc.i+1] == r
}

func (sc *shellScanner) endWord() {
	if sc.in {
		sc.words = append(sc.words, sc.cur.String())
		sc.cur.Reset()
		sc.in = false
	}
}

// endCommand keeps the words read as a command, less redirections, templates and assignments;
// `cd DIR` is remembered for the commands after it instead.
func (sc *shellScanner) endCommand() {
	sc.endWord()
	env, words := splitAssignments(dropRedirections(dropTemplates(withoutKeywords(sc.words))))
	sc.words = nil
	switch {
	case len(words) == 0:
	case words[0] == "cd" && len(words) == 2:
		sc.cd = strings.Trim(strings.TrimPrefix(words[1], "./"), "/")
	default:
		sc.out = append(sc.out, simpleCommand{words: words, cd: sc.cd, env: env})
	}
}

// withoutKeywords takes off the shell's keywords that start the command after them (then go test
// ...; else go test ...; do go test ...; time, which only reports how long the command took): the
// command is what follows. A ! that negates a condition (if ! go vet ./...) goes too: the command
// is still what the step checks. A ! that negates the command itself stays: the step passes when
// the command fails, so the words are no check as written.
func withoutKeywords(words []string) []string {
	condition := false
	for len(words) > 1 && contains([]string{"then", "else", "do", "if", "elif", "while", "until", "!", "time"}, words[0]) {
		if words[0] == "!" && !condition {
			break
		}
		condition = contains([]string{"if", "elif", "while", "until"}, words[0])
		words = words[1:]
	}
	return words
}

// dropTemplates removes a task runner's parameters ({{args}} in a justfile, {{.CLI_ARGS}} in a
// Taskfile): outside the runner they have no value.
func dropTemplates(words []string) []string {
	var out []string
	for _, w := range words {
		if !strings.Contains(w, "{{") {
			out = append(out, w)
		}
	}
	return out
}

var redirection = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]*(>>?|<)(&[0-9-])?`) })

func dropRedirections(words []string) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		if m := redirection().FindString(w); m != "" {
			if m == w && !strings.Contains(m, "&") && i+1 < len(words) {
				i++ // the target is the next word
			}
			continue
		}
		out = append(out, w)
	}
	return out
}

var assignment = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\+?=`) })

// splitAssignments takes the leading VAR=value words (also after `env`) off a command. The
// command needs those that set what it runs with (SHELL=/bin/sh, GOFLAGS=-mod=mod); values the
// shell would still expand ($HOME/bin:$PATH) and variables that only shape output are left out.
func splitAssignments(words []string) ([]EnvVar, []string) {
	var env []EnvVar
	for len(words) > 0 {
		switch {
		case assignment().MatchString(words[0]):
			name, value, _ := strings.Cut(words[0], "=")
			// VAR+=value appends to what the shell holds: no value of its own to give a gate.
			if !strings.HasSuffix(name, "+") && keepEnv(name, value) {
				env = append(env, EnvVar{Name: name, Value: value})
			}
		case words[0] == "env" && len(words) > 1 && assignment().MatchString(words[1]):
		default:
			return env, words
		}
		words = words[1:]
	}
	return env, words
}
