package oscmd

import (
	"os"
	"runtime"
)

// Local is the system gauntlet runs on.
func Local() System {
	return System{GOOS: runtime.GOOS, Getenv: os.Getenv, IsFile: isProgram}
}

// isProgram reports whether path is a regular file that can be started: on Unix one with an
// execute bit; on Windows any (whether it runs is CreateProcess's to say).
func isProgram(path string) bool {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return false
	}
	return runtime.GOOS == "windows" || info.Mode().Perm()&0o111 != 0
}
