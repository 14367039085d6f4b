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
	fix := "write the hook command as `gauntlet stop-hook` (gauntlet init --host " + host + " does)"
	argv, err := commandArgv(h.Command, func(name string) string {
		if name == "CLAUDE_PROJECT_DIR" || name == "GEMINI_PROJECT_DIR" {
			return env.Dir
		}
		return env.getenv(name)
	})
	if err != nil {
		c.Message, c.Fix = fmt.Sprintf("%q is not a simple command (%v): what it runs cannot be checked, and it may hide what stop-hook says", h.Command, err), fix
		return c
	}
	prog, args, err := programOf(argv)
	if err != nil {
		c.Message, c.Fix = fmt.Sprintf("%q: %v", h.Command, err), fix
		return c
	}
	base := strings.TrimSuffix(filepath.Base(prog), ".exe")
	switch {
	case base != "gauntlet" && (len(args) == 0 || args[0] != "stop-hook"):
		c.Message, c.Fix = fmt.Sprintf("%q runs %s, not gauntlet", h.Command, prog), fix
		return c
	case len(args) == 0:
		c.Message, c.Fix = fmt.Sprintf("%q runs gauntlet without a command, not `gauntlet stop-hook`", h.Command), fix
		return c
	case args[0] != "stop-hook":
		c.Message, c.Fix = fmt.Sprintf("%q runs `gauntlet %s`, not `gauntlet stop-hook`", h.Command, args[0]), fix
		return c
	}
	args = args[1:]
	if env.StopHookArgs != nil {
		dialect, err := env.StopHookArgs(args)
		if err != nil {
			c.Message, c.Fix = fmt.Sprintf("%q: stop-hook refuses its arguments: %v", h.Command, err), fix
			return c
		}
		if dialect != "" && dialect != "auto" && dialect != host {
			c.Message = fmt.Sprintf("%q answers in %s's dialect, not %s's: its replies do not block this host's agent", h.Command, dialect, host)
			c.Fix = "use --host " + host + " (or leave --host out)"
			return c
		}
	}

	path, err := resolveProgram(env, prog)
	if err != nil {
		c.Message = fmt.Sprintf("%q does not resolve: %s (%v); the host cannot run the hook", h.Command, prog, conciseErr(err))
		c.Fix = "put gauntlet on the PATH the host runs with, or run gauntlet init --host " + host + " again (it writes this program's full path when it is not on PATH)"
		return c
	}
	onPath := "put this gauntlet first on the PATH the host runs with, or run gauntlet init --host " + host + " again"
	helpOf := env.HelpOf
	if helpOf == nil {
		helpOf = runHelp
	}
	if err := helpOf(ctx, path, append(append([]string{"stop-hook"}, args...), "--help")); err != nil {
		c.Message = fmt.Sprintf("%s (%s) fails `stop-hook --help`: %v; the host runs it and gets no reply", prog, path, conciseErr(err))
		c.Fix = onPath
		return c
	}
	self, selfErr := env.Resolver.Executable()
	if selfErr == nil && hookfile.SameProgram(env.Resolver, path, self) {
		c.Level, c.Message = OK, fmt.Sprintf("%s is this gauntlet (%s)", prog, path)
		return c
	}
	versionOf := env.VersionOf
	if versionOf == nil {
		versionOf = runVersion
	}
	got, err := versionOf(ctx, path)
	switch {
	case err != nil:
		c.Message = fmt.Sprintf("%s (%s) does not answer `version`: %v", prog, path, conciseErr(err))
		c.Fix = onPath
	case !strings.HasPrefix(strings.TrimSpace(got), "gauntlet "):
		c.Message = fmt.Sprintf("%s (%s) is not gauntlet: `version` prints %q", prog, path, strings.TrimSpace(got))
		c.Fix = onPath
	case versionWord(got) != versionWord(env.Version):
		c.Level = Warn
		c.Message = fmt.Sprintf("%s (%s) is %s; this is %s", prog, path, strings.TrimSpace(got), strings.TrimSpace(env.Version))
		c.Fix = "install the same gauntlet on PATH, or run gauntlet init --host " + host + " again"
	default:
		c.Level, c.Message = OK, fmt.Sprintf("%s (%s) is the same version as this one", prog, path)
	}
	return c
}

// programOf skips what a shell or env puts before the program (NAME=value assignments) and
// returns the program and its arguments.
func programOf(argv []string) (string, []string, error) {
	i := 0
	skipAssignments := func() {
		for i < len(argv) && isAssignment(argv[i]) {
			i++
		}
	}
	skipAssignments()
	if i < len(argv) && filepath.Base(argv[i]) == "env" {
		i++
		if i < len(argv) && strings.HasPrefix(argv[i], "-") {
			return "", nil, fmt.Errorf("env %s: doctor cannot follow env's options", argv[i])
		}
		skipAssignments()
	}
	if i >= len(argv) {
		return "", nil, errors.New("runs no program")
	}
	return argv[i], argv[i+1:], nil
}

func isAssignment(word string) bool {
	name, _, ok := strings.Cut(word, "=")
	if !ok || name == "" {
		return false
	}
	for i, r := range name {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
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
	s = strings.TrimPrefix(strings.TrimLeft(s, " \t"), "& ")
	var (
		words  []string
		cur    strings.Builder
		inWord bool
		quote  byte
	)
	flush := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case quote == '\'':
			if b == '\'' {
				quote = 0
			} else {
				cur.WriteByte(b)
			}
			continue
		case b == '\\':
			if i+1 < len(s) {
				i++
				if quote == '"' && !strings.ContainsRune("$`\"\\\n", rune(s[i])) {
					cur.WriteByte('\\')
				}
				cur.WriteByte(s[i])
			}
			inWord = true
			continue
		case b == '$':
			if i+1 < len(s) && s[i+1] == '(' {
				return nil, errors.New("command substitution")
			}
			name, n := varName(s[i+1:])
			if n == 0 {
				cur.WriteByte(b)
			} else {
				cur.WriteString(lookup(name))
				i += n
			}
			inWord = true
			continue
		case b == '`':
			return nil, errors.New("command substitution")
		case quote == '"':
			if b == '"' {
				quote = 0
			} else {
				cur.WriteByte(b)
			}
			continue
		}
		switch b {
		case '\'', '"':
			quote, inWord = b, true
		case ' ', '\t':
			flush()
		case ';', '&', '|', '<', '>', '(', ')', '\n':
			op := string(b)
			if i+1 < len(s) && (s[i+1] == b || b == '>' && s[i+1] == '&') {
				op += string(s[i+1])
			}
			return nil, fmt.Errorf("%s", op)
		default:
			cur.WriteByte(b)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, errors.New("an unclosed quote")
	}
	flush()
	if len(words) == 0 {
		return nil, errors.New("an empty command")
	}
	return words, nil
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
	for n < len(s) && (s[n] == '_' || s[n] >= 'A' && s[n] <= 'Z' || s[n] >= 'a' && s[n] <= 'z' || n > 0 && s[n] >= '0' && s[n] <= '9') {
		n++
	}
	return s[:n], n
}

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
