package doctor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/hookfile"
)

// A hook entry gates the agent only when the host runs it as a command, the command is this
// gauntlet's stop-hook with flags it takes, and the host has not switched hooks off. Each check
// here reads the entry as the host will: a command that only mentions gauntlet (`echo gauntlet
// stop-hook`), another subcommand (`gauntlet run`), a misspelt flag (stop-hook exits 2, which
// Claude Code reads as a block on every stop) or a `gauntlet` on PATH without a stop-hook all
// looked installed to a search for the word.

// typeCheck: a hook of another type ("prompt", "agent") is not run as a command at all. An entry
// without a type is a host's plain command list (Cursor's).
func typeCheck(h hookfile.Hook) (Check, bool) {
	if h.Type == "" || h.Type == "command" {
		return Check{}, false
	}
	return Check{Host: h.Host, Name: "type", Level: Problem,
		Message: fmt.Sprintf("%s: the entry running %q has \"type\": %q; only \"type\": \"command\" runs it", h.File, h.Command, h.Type),
		Fix:     fmt.Sprintf("set \"type\": \"command\" in %s, or run gauntlet init --host %s again", h.File, h.Host)}, true
}

// commandCheck reads the hook command into argv as the host's shell would, checks that it is a
// stop-hook with flags stop-hook takes and this host's dialect, resolves the program as the host
// would (on PATH, or by its path), and asks it: this gauntlet is trusted as it is, another
// program must say it is gauntlet (`version`) and take the same arguments (`stop-hook ARGS
// --help`), each answer within a deadline.
func commandCheck(ctx context.Context, env Env, h hookfile.Hook) Check {
	c := Check{Host: h.Host, Name: "command", Level: Problem}
	host := string(h.Host)
	call, problem := stopHookInvocation(env, h)
	if problem != "" {
		c.Message, c.Fix = problem, "write the hook command as `gauntlet stop-hook` (gauntlet init --host "+host+" does)"
		return c
	}
	prog, args := call.prog, call.args
	if isForeignDialect(call.dialect, host) {
		c.Message = fmt.Sprintf("%q answers in %s's dialect, not %s's: its replies do not block this host's agent", h.Command, call.dialect, host)
		c.Fix = "use --host " + host + " (or leave --host out)"
		return c
	}
	path, err := resolveProgram(env, prog)
	if err != nil {
		c.Message = fmt.Sprintf("%q does not resolve: %s (%v); the host cannot run the hook", h.Command, prog, conciseErr(err))
		c.Fix = "put gauntlet on the PATH the host runs with, or run gauntlet init --host " + host + " again (it writes this program's full path when it is not on PATH)"
		return c
	}
	if err := helpOrDefault(env.HelpOf)(ctx, path, append(append([]string{"stop-hook"}, args...), "--help")); err != nil {
		c.Message = fmt.Sprintf("%s (%s) fails `stop-hook --help`: %v; the host runs it and gets no reply", prog, path, conciseErr(err))
		c.Fix = onPathFix(host)
		return c
	}
	return programIdentity(ctx, env, c, prog, path)
}

// hookLookup expands a variable in a hook command as the host would: the project-directory
// variables Claude Code and Gemini CLI set name the project.
func hookLookup(env Env) func(string) string {
	return func(name string) string {
		if name == "CLAUDE_PROJECT_DIR" || name == "GEMINI_PROJECT_DIR" {
			return env.Dir
		}
		return env.getenv(name)
	}
}

// stopHookCall is what a hook command runs: the program, the arguments after `stop-hook`, and
// the --host they name (empty when they go unchecked).
type stopHookCall struct {
	prog    string
	args    []string
	dialect string
}

// stopHookInvocation reads the hook command into argv and returns what it runs; problem says why
// the command is not a gauntlet stop-hook whose arguments stop-hook takes.
func stopHookInvocation(env Env, h hookfile.Hook) (call stopHookCall, problem string) {
	argv, err := commandArgv(h.Command, hookLookup(env))
	if err != nil {
		return call, fmt.Sprintf("%q is not a simple command (%v): what it runs cannot be checked, and it may hide what stop-hook says", h.Command, err)
	}
	prog, args, err := programOf(argv)
	if err != nil {
		return call, fmt.Sprintf("%q: %v", h.Command, err)
	}
	if problem := notStopHook(h.Command, prog, args); problem != "" {
		return call, problem
	}
	call = stopHookCall{prog: prog, args: args[1:]}
	if env.StopHookArgs != nil {
		if call.dialect, err = env.StopHookArgs(call.args); err != nil {
			return stopHookCall{}, fmt.Sprintf("%q: stop-hook refuses its arguments: %v", h.Command, err)
		}
	}
	return call, ""
}

// notStopHook says why prog with args is not `gauntlet stop-hook`; empty when it is. Another
// program name passes when its first argument is stop-hook: it is asked later whether it is
// gauntlet.
func notStopHook(command, prog string, args []string) string {
	base := strings.TrimSuffix(filepath.Base(prog), ".exe")
	switch {
	case base != "gauntlet" && (len(args) == 0 || args[0] != "stop-hook"):
		return fmt.Sprintf("%q runs %s, not gauntlet", command, prog)
	case len(args) == 0:
		return fmt.Sprintf("%q runs gauntlet without a command, not `gauntlet stop-hook`", command)
	case args[0] != "stop-hook":
		return fmt.Sprintf("%q runs `gauntlet %s`, not `gauntlet stop-hook`", command, args[0])
	}
	return ""
}

// isForeignDialect reports whether the --host of stop-hook's arguments is another host's: its
// replies would not block this host's agent.
func isForeignDialect(dialect, host string) bool {
	return dialect != "" && dialect != "auto" && dialect != host
}

func onPathFix(host string) string {
	return "put this gauntlet first on the PATH the host runs with, or run gauntlet init --host " + host + " again"
}

func helpOrDefault(helpOf func(context.Context, string, []string) error) func(context.Context, string, []string) error {
	if helpOf == nil {
		return runHelp
	}
	return helpOf
}

func versionOrDefault(versionOf func(context.Context, string) (string, error)) func(context.Context, string) (string, error) {
	if versionOf == nil {
		return runVersion
	}
	return versionOf
}

// programIdentity finishes c for the hook's program at path: this gauntlet is trusted as it is;
// another program must say it is gauntlet, of this version.
func programIdentity(ctx context.Context, env Env, c Check, prog, path string) Check {
	if self, err := env.Resolver.Executable(); err == nil && hookfile.SameProgram(env.Resolver, path, self) {
		c.Level, c.Message = OK, fmt.Sprintf("%s is this gauntlet (%s)", prog, path)
		return c
	}
	got, err := versionOrDefault(env.VersionOf)(ctx, path)
	switch {
	case err != nil:
		c.Message = fmt.Sprintf("%s (%s) does not answer `version`: %v", prog, path, conciseErr(err))
		c.Fix = onPathFix(string(c.Host))
	case !strings.HasPrefix(strings.TrimSpace(got), "gauntlet "):
		c.Message = fmt.Sprintf("%s (%s) is not gauntlet: `version` prints %q", prog, path, strings.TrimSpace(got))
		c.Fix = onPathFix(string(c.Host))
	case versionWord(got) != versionWord(env.Version):
		c.Level = Warn
		c.Message = fmt.Sprintf("%s (%s) is %s; this is %s", prog, path, strings.TrimSpace(got), strings.TrimSpace(env.Version))
		c.Fix = "install the same gauntlet on PATH, or run gauntlet init --host " + string(c.Host) + " again"
	default:
		c.Level, c.Message = OK, fmt.Sprintf("%s (%s) is the same version as this one", prog, path)
	}
	return c
}

// programOf skips what a shell or env puts before the program (NAME=value assignments) and
// returns the program and its arguments.
func programOf(argv []string) (string, []string, error) {
	i := skipAssignments(argv, 0)
	if i < len(argv) && filepath.Base(argv[i]) == "env" {
		i++
		if i < len(argv) && strings.HasPrefix(argv[i], "-") {
			return "", nil, fmt.Errorf("env %s: doctor cannot follow env's options", argv[i])
		}
		i = skipAssignments(argv, i)
	}
	if i >= len(argv) {
		return "", nil, errors.New("runs no program")
	}
	return argv[i], argv[i+1:], nil
}

// skipAssignments returns the index of the first word from i on that is not NAME=value.
func skipAssignments(argv []string, i int) int {
	for i < len(argv) && isAssignment(argv[i]) {
		i++
	}
	return i
}

func isAssignment(word string) bool {
	name, _, ok := strings.Cut(word, "=")
	if !ok || name == "" {
		return false
	}
	for i, r := range name {
		if r >= utf8.RuneSelf || !isNameByte(byte(r), i == 0) {
			return false
		}
	}
	return true
}

func resolveProgram(env Env, prog string) (string, error) {
	if !strings.ContainsRune(prog, '/') {
		return env.Resolver.LookPath(prog)
	}
	path := prog
	if !filepath.IsAbs(path) {
		path = filepath.Join(env.Dir, path)
	}
	info, err := os.Stat(path)
	if err == nil && (info.IsDir() || info.Mode().Perm()&0o111 == 0) {
		err = errors.New("not an executable file")
	}
	return path, err
}

// commandArgv splits a command line into words as sh does for a simple command: blanks, single
// and double quotes, backslashes, and $NAME or ${NAME} expanded by lookup. Anything that makes
// it more than one simple command (; & | newlines, redirections, subshells, command substitution)
// is an error: what such a line runs, and what it does to stop-hook's reply and exit code, is
// beyond what doctor can check. A leading "& " is PowerShell's call operator, which init writes
// on Windows before a quoted program path (hookfile.HookCommand): the words after it are read as
// they would be without it.
func commandArgv(s string, lookup func(string) string) ([]string, error) {
	w := &shellWords{line: strings.TrimPrefix(strings.TrimLeft(s, " \t"), "& "), lookup: lookup}
	for i := 0; i < len(w.line); {
		took, err := w.read(i)
		if err != nil {
			return nil, err
		}
		i += took
	}
	if w.quote != 0 {
		return nil, errors.New("an unclosed quote")
	}
	w.flush()
	if len(w.words) == 0 {
		return nil, errors.New("an empty command")
	}
	return w.words, nil
}

// shellWords is commandArgv's state while it reads a line byte by byte.
type shellWords struct {
	line   string
	lookup func(string) string
	words  []string
	cur    strings.Builder
	inWord bool
	quote  byte // the open quote, or 0
}

func (w *shellWords) flush() {
	if w.inWord {
		w.words = append(w.words, w.cur.String())
		w.cur.Reset()
		w.inWord = false
	}
}

// read takes the byte at i and what belongs with it, and returns how many bytes it took. Single
// quotes keep everything to the closing quote; a backslash or a $ act inside double quotes too.
func (w *shellWords) read(i int) (int, error) {
	b := w.line[i]
	switch {
	case w.quote == '\'':
		w.closeOrKeep(b)
		return 1, nil
	case b == '\\':
		return w.escape(i), nil
	case b == '$':
		return w.expand(i)
	case b == '`':
		return 0, errors.New("command substitution")
	case w.quote == '"':
		w.closeOrKeep(b)
		return 1, nil
	}
	return 1, w.unquoted(i)
}

// closeOrKeep ends the open quote at its closing byte and keeps any other byte.
func (w *shellWords) closeOrKeep(b byte) {
	if b == w.quote {
		w.quote = 0
	} else {
		w.cur.WriteByte(b)
	}
}

// escape keeps the byte after a backslash; inside double quotes the backslash stays unless it
// escapes one of the bytes that are special there.
func (w *shellWords) escape(i int) int {
	w.inWord = true
	if i+1 >= len(w.line) {
		return 1
	}
	next := w.line[i+1]
	if w.quote == '"' && !strings.ContainsRune("$`\"\\\n", rune(next)) {
		w.cur.WriteByte('\\')
	}
	w.cur.WriteByte(next)
	return 2
}

// expand writes the value of $NAME or ${NAME}; a $ not followed by a name stays as it is.
func (w *shellWords) expand(i int) (int, error) {
	if i+1 < len(w.line) && w.line[i+1] == '(' {
		return 0, errors.New("command substitution")
	}
	w.inWord = true
	name, n := varName(w.line[i+1:])
	if n == 0 {
		w.cur.WriteByte('$')
		return 1, nil
	}
	w.cur.WriteString(w.lookup(name))
	return 1 + n, nil
}

// unquoted reads a byte outside quotes: a quote opens, a blank ends the word, and an operator
// makes the line more than one simple command.
func (w *shellWords) unquoted(i int) error {
	switch b := w.line[i]; b {
	case '\'', '"':
		w.quote, w.inWord = b, true
	case ' ', '\t':
		w.flush()
	case ';', '&', '|', '<', '>', '(', ')', '\n':
		return errors.New(operatorAt(w.line, i))
	default:
		w.cur.WriteByte(b)
		w.inWord = true
	}
	return nil
}

// operatorAt is the shell operator starting at i, one byte or two (&&, ||, >>, >&, ;;).
func operatorAt(s string, i int) string {
	b := s[i]
	if i+1 < len(s) && (s[i+1] == b || b == '>' && s[i+1] == '&') {
		return s[i : i+2]
	}
	return string(b)
}

// varName reads NAME or {NAME} after a $, returning the name and the bytes it took.
func varName(s string) (string, int) {
	if strings.HasPrefix(s, "{") {
		end := strings.IndexByte(s, '}')
		if end < 2 {
			return "", 0
		}
		return s[1:end], end + 1
	}
	n := 0
	for n < len(s) && isNameByte(s[n], n == 0) {
		n++
	}
	return s[:n], n
}

// isNameByte reports whether b may stand in a shell variable's name: a letter or _, or a digit
// after the first byte.
func isNameByte(b byte, first bool) bool {
	return b == '_' || isASCIILetter(b) || !first && isDigit(b)
}

func isASCIILetter(b byte) bool { return b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' }

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// helpTimeout bounds `stop-hook --help` of the hook's program: it answers at once or not at all.
const helpTimeout = 5 * time.Second

// runHelp runs the program as the host would run the hook, with --help added, and reports
// whether it takes the arguments.
func runHelp(ctx context.Context, path string, args []string) error {
	ctx, cancel := context.WithTimeout(ctx, helpTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdout = &git.CappedBuffer{Limit: 4 << 10, Truncate: true}
	stderr := &git.CappedBuffer{Limit: 4 << 10, Truncate: true}
	cmd.Stderr = stderr
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("no answer within %s", helpTimeout)
		}
		if said := oneLine(stderr.String()); said != "" {
			return fmt.Errorf("%w (%s)", err, said)
		}
		return err
	}
	return nil
}
