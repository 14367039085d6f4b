//go:build unix

package main

import (
	"io"
	"os"
	"syscall"
)

// pollableStdin switches the stdin descriptor fd to non-blocking mode, so that Go's poller can
// put a deadline on its reads.
func pollableStdin(in io.Reader, fd int) (io.Reader, func()) {
	if err := syscall.SetNonblock(fd, true); err != nil {
		return in, func() {}
	}
	return os.NewFile(uintptr(fd), "/dev/stdin"), func() { syscall.SetNonblock(fd, false) }
}
