package hookfile

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/gauntlet-dev/gauntlet/internal/oscmd"
)

// Resolver is how StopHookCommand finds programs; tests replace it.
type Resolver struct {
	LookPath     func(file string) (string, error)
	Executable   func() (string, error)
	EvalSymlinks func(path string) (string, error)
	SameFile     func(a, b string) bool // the same file on disk, as a hard link or a copy is not
}

// SystemResolver looks at the real PATH and the running program.
func SystemResolver() Resolver {
	return Resolver{LookPath: exec.LookPath, Executable: os.Executable, EvalSymlinks: filepath.EvalSymlinks, SameFile: sameFile}
}

func sameFile(a, b string) bool {
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
}

// StopHookCommand is the command line a host should run, for sh: "gauntlet stop-hook" when
// `gauntlet` on PATH is this very program, otherwise this program's absolute path (byPath true),
// so that a gauntlet run as ./bin/gauntlet installs a hook that works. HookCommand spells it for
// a given host and system.
func StopHookCommand(r Resolver) (command string, byPath bool) {
	program, bare := StopHookProgram(r)
	return programCommand(posixShell, "", program, bare, "stop-hook"), !bare
}

// StopHookProgram is the program a hook should run: bare when `gauntlet` on PATH is this very
// program (or nothing better is known), else this program's absolute path.
func StopHookProgram(r Resolver) (program string, bare bool) {
	self, err := r.Executable()
	if err != nil {
		return "gauntlet", true // nothing better is known
	}
	if abs, err := filepath.Abs(self); err == nil {
		self = abs
	}
	if found, err := r.LookPath("gauntlet"); err == nil && sameProgram(r, found, self) {
		return "gauntlet", true
	}
	return self, false
}

// sameProgram compares two paths after symlinks, then as files, so that a hard link found
// through another directory still counts as the same program.
func sameProgram(r Resolver, a, b string) bool {
	ra, errA := r.EvalSymlinks(a)
	rb, errB := r.EvalSymlinks(b)
	if errA == nil && errB == nil && filepath.Clean(ra) == filepath.Clean(rb) {
		return true
	}
	return r.SameFile(a, b)
}

// IsStopHookCommand reports whether a hook command runs gauntlet's stop hook, whatever path it
// names gauntlet by and whatever else is on the line ("env X=1 /opt/bin/gauntlet stop-hook").
func IsStopHookCommand(command string) bool {
	return runsGauntlet(command, "stop-hook")
}

// runsGauntlet reports whether a command line runs gauntlet's subcommand, by any path.
func runsGauntlet(command, subcommand string) bool {
	words := shellWords(command)
	for i, w := range words {
		// Either separator: a hook file written on Windows may be read anywhere.
		base := oscmd.WinBase(w)
		if base != "gauntlet" && base != "gauntlet.exe" {
			continue
		}
		for _, rest := range words[i+1:] {
			if rest == subcommand {
				return true
			}
		}
	}
	return false
}

// shellWords splits a command line the way sh would for plain words and quotes; expansions are
// left as they are, which is enough to spot a program name.
func shellWords(s string) []string {
	var (
		words  []string
		cur    strings.Builder
		inWord bool
		quote  rune
		escape bool
	)
	for _, r := range s {
		switch {
		case escape:
			cur.WriteRune(r)
			escape = false
		case quote != 0:
			if r == quote {
				quote = 0
			} else if r == '\\' && quote == '"' {
				escape = true
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '\\':
			escape, inWord = true, true
		case strings.ContainsRune(" \t\n;&|()", r):
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}
