//go:build unix && !linux

package toolid

import (
	"fmt"
	"io/fs"

	"golang.org/x/sys/unix"
)

// sysID adds what only the system tells: the file's device and inode (a replaced file is another
// inode) and its change time, which its owner cannot set back as they can the modification time.
func sysID(path string, _ fs.FileInfo) string {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return "\x00unknown"
	}
	return fmt.Sprintf("\x00%d\x00%d\x00%d.%09d", st.Dev, st.Ino, st.Ctim.Sec, st.Ctim.Nsec)
}
