package hookfile

import (
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/hosts"
)

// shellSyntax is the language a host's hook command is read in.
type shellSyntax int

const (
	posixShell shellSyntax = iota // sh, bash (Git Bash on Windows)
	powerShell                    // PowerShell (7 or Windows PowerShell 5.1)
)

// hookShell is the shell host reads the hook command gauntlet writes in its entry's command key,
// on goos. Everywhere but Windows it is sh. On Windows, Claude Code runs hooks with Git Bash, and
// Codex, Cursor and Gemini CLI with PowerShell; Copilot CLI takes a command per shell, and the
// key written from this command is its bash one (entry adds the powershell one).
func hookShell(host hosts.Name, goos string) shellSyntax {
	if goos != "windows" || host == hosts.Claude || host == hosts.Copilot {
		return posixShell
	}
	return powerShell
}

// HookCommand is the command line of gauntlet's hook for host on goos: `gauntlet ARGS` when
// bare (gauntlet on PATH is the program), else the program by its path, spelt for the shell the
// host reads the line with (see hookShell). Paths are written with forward slashes, which every
// Windows shell and program accepts and sh does not read as escapes.
func HookCommand(host hosts.Name, goos, program string, bare bool, args string) string {
	return programCommand(hookShell(host, goos), goos, program, bare, args)
}

func programCommand(syntax shellSyntax, goos, program string, bare bool, args string) string {
	if bare {
		return "gauntlet " + args
	}
	if goos == "windows" {
		program = strings.ReplaceAll(program, `\`, "/")
	}
	if syntax == posixShell || !strings.ContainsFunc(program, needsQuoteAnywhere) {
		// A path of plain characters reads the same in sh, PowerShell and cmd.exe, so a hook file
		// shared by a team on several systems runs everywhere.
		return gates.ShellQuote(program) + " " + args
	}
	// A quoted string alone is an expression in PowerShell: the call operator runs it.
	return "& '" + strings.ReplaceAll(program, "'", "''") + "' " + args
}

// needsQuoteAnywhere reports a character that some shell (sh, PowerShell, cmd.exe) would read as
// more than itself in a bare word.
func needsQuoteAnywhere(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:", r))
}

// powerShellCommand respells a command written for sh for PowerShell, for Copilot's powershell
// key beside its bash key: the program by its path, the plain arguments as they are.
func powerShellCommand(posix string) string {
	words := shellWords(posix)
	if len(words) == 0 || words[0] == "gauntlet" {
		return posix
	}
	return programCommand(powerShell, "", words[0], false, strings.Join(words[1:], " "))
}
