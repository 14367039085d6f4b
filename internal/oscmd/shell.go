package oscmd

import (
	"fmt"
	"strings"
)

// The shells a gate's `shell:` key names. The empty name is the default: sh, which on Windows is
// Git for Windows' sh when it can be found, else cmd.
const (
	ShellDefault    = ""
	ShellSh         = "sh"
	ShellBash       = "bash"
	ShellCmd        = "cmd"
	ShellPwsh       = "pwsh"
	ShellPowerShell = "powershell"
)

// Shells lists the names `shell:` accepts.
func Shells() []string {
	return []string{ShellSh, ShellBash, ShellCmd, ShellPwsh, ShellPowerShell}
}

// unixSh is the shell of a `run:` string on Unix: absolute, so that a gate's own PATH cannot
// choose the program that parses its command.
const unixSh = "/bin/sh"

// ShellArgv is the argv that runs script with the named shell (one of Shells, or ShellDefault).
// Programs are looked up on gauntlet's own PATH.
func ShellArgv(sys System, shell, script string) ([]string, error) {
	switch shell {
	case ShellDefault:
		if !sys.windows() {
			return []string{unixSh, "-c", script}, nil
		}
		if sh, ok := GitSh(sys, "sh"); ok {
			return []string{sh, "-c", script}, nil
		}
		return cmdArgv(sys, script), nil
	case ShellSh, ShellBash:
		if shell == ShellSh && !sys.windows() {
			return []string{unixSh, "-c", script}, nil
		}
		var path string
		var ok bool
		if sys.windows() {
			path, ok = GitSh(sys, shell)
		} else {
			path, ok = sys.LookPath(shell)
		}
		if !ok {
			return nil, notFound(sys, shell)
		}
		return []string{path, "-c", script}, nil
	case ShellCmd:
		if !sys.windows() {
			return nil, fmt.Errorf(`shell "cmd" exists only on Windows; this gate cannot run on %s`, sys.GOOS)
		}
		return cmdArgv(sys, script), nil
	case ShellPwsh, ShellPowerShell:
		path, ok := sys.LookPath(shell)
		if !ok {
			return nil, notFound(sys, shell)
		}
		return []string{path, "-NoLogo", "-NoProfile", "-NonInteractive", "-Command", script}, nil
	}
	return nil, fmt.Errorf("unknown shell %q (want one of %s)", shell, strings.Join(Shells(), ", "))
}

func notFound(sys System, shell string) error {
	if sys.windows() && (shell == ShellSh || shell == ShellBash) {
		return fmt.Errorf(`shell %q not found: install Git for Windows (its %s.exe is used), or set shell: cmd or pwsh`, shell, shell)
	}
	return fmt.Errorf("shell %q not found on PATH", shell)
}

// cmdArgv runs script with cmd.exe: /d skips the AutoRun commands of the registry, /s makes cmd
// strip exactly the quotes around the script, which WindowsCommand passes on as written.
func cmdArgv(sys System, script string) []string {
	return []string{Comspec(sys), "/d", "/s", "/c", `"` + script + `"`}
}

// Comspec is the absolute path of cmd.exe: %ComSpec%, else the one in %SystemRoot%.
func Comspec(sys System) string {
	if c := sys.getenv("ComSpec"); c != "" && winIsAbs(c) {
		return c
	}
	root := sys.getenv("SystemRoot")
	if root == "" {
		root = `C:\Windows`
	}
	return winJoin(root, `System32\cmd.exe`)
}

// GitSh finds Git for Windows' sh.exe or bash.exe (name "sh" or "bash"): on PATH (a Git Bash
// session puts it there), else beside the git.exe found on PATH, whose installation keeps it in
// bin\ and usr\bin\ (git.exe is in cmd\ or mingw64\bin\). The bash.exe in System32 is WSL's
// launcher, which would run the gate in a Linux machine, and is never taken.
func GitSh(sys System, name string) (string, bool) {
	if p, ok := sys.LookPath(name); ok && !isSystem32(sys, p) {
		return p, true
	}
	git, ok := sys.LookPath("git")
	if !ok {
		return "", false
	}
	dir := WinDir(git)
	for range 3 {
		dir = WinDir(dir)
		if dir == "" {
			break
		}
		for _, sub := range []string{`bin\`, `usr\bin\`} {
			if c := winJoin(dir, sub+name+".exe"); sys.isFile(c) {
				return c, true
			}
		}
	}
	return "", false
}

func isSystem32(sys System, p string) bool {
	dir := strings.ToLower(WinDir(p))
	return strings.HasSuffix(dir, `\system32`) || strings.HasSuffix(dir, `\sysnative`) ||
		strings.HasPrefix(dir, strings.ToLower(winJoin(sys.getenv("LOCALAPPDATA"), `Microsoft\WindowsApps`)))
}
