//go:build windows

package proc

import (
	"errors"

	"golang.org/x/sys/windows"
)

// stillActive is what GetExitCodeProcess reports for a process that has not exited.
const stillActive = 259

// Alive reports whether a process with this pid is running (one of another user's counts).
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return errors.Is(err, windows.ERROR_ACCESS_DENIED)
	}
	defer windows.CloseHandle(h)
	var code uint32
	return windows.GetExitCodeProcess(h, &code) == nil && code == stillActive
}
