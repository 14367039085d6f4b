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
	var (
		out   []simpleCommand
		words []string
		cur   strings.Builder
		in    bool
		quote rune
		cd    string
	)
	endWord := func() {
		if in {
			words = append(words, cur.String())
			cur.Reset()
			in = false
		}
	}
	endCommand := func() {
		endWord()
		var env []EnvVar
		env, words = splitAssignments(dropRedirections(dropTemplates(words)))
		if len(words) > 0 {
			if words[0] == "cd" && len(words) == 2 {
				cd = strings.Trim(strings.TrimPrefix(words[1], "./"), "/")
			} else {
				out = append(out, simpleCommand{words: words, cd: cd, env: env})
			}
		}
		words = nil
	}
	rs := []rune(script)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else if r == '\\' && quote == '"' && i+1 < len(rs) {
				i++
				cur.WriteRune(rs[i])
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == '\\' && i+1 < len(rs):
			i++
			cur.WriteRune(rs[i])
			in = true
		case r == '#' && !in:
			for i < len(rs) && rs[i] != '\n' {
				i++
			}
			endCommand() // the loop ends by itself when the comment ran to the end
		case r == '(' || r == ')':
			// A subshell, a case pattern (`a) go test`), a command substitution: what is
			// inside or after is a command of its own.
			if in && cur.String() == "$" {
				cur.Reset()
				in = false
			}
			endCommand()
		case r == '\n' || r == ';' || r == '|' || r == '&':
			if r == '&' && (i+1 >= len(rs) || rs[i+1] != '&') && cur.Len() > 0 && strings.HasSuffix(cur.String(), ">") {
				cur.WriteRune(r) // 2>&1
				continue
			}
			endCommand()
			if r == '\n' {
				cd = ""
			}
		case r == ' ' || r == '\t' || r == '\r':
			endWord()
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	endCommand()
	return out
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

var assignment = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`) })

// splitAssignments takes the leading VAR=value words (also after `env`) off a command. The
// command needs those that set what it runs with (SHELL=/bin/sh, GOFLAGS=-mod=mod); values the
// shell would still expand ($HOME/bin:$PATH) and variables that only shape output are left out.
func splitAssignments(words []string) ([]EnvVar, []string) {
	var env []EnvVar
	for len(words) > 0 {
		switch {
		case assignment().MatchString(words[0]):
			name, value, _ := strings.Cut(words[0], "=")
			if keepEnv(name, value) {
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
