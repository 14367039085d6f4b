//go:build unix

package main

import (
	"errors"
	"syscall"
)

// isBrokenPipe reports whether a write failed because its reader went away.
func isBrokenPipe(err error) bool { return errors.Is(err, syscall.EPIPE) }
