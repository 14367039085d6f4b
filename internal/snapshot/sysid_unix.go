//go:build unix && !linux

package snapshot

import (
	"fmt"
	"io/fs"

	"golang.org/x/sys/unix"
)

// fileSysID adds what only the system tells of a file: its device and inode (a file replaced is
// another inode) and its change time, which no one can set back.
func fileSysID(path string, _ fs.FileInfo) (string, bool) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return "", false
	}
	return fmt.Sprintf("\x00%d\x00%d\x00%d.%09d", st.Dev, st.Ino, st.Ctim.Sec, st.Ctim.Nsec), true
}
