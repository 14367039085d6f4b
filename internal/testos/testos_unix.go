//go:build unix

package testos

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// Mkfifo makes a named pipe at path.
func Mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }

// Alive reports whether pid is a running process. A zombie counts as dead: it runs no code, and
// whether it is reaped depends on the machine's init, not on gauntlet.
func Alive(pid int) bool {
	if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		// Without /proc (macOS) kill(2) is all there is to ask.
		return !errors.Is(err, fs.ErrNotExist) || !procMounted()
	}
	// The state follows the parenthesised command name: Z is a zombie.
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || !bytes.HasPrefix(stat[i+1:], []byte(" Z"))
}

func procMounted() bool {
	_, err := os.Stat("/proc/self/stat")
	return err == nil
}

// Kill kills pid outright, ignoring errors: tests use it to leave nothing behind.
func Kill(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }
