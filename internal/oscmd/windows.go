package oscmd

import (
	"errors"
	"fmt"
	"strings"
)

// defaultPathext is what Windows uses when PATHEXT is unset, in its order.
const defaultPathext = ".COM;.EXE;.BAT;.CMD"

// WindowsCandidates lists, in order, the files Windows would start for the command name: for
// each directory in path (entries separated by ';', optionally quoted; a relative entry is
// relative to dir), the name itself when it already has an extension, then the name with each
// PATHEXT extension. A name with a directory part (a separator or a drive) is tried where it
// is, relative to dir. The current directory is searched only when PATH names it: cmd.exe looks
// there first, but a program planted in the worktree must not take the place of a tool.
func WindowsCandidates(name, dir, path, pathext string) []string {
	exts := splitList(pathext)
	if len(exts) == 0 {
		exts = splitList(defaultPathext)
	}
	withExts := func(base string) []string {
		var out []string
		if hasExt(base) {
			out = append(out, base)
		}
		for _, e := range exts {
			out = append(out, base+strings.ToLower(e))
		}
		return out
	}
	if strings.ContainsAny(name, `/\`) || hasDrive(name) {
		return withExts(winResolve(dir, name))
	}
	var out []string
	for _, entry := range splitList(path) {
		out = append(out, withExts(winJoin(winResolve(dir, entry), name))...)
	}
	return out
}

// splitList splits a Windows list (PATH, PATHEXT) on ';', dropping empty entries and the quotes
// that let an entry contain a ';'.
func splitList(list string) []string {
	var out []string
	var cur strings.Builder
	quoted := false
	flush := func() {
		if s := strings.TrimSpace(cur.String()); s != "" {
			out = append(out, s)
		}
		cur.Reset()
	}
	for _, r := range list {
		switch {
		case r == '"':
			quoted = !quoted
		case r == ';' && !quoted:
			flush()
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	return out
}

// hasExt reports whether the last element of a Windows path has an extension.
func hasExt(p string) bool {
	base := WinBase(p)
	i := strings.LastIndexByte(base, '.')
	return i > 0 && i < len(base)-1
}

func hasDrive(p string) bool {
	return len(p) >= 2 && p[1] == ':' && ('a' <= p[0]|0x20 && p[0]|0x20 <= 'z')
}

// winIsAbs reports whether p is absolute on Windows: a drive and a separator, or a UNC path.
func winIsAbs(p string) bool {
	if strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, "//") {
		return true
	}
	return hasDrive(p) && len(p) > 2 && (p[2] == '\\' || p[2] == '/')
}

// winResolve makes p relative to dir unless it is absolute.
func winResolve(dir, p string) string {
	if dir == "" || winIsAbs(p) {
		return p
	}
	return winJoin(dir, p)
}

func winJoin(dir, name string) string {
	if dir == "" {
		return name
	}
	if strings.HasSuffix(dir, `\`) || strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + `\` + name
}

// WinBase is the last element of a Windows path (either separator).
func WinBase(p string) string {
	return p[strings.LastIndexAny(p, `/\`)+1:]
}

// WinDir is p without its last element and the separator before it.
func WinDir(p string) string {
	i := strings.LastIndexAny(p, `/\`)
	if i < 0 {
		return ""
	}
	return p[:i]
}

// Command is how a process is started on Windows: the program file CreateProcess is given and
// the command line the program parses its arguments from.
type Command struct {
	Program string
	CmdLine string
}

// ErrBatchArgument is an argument that cannot be passed to a batch file (.bat, .cmd) safely:
// cmd.exe expands % inside quotes too, and a line break ends the command.
var ErrBatchArgument = errors.New("cannot be passed to a batch file safely")

// WindowsCommand is the CreateProcess call that runs argv, whose program was found at path.
// Arguments are quoted for the C runtime's parser (CommandLineToArgvW), which nearly every
// program uses; cmd.exe parses its own line, so its arguments are passed as written (a gate's
// `shell: cmd` line arrives exactly as in the config); a batch file runs under cmd.exe, whose
// quoting it follows, through comspec with /s so that the outer quotes are the only ones cmd
// strips.
func WindowsCommand(path string, argv []string, comspec string) (Command, error) {
	args := argv[min(1, len(argv)):]
	switch ext := strings.ToLower(WinBase(path)); {
	case ext == "cmd.exe" || ext == "cmd":
		line := quoteProgram(path)
		for _, a := range args {
			line += " " + a
		}
		return Command{Program: path, CmdLine: line}, nil
	case strings.HasSuffix(ext, ".bat") || strings.HasSuffix(ext, ".cmd"):
		inner := quoteProgram(path)
		for _, a := range args {
			q, err := quoteBatchArg(a)
			if err != nil {
				return Command{}, fmt.Errorf("argument %q for %s: %w", a, WinBase(path), err)
			}
			inner += " " + q
		}
		return Command{Program: comspec, CmdLine: quoteProgram(comspec) + ` /d /s /c "` + inner + `"`}, nil
	}
	line := quoteProgram(path)
	for _, a := range args {
		line += " " + QuoteArg(a)
	}
	return Command{Program: path, CmdLine: line}, nil
}

// quoteProgram quotes the program name, which the C runtime reads up to the next quote (a
// path cannot contain one) rather than with the argument rules.
func quoteProgram(p string) string {
	if p == "" || strings.ContainsAny(p, " \t") {
		return `"` + p + `"`
	}
	return p
}

// QuoteArg quotes s so that CommandLineToArgvW (and the C runtime) read it back as one
// argument: in quotes when it is empty or holds a space, tab, newline or quote; a quote is
// escaped with a backslash, and backslashes are doubled only where they precede a quote.
func QuoteArg(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n\v\"") {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	slashes := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\':
			slashes++
		case '"':
			b.WriteString(strings.Repeat(`\`, slashes+1))
			slashes = 0
		default:
			slashes = 0
		}
		b.WriteByte(c)
	}
	b.WriteString(strings.Repeat(`\`, slashes))
	b.WriteByte('"')
	return b.String()
}

// quoteBatchArg quotes an argument for a batch file: inside quotes cmd.exe takes & | < > ^ ( )
// literally and a doubled quote stays inside; % (variable expansion, even in quotes) and line
// breaks cannot be made literal and are refused.
func quoteBatchArg(s string) (string, error) {
	if strings.ContainsAny(s, "%\r\n\x00") {
		return "", ErrBatchArgument
	}
	if s != "" && !strings.ContainsAny(s, " \t\"&|<>^(),;=!'`") {
		return s, nil
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`, nil
}
