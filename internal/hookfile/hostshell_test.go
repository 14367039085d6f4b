package hookfile

import (
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/hosts"
)

// The hook command each host gets, on Windows and elsewhere, decided without a Windows machine.
func TestHookCommandPerHostAndSystem(t *testing.T) {
	const plain, spaced = `C:\Users\dev\bin\gauntlet.exe`, `C:\Program Files\gauntlet\gauntlet.exe`
	for _, tc := range []struct {
		host    hosts.Name
		goos    string
		program string
		bare    bool
		want    string
	}{
		// On PATH: the bare name, which every shell runs.
		{hosts.Claude, "windows", "gauntlet", true, "gauntlet stop-hook"},
		{hosts.Codex, "windows", "gauntlet", true, "gauntlet stop-hook"},
		{hosts.Gemini, "linux", "gauntlet", true, "gauntlet stop-hook"},
		// Claude Code runs hooks with Git Bash: sh quoting, forward slashes (a backslash is an
		// escape to bash).
		{hosts.Claude, "windows", plain, false, "C:/Users/dev/bin/gauntlet.exe stop-hook"},
		{hosts.Claude, "windows", spaced, false, "'C:/Program Files/gauntlet/gauntlet.exe' stop-hook"},
		// PowerShell hosts: a plain path as a bare word (PowerShell, sh and cmd.exe all run it);
		// one with a space through the call operator, as a quoted string alone is no command.
		{hosts.Codex, "windows", plain, false, "C:/Users/dev/bin/gauntlet.exe stop-hook"},
		{hosts.Cursor, "windows", spaced, false, "& 'C:/Program Files/gauntlet/gauntlet.exe' stop-hook"},
		{hosts.Gemini, "windows", `C:\Users\o'brien\gauntlet.exe`, false, "& 'C:/Users/o''brien/gauntlet.exe' stop-hook"},
		// Copilot's command key is its bash one.
		{hosts.Copilot, "windows", spaced, false, "'C:/Program Files/gauntlet/gauntlet.exe' stop-hook"},
		// Elsewhere, sh for everyone, as before.
		{hosts.Codex, "linux", "/opt/my tools/gauntlet", false, "'/opt/my tools/gauntlet' stop-hook"},
		{hosts.Cursor, "darwin", "/usr/local/bin/gauntlet", false, "/usr/local/bin/gauntlet stop-hook"},
	} {
		if got := HookCommand(tc.host, tc.goos, tc.program, tc.bare, "stop-hook"); got != tc.want {
			t.Errorf("HookCommand(%s, %s, %q) = %q, want %q", tc.host, tc.goos, tc.program, got, tc.want)
		}
	}
}

// Whatever the spelling, the command is recognised as gauntlet's stop hook, on any system.
func TestHookCommandsAreRecognised(t *testing.T) {
	for _, host := range hosts.Names() {
		for _, goos := range []string{"windows", "linux"} {
			for _, program := range []string{`C:\Program Files\gauntlet\gauntlet.exe`, `C:\bin\gauntlet.exe`, "/opt/x y/gauntlet"} {
				command := HookCommand(host, goos, program, false, "stop-hook")
				if !IsStopHookCommand(command) {
					t.Errorf("%s on %s: %q is not recognised as the stop hook", host, goos, command)
				}
				if ps := powerShellCommand(command); !IsStopHookCommand(ps) {
					t.Errorf("%s on %s: the powershell form %q is not recognised", host, goos, ps)
				}
			}
		}
	}
}

func TestPowerShellCommand(t *testing.T) {
	for posix, want := range map[string]string{
		"gauntlet stop-hook":                                 "gauntlet stop-hook",
		"gauntlet stop-hook --host copilot":                  "gauntlet stop-hook --host copilot",
		"/usr/local/bin/gauntlet stop-hook":                  "/usr/local/bin/gauntlet stop-hook",
		"'C:/Program Files/gauntlet/gauntlet.exe' stop-hook": "& 'C:/Program Files/gauntlet/gauntlet.exe' stop-hook",
	} {
		if got := powerShellCommand(posix); got != want {
			t.Errorf("powerShellCommand(%q) = %q, want %q", posix, got, want)
		}
	}
}
