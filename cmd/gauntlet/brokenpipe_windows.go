//go:build windows

package main

import (
	"errors"

	"golang.org/x/sys/windows"
)

// isBrokenPipe reports whether a write failed because its reader went away: Windows says "the
// pipe is being closed" (ERROR_NO_DATA) or "the pipe has been ended" (ERROR_BROKEN_PIPE) where
// Unix says EPIPE.
func isBrokenPipe(err error) bool {
	return errors.Is(err, windows.ERROR_NO_DATA) || errors.Is(err, windows.ERROR_BROKEN_PIPE)
}

// brokenPipeErr is the error a write to a pipe without a reader fails with, for tests.
var brokenPipeErr error = windows.ERROR_NO_DATA
