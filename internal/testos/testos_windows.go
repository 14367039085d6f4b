//go:build windows

package testos

import (
	"os"

	"golang.org/x/sys/windows"
)

// Mkfifo reports ErrUnsupported: Windows named pipes do not live in the file system.
func Mkfifo(string) error { return ErrUnsupported }

// stillActive is the exit code GetExitCodeProcess reports for a process that has not ended.
const stillActive = 259

// Alive reports whether pid is a running process.
func Alive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return false
	}
	return code == stillActive
}

// Kill kills pid outright, ignoring errors: tests use it to leave nothing behind.
func Kill(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
