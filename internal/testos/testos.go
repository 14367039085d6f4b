// Package testos gives the tests the few operating-system operations they need (a FIFO, whether
// a process is alive, killing one) in a form that compiles everywhere, so that every package's
// tests build for Windows too; on a system without the operation, Mkfifo says so and the test
// skips.
package testos

import (
	"errors"
	"os"
)

// ErrUnsupported is returned where the operation does not exist on this system.
var ErrUnsupported = errors.New("not supported on this operating system")

// RunWithUserState runs a package's tests with XDG_STATE_HOME set to a directory of their own,
// so that the key sealing gauntlet's state (internal/seal) is never the real user's, and returns
// their exit code. Meant for TestMain: os.Exit(testos.RunWithUserState(m)).
func RunWithUserState(m interface{ Run() int }) int {
	dir, err := os.MkdirTemp("", "gauntlet-user-state-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	os.Setenv("XDG_STATE_HOME", dir)
	return m.Run()
}
