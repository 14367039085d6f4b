package snapshot

import (
	"fmt"
	"io/fs"
	"syscall"
)

// fileSysID adds what only the system tells of a file: its device and inode (a file replaced is
// another inode) and its change time, which no one can set back. On Linux the stat already made
// (info) holds them.
func fileSysID(_ string, info fs.FileInfo) (string, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("\x00%d\x00%d\x00%d.%09d", st.Dev, st.Ino, st.Ctim.Sec, st.Ctim.Nsec), true
}
