//go:build unix

package safefile

import (
	"io/fs"
	"os"
	"syscall"
)

// flags: O_NONBLOCK so that opening a FIFO without a writer returns at once (and a pollable
// file's reads can time out), O_NOCTTY so that a terminal planted at the path is never adopted.
const flags = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOCTTY

// Owner returns the uid owning the file described by info, and false where the platform does not
// say.
func Owner(info fs.FileInfo) (uint32, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return st.Uid, true
}
