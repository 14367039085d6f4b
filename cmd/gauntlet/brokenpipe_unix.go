//go:build unix

package main

import (
	"errors"
	"syscall"
)

// isBrokenPipe reports whether a write failed because its reader went away.
func isBrokenPipe(err error) bool { return errors.Is(err, syscall.EPIPE) }

// brokenPipeErr is the error a write to a pipe without a reader fails with, for tests.
var brokenPipeErr error = syscall.EPIPE
