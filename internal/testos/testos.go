// Package testos gives the tests the few operating-system operations they need (a FIFO, whether
// a process is alive, killing one) in a form that compiles everywhere, so that every package's
// tests build for Windows too; on a system without the operation, Mkfifo says so and the test
// skips.
package testos

import "errors"

// ErrUnsupported is returned where the operation does not exist on this system.
var ErrUnsupported = errors.New("not supported on this operating system")
