// Package filesarg puts a gate's files in its command: {files} in a run: string or an argv
// becomes the file names, quoted for the gate's shell, split into batches that each fit the
// system's limit on a command line. Tools like xargs do this for one shell; a gate names its
// shell (sh, bash, cmd, pwsh), and each quotes and limits differently, so it is written here.
package filesarg

import (
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/oscmd"
)

// Placeholder, as a word of a gate's command, stands for the files of the change that match the
// gate's paths.
const Placeholder = "{files}"

// Uses says whether a command names Placeholder: as an argv element, or as a word of a run:
// string.
func Uses(g gates.Gate) bool {
	if g.Run != "" {
		return strings.Contains(g.Run, Placeholder)
	}
	return slices.Contains(g.Argv, Placeholder)
}

// Limits on the length of one command line, with room left for the environment (which counts
// against the same limit on Unix) and for the shell's own words.
const (
	// unixLimit is what xargs takes by default: far below ARG_MAX (2 MiB on Linux), and below
	// the 128 KiB one argument may have there, which a `sh -c` script is.
	unixLimit = 128 << 10
	// windowsLimit is CreateProcess's 32,767 characters; cmdLimit, cmd.exe's 8,191.
	windowsLimit = 32767
	cmdLimit     = 8191
	// margin is kept free for what the limit must also hold beside the command.
	margin = 2 << 10
)

// Batches returns the gate's commands, each with a batch of g.Files in place of Placeholder:
// every file in exactly one batch, in order, each batch as long as the limit of the gate's shell
// on sys allows (at least one file: a single name too long for the limit is left to fail, as the
// shell would say). A gate without files is returned as it is.
func Batches(g gates.Gate, sys oscmd.System) []gates.Gate {
	if len(g.Files) == 0 || !Uses(g) {
		return []gates.Gate{g}
	}
	quote := func(s string) string { return s }
	if g.Run != "" {
		quote = quoter(g.Shell, sys)
	}
	room := limit(g, sys) - len(g.Command()) - margin
	var out []gates.Gate
	var batch []string
	used := 0
	flush := func() {
		if len(batch) > 0 {
			out = append(out, with(g, batch, quote))
			batch, used = nil, 0
		}
	}
	// An argv on Windows becomes one command line too, each element quoted where it needs it.
	extra := 1
	if g.Run == "" && sys.GOOS == "windows" {
		extra = 3
	}
	for _, f := range g.Files {
		n := len(quote(f)) + extra
		if len(batch) > 0 && used+n > room {
			flush()
		}
		batch = append(batch, f)
		used += n
	}
	flush()
	return out
}

// with is g with batch in place of Placeholder.
func with(g gates.Gate, batch []string, quote func(string) string) gates.Gate {
	out := g
	out.Files = slices.Clone(batch)
	if g.Run != "" {
		quoted := make([]string, len(batch))
		for i, f := range batch {
			quoted[i] = quote(f)
		}
		out.Run = strings.ReplaceAll(g.Run, Placeholder, strings.Join(quoted, " "))
		return out
	}
	out.Argv = nil
	for _, a := range g.Argv {
		if a == Placeholder {
			out.Argv = append(out.Argv, batch...)
		} else {
			out.Argv = append(out.Argv, a)
		}
	}
	return out
}

// limit is the longest command line the gate's shell takes on sys.
func limit(g gates.Gate, sys oscmd.System) int {
	switch {
	case sys.GOOS != "windows":
		return unixLimit
	case g.Run != "" && shellOnWindows(g.Shell, sys) == oscmd.ShellCmd:
		return cmdLimit
	}
	return windowsLimit
}

// shellOnWindows is the shell that runs a run: string on Windows: the default is Git's sh where
// it is installed, else cmd.
func shellOnWindows(shell string, sys oscmd.System) string {
	if shell != oscmd.ShellDefault {
		return shell
	}
	if _, ok := oscmd.GitSh(sys, "sh"); ok {
		return oscmd.ShellSh
	}
	return oscmd.ShellCmd
}

// quoter quotes a file name as one word of the gate's shell.
func quoter(shell string, sys oscmd.System) func(string) string {
	if sys.GOOS == "windows" {
		shell = shellOnWindows(shell, sys)
	}
	switch shell {
	case oscmd.ShellCmd:
		return cmdQuote
	case oscmd.ShellPwsh, oscmd.ShellPowerShell:
		return powerShellQuote
	}
	return gates.ShellQuote
}

// cmdQuote puts a name in double quotes, which cmd passes on as one argument: a Windows file
// name holds no double quote. Inside them cmd still expands %VAR%: a name holding the name of a
// variable between percent signs (rare) reaches the program as cmd reads it (docs/gates.md).
func cmdQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t&|<>^()%,;=!\"'") {
		return s
	}
	return `"` + s + `"`
}

// powerShellQuote puts a name in single quotes, where PowerShell expands nothing and a quote is
// written twice.
func powerShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
